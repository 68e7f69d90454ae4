/**
 * Repeated statements run as named statements on PostgreSQL connections (db/prepared.ts): once
 * per text and connection, at most `limit` texts, and a statement whose result type a migration
 * changed is prepared anew. PostgreSQL only (the server-pg project); the embedded engine's side
 * (one session for all connections) is in engine.test.ts.
 */
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openTestDatabase, usingPostgres } from '../../test/helpers';
import { executeRows } from './client';
import { prepareRepeatedStatements } from './prepared';

/** The named statements of the connection that runs this (a statement without parameters: unnamed). */
const PREPARED = 'SELECT statement FROM pg_prepared_statements ORDER BY prepare_time';

async function connected(limit?: number): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  prepareRepeatedStatements(client, limit);
  return client;
}

describe.skipIf(!usingPostgres())('repeated statements on PostgreSQL', () => {
  it('are named once per connection, on the pool and in a transaction, with the same answers', async () => {
    const database = await openTestDatabase();
    try {
      const read = (db: Parameters<typeof executeRows>[0], n: number) =>
        executeRows<{ n: number }>(db, sql`SELECT ${n}::int + 1 AS n`);
      // The pool (pg-pool's query with a callback) and a transaction (the client's promise).
      expect(await read(database.db, 1)).toEqual([{ n: 2 }]);
      const statements = await database.db.transaction(async (tx) => {
        expect(await read(tx, 2)).toEqual([{ n: 3 }]);
        expect(await read(tx, 3)).toEqual([{ n: 4 }]);
        return executeRows<{ statement: string }>(tx, sql.raw(PREPARED));
      });
      expect(statements.filter((s) => s.statement === 'SELECT $1::int + 1 AS n')).toHaveLength(1);
    } finally {
      await database.dispose();
    }
  });

  it('name at most `limit` texts on a connection; the others run unnamed', async () => {
    const client = await connected(2);
    try {
      for (const n of [1, 2, 3, 4]) {
        const { rows } = await client.query(`SELECT $1::int * ${n} AS n`, [10]);
        expect(rows).toEqual([{ n: 10 * n }]);
      }
      // Without parameters nothing is named.
      await client.query('SELECT 1');
      const { rows } = await client.query(PREPARED);
      expect(rows.map((r) => r.statement)).toEqual(['SELECT $1::int * 1 AS n', 'SELECT $1::int * 2 AS n']);
    } finally {
      await client.end();
    }
  });

  it('a statement whose result type changed fails once, then is prepared anew', async () => {
    const client = await connected();
    try {
      await client.query('CREATE TEMP TABLE t (id int PRIMARY KEY, a int)');
      await client.query('INSERT INTO t VALUES (1, 7)');
      const read = () => client.query('SELECT a FROM t WHERE id = $1', [1]);
      expect((await read()).rows).toEqual([{ a: 7 }]);
      await client.query('ALTER TABLE t ALTER COLUMN a TYPE text');
      await expect(read()).rejects.toMatchObject({ code: '0A000' });
      expect((await read()).rows).toEqual([{ a: '7' }]);
      expect((await read()).rows).toEqual([{ a: '7' }]);
    } finally {
      await client.end();
    }
  });
});
