// Reaches into another module's service file instead of its entry.
import { countBetaRows } from '../beta/service';

export const twice = () => 2 * countBetaRows();
