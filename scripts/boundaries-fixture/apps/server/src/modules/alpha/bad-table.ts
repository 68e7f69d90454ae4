// Reads another module's table.
import { betaRows } from '../beta/schema';

export const betaTable = () => betaRows.name;
