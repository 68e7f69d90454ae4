export { EloChart } from './EloChart';
