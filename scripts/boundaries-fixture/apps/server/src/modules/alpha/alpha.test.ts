// Tests may arrange state through anything: allowed.
import { betaRows } from '../beta/schema';
import { countBetaRows } from '../beta/service';

export const arranged = [betaRows.name, countBetaRows()];
