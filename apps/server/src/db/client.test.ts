/**
 * A PostgreSQL connection that dies while its client is checked out of the pool (a restart in the
 * middle of a transaction) must fail that transaction, not end the process. PostgreSQL only (the
 * server-pg project); PGlite has no connections to lose. And advisory locks: taken on PostgreSQL,
 * not sent to PGlite (one transaction at a time).
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, usingPostgres } from '../../test/helpers';
import { takeAdvisoryLocks } from './client';

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

describe('advisory locks', () => {
  const LOCK = sql`SELECT pg_advisory_xact_lock(7316099)`;

  it.runIf(usingPostgres())('hold a second transaction until the first ends', async () => {
    const database = await openTestDatabase();
    try {
      const order: string[] = [];
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      const first = database.db.transaction(async (tx) => {
        await takeAdvisoryLocks(database, tx, LOCK);
        order.push('first locked');
        await held;
        order.push('first ends');
      });
      await expect.poll(() => order).toEqual(['first locked']);
      const second = database.db.transaction(async (tx) => {
        await takeAdvisoryLocks(database, tx, LOCK);
        order.push('second locked');
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(order).toEqual(['first locked']);
      release();
      await Promise.all([first, second]);
      expect(order).toEqual(['first locked', 'first ends', 'second locked']);
    } finally {
      await database.dispose();
    }
  });

  it.skipIf(usingPostgres())('are not sent to PGlite', async () => {
    const database = await openTestDatabase();
    try {
      // A statement PGlite would refuse: sent, it would fail the transaction.
      const done = database.db.transaction(async (tx) => {
        await takeAdvisoryLocks(database, tx, sql`SELECT pg_advisory_xact_lock('not a number')`);
        return 'ran';
      });
      await expect(done).resolves.toBe('ran');
    } finally {
      await database.dispose();
    }
  });
});
