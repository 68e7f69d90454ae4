/**
 * A PostgreSQL connection that dies while its client is checked out of the pool (a restart in the
 * middle of a transaction) must fail that transaction, not end the process. PostgreSQL only (the
 * server-pg project); PGlite has no connections to lose.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, usingPostgres } from '../../test/helpers';

describe.skipIf(!usingPostgres())('the PostgreSQL pool', () => {
  it('survives a connection killed between two queries of a transaction; the transaction fails', async () => {
    const database = await openTestDatabase();
    const killer = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await killer.connect();
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    try {
      const outcome = database.db.transaction(async (tx) => {
        const result = (await tx.execute(sql`SELECT pg_backend_pid() AS pid`)) as unknown as {
          rows: { pid: number }[];
        };
        const [row] = result.rows;
        // Between two queries, as a transaction waiting on other work would be.
        await killer.query('SELECT pg_terminate_backend($1)', [row.pid]);
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.execute(sql`SELECT 1`);
      });
      await expect(outcome).rejects.toThrow();
      expect(uncaught).toEqual([]);
      // The pool serves the next query on a new connection.
      expect(await database.ping()).toBe(true);
    } finally {
      process.off('uncaughtException', onUncaught);
      await killer.end();
      await database.dispose();
    }
  });
});
