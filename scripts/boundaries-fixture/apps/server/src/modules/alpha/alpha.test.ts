// Tests may arrange state through anything: allowed.
import { twiceOf } from '../beta/helpers';
import { betaRows } from '../beta/schema';

export const arranged = [betaRows.name, twiceOf(1)];
