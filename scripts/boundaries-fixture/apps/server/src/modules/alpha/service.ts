// Through the other module's entry: allowed.
import { countBetaRows } from '../beta';
import { alphaRows } from './schema';

export const alphaSummary = () => `${alphaRows.name}: ${countBetaRows()}`;
