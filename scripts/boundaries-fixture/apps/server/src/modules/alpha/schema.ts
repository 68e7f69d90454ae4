// A foreign key to another module's table: allowed in schema.ts.
import { betaRows } from '../beta/schema';

export const alphaRows = { name: 'alpha_rows', beta: betaRows.name };
