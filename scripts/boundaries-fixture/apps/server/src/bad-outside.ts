// Code outside the modules reaches into a module's service file.
import { countBetaRows } from './modules/beta/service';

export const outside = () => countBetaRows();
