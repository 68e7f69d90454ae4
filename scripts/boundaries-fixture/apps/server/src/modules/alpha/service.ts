// Through the other module's entries: allowed.
import { countBetaRows as viaIndex } from '../beta';
import { countBetaRows } from '../beta/service';
import { alphaRows } from './schema';

export const alphaSummary = () => `${alphaRows.name}: ${countBetaRows()} ${viaIndex()}`;
