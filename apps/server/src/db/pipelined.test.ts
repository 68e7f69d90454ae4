/**
 * A transaction whose COMMIT goes out with its last statements (db/pipelined.ts): it commits and
 * rolls back as Drizzle's does, on both engines; on a `pg` connection the COMMIT is on the wire
 * before those statements are answered, behind every statement the arguments start, and nothing
 * started after it runs.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase, usingPostgres } from '../../test/helpers';
import { createScratchDatabase } from '../../test/scratch-database';
import { type Database, type Db, executeRows, openPostgres } from './client';
import { pipelinedTransaction, STATEMENT_AFTER_COMMIT } from './pipelined';

const insert = (tx: Pick<Db, 'execute'>, n: number) => tx.execute(sql`INSERT INTO pipelined_t VALUES (${n})`);

async function rowsIn(database: Database): Promise<number[]> {
  const rows = await executeRows<{ n: number }>(database.db, sql`SELECT n FROM pipelined_t ORDER BY n`);
  return rows.map((r) => r.n);
}

describe('a transaction committed with its last statements', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
    await database.db.execute(sql`CREATE TABLE pipelined_t (n int PRIMARY KEY)`);
  });
  afterAll(() => database.dispose());
  const clear = () => database.db.execute(sql`DELETE FROM pipelined_t`);

  it('commits what it wrote, with commitWith and without, and answers each statement', async () => {
    await clear();
    const [[one], two] = await pipelinedTransaction(database, async (tx, commitWith) => {
      await insert(tx, 1);
      return commitWith(
        executeRows<{ n: number }>(tx, sql`INSERT INTO pipelined_t VALUES (2) RETURNING n`),
        executeRows<{ n: number }>(tx, sql`SELECT count(*)::int AS n FROM pipelined_t`),
      );
    });
    expect([one.n, two[0].n]).toEqual([2, 2]);
    await pipelinedTransaction(database, (tx) => insert(tx, 3));
    expect(await rowsIn(database)).toEqual([1, 2, 3]);
  });

  it('rolls back when the callback throws before commitWith', async () => {
    await clear();
    const attempt = pipelinedTransaction(database, async (tx) => {
      await insert(tx, 1);
      throw new Error('refused');
    });
    await expect(attempt).rejects.toThrow('refused');
    expect(await rowsIn(database)).toEqual([]);
  });

  it('throws the failing statement’s error, commits nothing, and leaves the database usable', async () => {
    await clear();
    await insert(database.db, 5);
    const attempt = pipelinedTransaction(database, async (tx, commitWith) => {
      await insert(tx, 1);
      return commitWith(insert(tx, 2), insert(tx, 5), insert(tx, 3));
    });
    await expect(attempt).rejects.toMatchObject({ cause: { code: '23505' } });
    expect(await rowsIn(database)).toEqual([5]);
    await pipelinedTransaction(database, (tx, commitWith) => commitWith(insert(tx, 6)));
    expect(await rowsIn(database)).toEqual([5, 6]);
  });
});

describe.runIf(usingPostgres())('on PostgreSQL (pipeline mode)', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  let other: pg.Client;
  beforeAll(async () => {
    scratch = await createScratchDatabase(process.env.TEST_DATABASE_URL as string, 'openpug_t');
    database = openPostgres(scratch.url);
    await database.db.execute(sql`CREATE TABLE pipelined_t (n int PRIMARY KEY)`);
    await database.db.execute(
      sql`CREATE TABLE pipelined_child (parent int REFERENCES pipelined_t DEFERRABLE INITIALLY DEFERRED)`,
    );
    other = new pg.Client({ connectionString: scratch.url });
    await other.connect();
  });
  afterAll(async () => {
    await other.end();
    await database.close();
    await scratch.drop();
  });
  const clear = () => database.db.execute(sql`TRUNCATE pipelined_t, pipelined_child`);

  it('writes the COMMIT before its last statements are answered', async () => {
    const sentAt = Date.now();
    // Another connection waits for the transaction's lock and reads the clock once it has it,
    // that is once the transaction has committed.
    let granted: Promise<pg.QueryResult> | undefined;
    await pipelinedTransaction(database, async (tx, commitWith) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(4242)`);
      granted = other.query(
        `SELECT pg_advisory_lock(4242), (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS at`,
      );
      const answers = commitWith(tx.execute(sql`SELECT pg_sleep(0.1)`));
      // The event loop is held for 600 ms once the statement is handed over: a COMMIT written
      // only after its answer would reach PostgreSQL after that.
      setImmediate(() => {
        const until = Date.now() + 600;
        while (Date.now() < until);
      });
      return answers;
    });
    const result = await (granted as Promise<pg.QueryResult>);
    await other.query('SELECT pg_advisory_unlock(4242)');
    const committedAfter = Number(result.rows[0].at) - sentAt;
    expect(committedAfter).toBeGreaterThanOrEqual(90);
    expect(committedAfter).toBeLessThan(500);
  });

  it('sends the COMMIT behind a statement a call starts only after a few microtasks', async () => {
    await clear();
    const late = async (tx: Db) => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      return insert(tx, 2);
    };
    await pipelinedTransaction(database, (tx, commitWith) => commitWith(insert(tx, 1), late(tx)));
    expect(await rowsIn(database)).toEqual([1, 2]);
  });

  it('refuses a statement started after the COMMIT was sent, which never runs', async () => {
    await clear();
    const attempt = pipelinedTransaction(database, async (tx, commitWith) => {
      await commitWith(insert(tx, 1));
      await insert(tx, 2);
    });
    // Drizzle names the statement and gives the refusal as the cause.
    await expect(attempt).rejects.toMatchObject({ cause: { message: STATEMENT_AFTER_COMMIT } });
    expect(await rowsIn(database)).toEqual([1]);
  });

  it('throws a COMMIT that fails (a foreign key checked at the commit) and keeps nothing', async () => {
    await clear();
    const child = (tx: Pick<Db, 'execute'>, parent: number): Promise<unknown> =>
      tx.execute(sql`INSERT INTO pipelined_child VALUES (${parent})`);
    const attempt = pipelinedTransaction(database, (tx, commitWith) =>
      commitWith(insert(tx, 1), child(tx, 9)),
    );
    await expect(attempt).rejects.toMatchObject({ code: '23503' });
    expect(await rowsIn(database)).toEqual([]);
    const children = await executeRows(database.db, sql`SELECT * FROM pipelined_child`);
    expect(children).toEqual([]);
  });
});
