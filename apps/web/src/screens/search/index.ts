export { SearchScreen as default } from './SearchScreen';
