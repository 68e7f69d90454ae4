export { HomeScreen as default } from './HomeScreen';
