import { getTableColumns, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, usingPostgres } from '../../test/helpers';
import * as schema from './schema';

// Runs on PGlite, and on PostgreSQL in the server-pg project (TEST_DATABASE_URL).
describe(`migrations on ${usingPostgres() ? 'PostgreSQL' : 'PGlite'}`, () => {
  it('create every table and column of the schema, and re-running them is a no-op', async () => {
    const database = await openTestDatabase();
    try {
      await database.migrate(); // second run: nothing to do, no error
      const rows = await database.db.execute<{ table_name: string; column_name: string }>(
        sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
      );
      const have = new Set(
        (rows as unknown as { rows: { table_name: string; column_name: string }[] }).rows.map(
          (r) => `${r.table_name}.${r.column_name}`,
        ),
      );
      for (const table of Object.values(schema)) {
        if (!table || typeof table !== 'object' || !('getSQL' in table)) continue;
        const name = (table as unknown as { [k: symbol]: string })[Symbol.for('drizzle:Name')];
        for (const col of Object.values(getTableColumns(table as never)) as { name: string }[]) {
          expect(have.has(`${name}.${col.name}`), `${name}.${col.name}`).toBe(true);
        }
      }
    } finally {
      await database.dispose();
    }
  });
});
