/**
 * A transaction whose COMMIT goes out with its last statements (`commitWith`), on a `pg`
 * connection in pipeline mode (db/client.ts openPool). Drizzle's own transaction waits for the
 * answers to the last statements before it sends COMMIT: one round trip more, and with it one more
 * wait for a busy event loop to take in an answer. The queue's join and accept batches are such
 * transactions, one after another under their lock, and each player of a crowd waits for about
 * one and a half of them (issue 20 targets 4 and 5). In the 1,000-player burst a join batch took
 * 0.76–0.84 ms per join from its lock to its answers with this, 0.90–0.96 ms without
 * (bench/RESULTS.md, session 32).
 *
 * Hand-written, beside Drizzle's `NodePgSession.transaction` (drizzle-orm 0.45,
 * node-postgres/session.js), whose session and transaction classes it uses: Drizzle has no way to
 * send a COMMIT before its callback returns.
 *
 * - `commitWith(...statements)` is `sentTogether` (db/client.ts) followed on the wire by COMMIT.
 *   The COMMIT is written once the statements the arguments start without waiting for an answer
 *   are written (the microtasks their calls queued have run), so an argument must be a statement
 *   or a call whose statements all start before its first answer. A statement started on the
 *   transaction after the COMMIT is refused with an error, never sent outside the transaction.
 * - A statement that fails aborts the transaction; PostgreSQL then answers the COMMIT with
 *   ROLLBACK, and that statement's error is thrown. A COMMIT that fails (a foreign key checked at
 *   the commit) is thrown too. Either way the transaction is over: nothing is rolled back after.
 *   So once `commitWith` is called, what the callback does after it must not fail: a throw there
 *   no longer undoes the statements (the queue's batches only build their answers after it).
 * - Without `commitWith`, the transaction commits when the callback returns, as Drizzle's does;
 *   when it throws, it rolls back.
 * - On PGlite in this process (tests, the admin CLI) it is Drizzle's transaction: `commitWith` is
 *   `sentTogether` and the COMMIT follows the answers.
 */
import { NodePgSession, NodePgTransaction } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { type Database, type Db, sentTogether } from './client';

export type CommitWith = typeof sentTogether;

/** The parts of Drizzle's pool session a transaction on one of its connections is built from. */
interface PoolSession {
  client: pg.Pool;
  dialect: ConstructorParameters<typeof NodePgSession>[1];
  schema: ConstructorParameters<typeof NodePgSession>[2];
  options: ConstructorParameters<typeof NodePgSession>[3];
}

type QueryFn = (...args: unknown[]) => unknown;

export const STATEMENT_AFTER_COMMIT = 'a statement was started after its transaction’s COMMIT was sent';

/**
 * Resolves once the microtasks queued before the call, and those they queue, have run, from a
 * microtask or from a `process.nextTick` callback alike: a tick queued from a microtask runs only
 * once the microtask queue is empty, and one queued from a tick callback runs before it.
 */
async function afterQueuedMicrotasks(): Promise<void> {
  await new Promise((resolve) => process.nextTick(resolve));
  await new Promise((resolve) => process.nextTick(resolve));
}

export async function pipelinedTransaction<T>(
  database: Pick<Database, 'db' | 'driver'>,
  fn: (tx: Db, commitWith: CommitWith) => Promise<T>,
): Promise<T> {
  if (database.driver !== 'pg') return database.db.transaction((tx) => fn(tx as unknown as Db, sentTogether));
  const pool = (database.db as unknown as { session: PoolSession }).session;
  const client = await pool.client.connect();
  // The transaction's end, once it is on the wire: its COMMIT (or a ROLLBACK answered for it).
  let ending: Promise<void> | null = null;
  // Drizzle's session only calls query() on its client.
  const guarded = {
    query: (...args: unknown[]) => {
      if (ending) throw new Error(STATEMENT_AFTER_COMMIT);
      return (client.query as QueryFn).apply(client, args);
    },
  };
  const session = new NodePgSession(
    guarded as unknown as pg.PoolClient,
    pool.dialect,
    pool.schema,
    pool.options,
  );
  const tx = new NodePgTransaction(pool.dialect, session, pool.schema) as unknown as Db;
  const end = (statement: 'COMMIT' | 'ROLLBACK') => {
    const sent = client.query(statement);
    ending = sent.then((result) => {
      // PostgreSQL answers the COMMIT of a transaction a failed statement aborted with ROLLBACK.
      if (result.command !== statement)
        throw new Error(`the transaction was not committed (${result.command})`);
    });
    return ending;
  };
  // Answered before `fn` runs, as in Drizzle: on the embedded engine, which runs one transaction
  // at a time, that answer is what tells a queue batch it may take its requests.
  try {
    await client.query('BEGIN');
  } catch (err) {
    client.release(err as Error);
    throw err;
  }
  let committing: Promise<void> | null = null;
  const commitWith = (async (...statements: unknown[]) => {
    const answers = sentTogether(...statements);
    committing = afterQueuedMicrotasks().then(() => end('COMMIT'));
    // Every answer is in before this returns or throws, the statements' failure first.
    const [results, committed] = await Promise.allSettled([answers, committing]);
    if (results.status === 'rejected') throw results.reason;
    if (committed.status === 'rejected') throw committed.reason;
    return results.value;
  }) as CommitWith;
  try {
    const result = await fn(tx, commitWith);
    if (committing) await committing;
    else await end('COMMIT');
    return result;
  } catch (err) {
    if (committing) await (committing as Promise<void>).catch(() => {});
    else if (!ending) await end('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}
