/**
 * Statements sent together in one transaction (db/client.ts sentTogether): each answer comes back
 * to its own statement, calls run in the order given, one failure rolls the whole transaction
 * back and is the one thrown, and on a `pg` connection they really are on the wire together
 * (pipeline mode), so the second does not wait for the event loop to take in the first's answer.
 * Both engines; the wire only on PostgreSQL.
 */
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase, usingPostgres } from '../../test/helpers';
import { type Db, sentTogether } from './client';

const rowsOf = (r: unknown) => (r as { rows: Record<string, unknown>[] }).rows;

describe('statements sent together', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`CREATE TABLE together_t (n int PRIMARY KEY)`);
  });
  afterAll(() => database.dispose());

  it('answers each statement with its own result', async () => {
    const [a, b, c] = await database.db.transaction((tx) =>
      sentTogether(
        tx.execute(sql`INSERT INTO together_t VALUES (1), (2) RETURNING n`),
        tx.execute(sql`SELECT 'b'::text AS v`),
        tx.execute(sql`INSERT INTO together_t VALUES (3) RETURNING n`),
      ),
    );
    expect(rowsOf(a).map((r) => r.n)).toEqual([1, 2]);
    expect(rowsOf(b)).toEqual([{ v: 'b' }]);
    expect(rowsOf(c)).toEqual([{ n: 3 }]);
  });

  it('runs calls in the order given: a read after a write sees it', async () => {
    const readBack = async (tx: Pick<Db, 'execute'>) =>
      rowsOf(await tx.execute(sql`SELECT count(*)::int AS n FROM together_t WHERE n BETWEEN 20 AND 22`))[0].n;
    const write = async (tx: Pick<Db, 'execute'>, values: SQL) =>
      tx.execute(sql`INSERT INTO together_t VALUES ${values}`);
    try {
      const [, seenAfterOne, , seenAfterThree] = await database.db.transaction((tx) =>
        sentTogether(write(tx, sql`(20)`), readBack(tx), write(tx, sql`(21), (22)`), readBack(tx)),
      );
      expect([seenAfterOne, seenAfterThree]).toEqual([1, 3]);
    } finally {
      await database.db.execute(sql`DELETE FROM together_t WHERE n BETWEEN 20 AND 22`);
    }
  });

  it('rolls the transaction back when one fails, throws that failure, and leaves the database usable', async () => {
    const attempt = database.db.transaction((tx) =>
      sentTogether(
        tx.execute(sql`INSERT INTO together_t VALUES (10)`),
        tx.execute(sql`INSERT INTO together_t VALUES (1)`), // taken by the test above
        tx.execute(sql`INSERT INTO together_t VALUES (11)`),
      ),
    );
    // The duplicate (unique_violation), not the aborted transaction that follows it.
    await expect(attempt).rejects.toThrow(/VALUES \(1\)/);
    await expect(attempt).rejects.toMatchObject({ cause: { code: '23505' } });
    const left = rowsOf(await database.db.execute(sql`SELECT n FROM together_t ORDER BY n`));
    expect(left.map((r) => r.n)).toEqual([1, 2, 3]);
  });

  it.runIf(usingPostgres())(
    'writes the second statement before the first is answered (pipeline mode)',
    async () => {
      const sentAt = Date.now();
      const answered = database.db.transaction(async (tx) => {
        const both = sentTogether(
          tx.execute(sql`SELECT pg_sleep(0.1)`),
          tx.execute(sql`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS at`),
        );
        // The event loop is held for 600 ms once both are handed over: a client that waits for the
        // first answer before it writes the second writes it only after that.
        setImmediate(() => {
          const until = Date.now() + 600;
          while (Date.now() < until);
        });
        return both;
      });
      const [, second] = await answered;
      const ranAfter = Number(rowsOf(second)[0].at) - sentAt;
      expect(ranAfter).toBeGreaterThanOrEqual(90);
      expect(ranAfter).toBeLessThan(500);
    },
  );
});
