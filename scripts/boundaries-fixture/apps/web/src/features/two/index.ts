export { twoStore } from './store';
