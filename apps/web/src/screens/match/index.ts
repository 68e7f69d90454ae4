export { MatchScreen as default } from './MatchScreen';
