export { countBetaRows } from './service';
