import { betaRows } from './schema';

export const countBetaRows = () => betaRows.name.length;
