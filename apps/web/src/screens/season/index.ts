export { SeasonScreen as default } from './SeasonScreen';
