import { twiceOf } from './helpers';
import { betaRows } from './schema';

export const countBetaRows = () => twiceOf(betaRows.name.length);
