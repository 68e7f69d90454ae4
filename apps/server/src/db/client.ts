/**
 * Opens the database: PostgreSQL when DATABASE_URL is set; otherwise PGlite in `$DATA_DIR/db`,
 * which the server runs in its own process and reaches over the wire protocol (db/engine.ts), and
 * which tests, benches and the admin CLI open in-process (`openPglite`). All go through the same
 * Drizzle schema and the same migrations folder.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { prepareRepeatedStatements } from './prepared';
import * as schema from './schema';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  /** The engine holding the data (health, backups). */
  kind: 'pglite' | 'postgres';
  /** How this process talks to it: the `pg` driver (PostgreSQL, the embedded engine's process) or PGlite in-process. */
  driver: 'pg' | 'pglite';
  /** Applies pending migrations; safe to call from several instances at once on PostgreSQL. */
  migrate(): Promise<void>;
  ping(): Promise<boolean>;
  close(): Promise<void>;
  /** Where background trouble (an idle connection lost) is logged once the app's logger exists (buildApp). */
  logTo(log: { warn(obj: object, msg: string): void }): void;
}

/** The migrations folder, found from source (src/db) and from the bundle (dist). */
export function migrationsFolder(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  for (const candidate of [path.join(here, '../../migrations'), path.join(here, '../migrations')]) {
    if (existsSync(path.join(candidate, 'meta/_journal.json'))) return candidate;
  }
  throw new Error(`migrations folder not found near ${here}`);
}

// Any lock id will do as long as every instance uses the same one.
const MIGRATION_LOCK_ID = 7_316_001;

export function openPostgres(url: string): Database {
  return openPool({ connectionString: url, max: 10 }, 'postgres');
}

/** A `pg` pool as a Database: PostgreSQL, or the embedded engine's process (db/engine.ts). */
export function openPool(config: pg.PoolConfig, kind: Database['kind']): Database {
  // Pipeline mode (node-postgres 8.23, https://node-postgres.com/features/pipelining): a client
  // writes each query as it is given, without waiting for the answer to the one before, so the
  // statements a transaction sends together (`sentTogether`) cost one wait for the answers, not one
  // each. A client running one query at a time behaves as before.
  const pool = new pg.Pool({ ...config, pipeline: true });
  // An idle client that loses its connection (a database restart, a dropped test database) emits
  // 'error' on the pool; unhandled, that would end the process. The next query reconnects.
  // Until buildApp hands over the app's logger there is none; the database is opened before it.
  let log: { warn(obj: object, msg: string): void } = {
    warn: (obj, msg) => console.warn(`openpug: ${msg}`, obj),
  };
  pool.on('error', (err) => log.warn({ err }, 'idle database connection lost; the next query reconnects'));
  // A client checked out of the pool (a transaction between two of its queries) emits the same
  // error on itself instead, and the pool does not listen then: a database restart at that moment
  // ended the process (dependencies.test.ts). Its next query fails, so the transaction rolls back.
  pool.on('connect', (client) => {
    client.on('error', (err) => log.warn({ err }, 'database connection lost; its transaction rolls back'));
    prepareRepeatedStatements(client);
  });
  const db = withoutParamTypings(drizzlePg(pool, { schema }) as unknown as Db);
  return {
    db,
    kind,
    driver: 'pg',
    async migrate() {
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        await migratePg(drizzlePg(client, { schema }), { migrationsFolder: migrationsFolder() });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
        client.release();
      }
    },
    ping: () => ping(db),
    close: () => pool.end(),
    logTo: (logger) => {
      log = logger;
    },
  };
}

/** `dir` undefined → in memory. `loadDataDir` seeds from a dump (tests use a migrated template). */
export function openPglite(dir?: string, loadDataDir?: Blob): Database {
  if (dir) mkdirSync(dir, { recursive: true });
  const client = new PGlite({ dataDir: dir, loadDataDir });
  const db = withoutParamTypings(drizzlePglite(client, { schema }) as unknown as Db);
  return {
    db,
    kind: 'pglite',
    driver: 'pglite',
    migrate: () => migratePglite(drizzlePglite(client, { schema }), { migrationsFolder: migrationsFolder() }),
    ping: () => ping(db),
    close: () => client.close(),
    // PGlite runs in this process: its errors reach the caller of the query.
    logTo: () => {},
    // Exposed for the test template.
    ...({ pglite: client } as object),
  };
}

/**
 * Statements of one transaction whose arguments do not depend on each other's answers, sent
 * together: on a `pg` connection (pipeline mode, `openPool`) all are written at once and answered
 * in one stream, and PGlite runs them one after another as they come. In a crowd every answer
 * waits for a busy event loop, so N statements sent together wait about once instead of N times
 * (issue 20 target 4). The driver runs them in the order they start. An argument that is a call
 * of an async function whose first await (or return) is its statement starts as it is evaluated,
 * so such calls run in the order given and a later one reads what an earlier one wrote
 * (together.test.ts); a query builder passed as it is starts only once every argument has been
 * evaluated, so it never goes before a call. Where nothing is written, the order does not matter.
 * When one fails, the transaction is aborted, the others fail with it, and the first failure is
 * thrown.
 */
export function sentTogether<const T extends readonly unknown[]>(
  ...statements: T
): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  return Promise.all(statements);
}

/**
 * Takes transaction-level advisory locks (`statement`: a `SELECT pg_advisory_xact_lock(…)`), held
 * until the transaction ends. Not on PGlite, in-process or the embedded engine: it runs one
 * transaction at a time, so a transaction holds the whole database already, and there the
 * statement only cost a round trip (every queue batch paid it: issue 20 target 4).
 */
export async function takeAdvisoryLocks(
  database: Pick<Database, 'kind'>,
  tx: Pick<Db, 'execute'>,
  statement: SQL,
): Promise<void> {
  if (database.kind !== 'pglite') await tx.execute(statement);
}

/**
 * Runs a statement written with sql`` and gives its rows (a SELECT's, or an INSERT's RETURNING):
 * both drivers (node-postgres, PGlite) answer `{ rows }`. Drizzle's builders map columns to
 * fields themselves; this is for the statements they cannot build.
 */
export async function executeRows<Row>(db: Pick<Db, 'execute'>, statement: SQL): Promise<Row[]> {
  const result = (await db.execute(statement)) as { rows?: unknown[] };
  return (result.rows ?? []) as Row[];
}

/**
 * Drizzle works out a type hint for every parameter of every statement it builds
 * (`PgDialect.prepareTyping`: up to nine walks of the parameter's class chain), and only its AWS
 * Data API driver reads the hints: node-postgres and PGlite build the same text and values and
 * drop them. In the matchmaking burst that work was ~6 % of the server thread (issue 20 target 4,
 * bench/RESULTS.md), so the dialect of our two drivers does not ask for it (typings.test.ts pins
 * that the statements are the same). The transactions share the database's dialect.
 */
function withoutParamTypings(db: Db): Db {
  (db as unknown as { dialect: { prepareTyping?: unknown } }).dialect.prepareTyping = undefined;
  return db;
}

async function ping(db: Db): Promise<boolean> {
  try {
    await db.execute(sql`SELECT 1`);
    return true;
  } catch {
    return false;
  }
}
