/**
 * Backups in one engine-neutral format, restorable into PGlite or PostgreSQL.
 *
 * A backup is JSON lines. Control lines start with `{"@"` (no column is named "@"):
 *
 *   {"@":"openpug-backup","format":1,"schema":"0012_queue_cooldowns","migrations":13,…}
 *   {"@":"table","name":"users","columns":["id",…]}
 *   {"id":"…","email":"…",…}                  ← one row_to_json line per row of that table
 *   …
 *   {"@":"end","counts":{"users":3,…}}
 *
 * Rows are written and read by PostgreSQL itself (row_to_json / json_populate_recordset), never
 * parsed in JavaScript, so bigints, bytea (media), jsonb and timestamps come back exactly. The
 * header names the schema version (the last applied migration); a restore migrates the empty
 * target to exactly that version, loads every table in foreign-key order in one transaction,
 * sets the sequences (serial and bigserial columns) past the restored rows, checks every
 * table's row count against the footer, and then migrates forward to the current schema.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { type Database, type Db, executeRows, migrationsFolder } from '../db/client';

export const BACKUP_FORMAT = 1;

/**
 * Tables the migrations (the map pool) or a first start of the server (the drop engine, the first
 * season, its roll job) fill by themselves: rows there do not make a database "not empty", and a
 * restore replaces them with the backup's.
 */
export const SEEDED_TABLES = new Set(['maps', 'drop_engine', 'seasons', 'jobs']);

export interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

export function readJournal(folder = migrationsFolder()): JournalEntry[] {
  return (
    JSON.parse(readFileSync(path.join(folder, 'meta/_journal.json'), 'utf8')) as { entries: JournalEntry[] }
  ).entries;
}

/** The newest migration this build knows. */
export function latestSchema(): string {
  const journal = readJournal();
  return journal[journal.length - 1].tag;
}

type Executor = Pick<Db, 'execute'>;

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** The last applied migration's tag, or null when the database was never migrated. */
export async function schemaVersion(db: Executor): Promise<string | null> {
  const [exists] = await executeRows<{ t: string | null }>(
    db,
    sql`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS t`,
  );
  if (!exists?.t) return null;
  const [last] = await executeRows<{ created_at: string | number }>(
    db,
    sql`SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1`,
  );
  if (!last) return null;
  const when = Number(last.created_at);
  const entry = readJournal().find((e) => e.when === when);
  if (!entry)
    throw new Error(`the database has a migration (${when}) this openpug does not know: it is newer`);
  return entry.tag;
}

/**
 * Applies the migrations up to and including `tag` (not later ones): a temporary copy of the
 * migrations folder with the journal cut there.
 */
export async function migrateTo(database: Database, tag: string): Promise<void> {
  const source = migrationsFolder();
  const journal = JSON.parse(readFileSync(path.join(source, 'meta/_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  const cut = journal.entries.findIndex((e) => e.tag === tag);
  if (cut < 0) throw new Error(`unknown schema version ${tag}: this openpug does not have that migration`);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openpug-migrations-'));
  try {
    cpSync(source, dir, { recursive: true });
    writeFileSync(
      path.join(dir, 'meta/_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.slice(0, cut + 1) }),
    );
    if (database.driver === 'pg') await migratePg(database.db as never, { migrationsFolder: dir });
    else await migratePglite(database.db as never, { migrationsFolder: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface TableInfo {
  name: string;
  /** Stored (not generated) columns in table order. */
  columns: string[];
}

/** Every table of the public schema, parents before the tables that reference them. */
export async function listTables(db: Executor): Promise<TableInfo[]> {
  const cols = await executeRows<{ table_name: string; column_name: string }>(
    db,
    sql`SELECT c.table_name, c.column_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.is_generated = 'NEVER'
        ORDER BY c.table_name, c.ordinal_position`,
  );
  const fks = await executeRows<{ child: string; parent: string }>(
    db,
    sql`SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k
        JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE k.contype = 'f' AND n.nspname = 'public'`,
  );
  const columns = new Map<string, string[]>();
  for (const c of cols) {
    const list = columns.get(c.table_name) ?? [];
    list.push(c.column_name);
    columns.set(c.table_name, list);
  }
  const parents = new Map<string, Set<string>>();
  for (const { child, parent } of fks) {
    if (child === parent) continue; // a row referencing its own table: none today
    if (!parents.has(child)) parents.set(child, new Set());
    parents.get(child)?.add(parent);
  }
  const ordered: string[] = [];
  const done = new Set<string>();
  const visit = (name: string, trail: string[]) => {
    if (done.has(name)) return;
    if (trail.includes(name)) throw new Error(`foreign keys form a cycle: ${[...trail, name].join(' → ')}`);
    for (const parent of [...(parents.get(name) ?? [])].sort()) visit(parent, [...trail, name]);
    done.add(name);
    ordered.push(name);
  };
  for (const name of [...columns.keys()].sort()) visit(name, []);
  return ordered.map((name) => ({ name, columns: columns.get(name) ?? [] }));
}

/** Row count of every table (for checks after a restore, a move or a migration). */
export async function countRows(db: Executor): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const t of await listTables(db)) {
    const [r] = await executeRows<{ n: string | number }>(
      db,
      sql.raw(`SELECT count(*) AS n FROM public.${ident(t.name)}`),
    );
    counts[t.name] = Number(r.n);
  }
  return counts;
}

export interface BackupSummary {
  schema: string;
  counts: Record<string, number>;
}

/**
 * Writes a backup of `db` line by line (each string ends with "\n"). One repeatable-read,
 * read-only transaction: the tables are one consistent snapshot. On PGlite other queries wait
 * until it is done.
 */
export async function writeBackup(
  database: Pick<Database, 'db' | 'kind'>,
  write: (chunk: string) => void | Promise<void>,
  options: { batchRows?: number } = {},
): Promise<BackupSummary> {
  const batch = options.batchRows ?? 500;
  return database.db.transaction(async (tx) => {
    await tx.execute(sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`);
    const schema = await schemaVersion(tx);
    if (!schema)
      throw new Error('the database has no schema yet (it was never migrated): nothing to back up');
    const tables = await listTables(tx);
    const migrations = readJournal().findIndex((e) => e.tag === schema) + 1;
    await write(
      `${JSON.stringify({
        '@': 'openpug-backup',
        format: BACKUP_FORMAT,
        schema,
        migrations,
        engine: database.kind,
        createdAt: new Date().toISOString(),
        tables: tables.length,
      })}\n`,
    );
    const counts: Record<string, number> = {};
    for (const table of tables) {
      await write(`${JSON.stringify({ '@': 'table', name: table.name, columns: table.columns })}\n`);
      const list = table.columns.map(ident).join(', ');
      await tx.execute(
        sql.raw(
          `DECLARE openpug_backup NO SCROLL CURSOR FOR SELECT row_to_json(r)::text AS j FROM (SELECT ${list} FROM public.${ident(table.name)}) r`,
        ),
      );
      let n = 0;
      for (;;) {
        const chunk = await executeRows<{ j: string }>(tx, sql.raw(`FETCH ${batch} FROM openpug_backup`));
        if (chunk.length === 0) break;
        n += chunk.length;
        await write(`${chunk.map((r) => r.j).join('\n')}\n`);
      }
      await tx.execute(sql`CLOSE openpug_backup`);
      counts[table.name] = n;
    }
    await write(`${JSON.stringify({ '@': 'end', counts })}\n`);
    return { schema, counts };
  });
}

export class RestoreError extends Error {}

interface Header {
  '@': string;
  format: number;
  schema: string;
}

/** The header of a backup (its first line), checked. */
export function parseHeader(line: string | undefined): Header {
  let header: Header | undefined;
  try {
    header = line ? (JSON.parse(line) as Header) : undefined;
  } catch {
    header = undefined;
  }
  if (header?.['@'] !== 'openpug-backup') throw new RestoreError('not an openpug backup (no header line)');
  if (header.format !== BACKUP_FORMAT)
    throw new RestoreError(
      `backup format ${header.format} is not supported (this openpug reads ${BACKUP_FORMAT})`,
    );
  if (!readJournal().some((e) => e.tag === header.schema))
    throw new RestoreError(
      `the backup's schema ${header.schema} is newer than this openpug (latest ${latestSchema()}): restore it with the release that made it`,
    );
  return header;
}

/** Tables holding rows beyond what the migrations put there. */
export async function nonEmptyTables(db: Executor): Promise<string[]> {
  const counts = await countRows(db);
  return Object.entries(counts)
    .filter(([name, n]) => n > 0 && !SEEDED_TABLES.has(name))
    .map(([name]) => name);
}

export interface RestoreOptions {
  /** Migrate forward to the current schema after loading (default true). */
  migrateForward?: boolean;
  /** Largest batch of row text sent in one INSERT (bytes). */
  batchBytes?: number;
  /** Called after loading, before migrating forward (tests compare counts there). */
  onLoaded?: (summary: BackupSummary) => void | Promise<void>;
}

/**
 * Restores a backup (its lines, in order) into an empty database: migrates it to the backup's
 * schema, loads everything in one transaction, then migrates forward. Refuses a database that
 * holds data, or one already migrated past the backup's schema.
 */
export async function restoreBackup(
  database: Database,
  lines: AsyncIterable<string> | Iterable<string>,
  options: RestoreOptions = {},
): Promise<BackupSummary> {
  const iterator = (Symbol.asyncIterator in lines ? lines : toAsync(lines as Iterable<string>))[
    Symbol.asyncIterator
  ]();
  const first = await iterator.next();
  const header = parseHeader(first.done ? undefined : first.value);
  const journal = readJournal();
  const current = await schemaVersion(database.db);
  if (current) {
    const busy = await nonEmptyTables(database.db);
    if (busy.length > 0)
      throw new RestoreError(
        `the database is not empty (rows in ${busy.join(', ')}): restore into a new, empty database`,
      );
    const at = journal.findIndex((e) => e.tag === current);
    const wanted = journal.findIndex((e) => e.tag === header.schema);
    if (at > wanted)
      throw new RestoreError(
        `the database is already migrated to ${current}, past the backup's ${header.schema}: restore into a new, empty database (the command migrates it)`,
      );
  }
  await migrateTo(database, header.schema);
  const batchBytes = options.batchBytes ?? 1 << 20;

  const summary = await database.db.transaction(async (tx) => {
    const busy = await nonEmptyTables(tx);
    if (busy.length > 0)
      throw new RestoreError(
        `the database is not empty (rows in ${busy.join(', ')}): restore into a new, empty database`,
      );
    const tables = new Map((await listTables(tx)).map((t) => [t.name, t]));
    for (const seeded of SEEDED_TABLES)
      if (tables.has(seeded)) await tx.execute(sql.raw(`DELETE FROM public.${ident(seeded)}`));

    const loaded: Record<string, number> = {};
    let table: { name: string; columns: string[] } | undefined;
    let pending: string[] = [];
    let pendingBytes = 0;
    let footer: Record<string, number> | undefined;
    const flush = async () => {
      if (!table || pending.length === 0) return;
      const list = table.columns.map(ident).join(', ');
      await tx.execute(
        sql`${sql.raw(`INSERT INTO public.${ident(table.name)} (${list}) SELECT ${list} FROM json_populate_recordset(NULL::public.${ident(table.name)}, `)}${`[${pending.join(',')}]`}::json)`,
      );
      loaded[table.name] = (loaded[table.name] ?? 0) + pending.length;
      pending = [];
      pendingBytes = 0;
    };
    for (;;) {
      const next = await iterator.next();
      if (next.done) break;
      const line = next.value.trim();
      if (!line) continue;
      if (footer) throw new RestoreError('lines after the end of the backup');
      if (line.startsWith('{"@"')) {
        await flush();
        const control = JSON.parse(line) as {
          '@': string;
          name?: string;
          columns?: string[];
          counts?: Record<string, number>;
        };
        if (control['@'] === 'table') {
          const target = tables.get(control.name ?? '');
          if (!target)
            throw new RestoreError(
              `the backup has a table ${control.name} that schema ${header.schema} does not`,
            );
          const missing = (control.columns ?? []).filter((c) => !target.columns.includes(c));
          if (missing.length > 0)
            throw new RestoreError(
              `table ${control.name}: columns ${missing.join(', ')} are not in schema ${header.schema}`,
            );
          table = { name: target.name, columns: control.columns ?? [] };
          loaded[table.name] = 0;
        } else if (control['@'] === 'end') {
          footer = control.counts ?? {};
        } else throw new RestoreError(`unknown control line ${control['@']}`);
        continue;
      }
      if (!table) throw new RestoreError('a row before any table line');
      pending.push(line);
      pendingBytes += line.length;
      if (pendingBytes >= batchBytes) await flush();
    }
    if (!footer) throw new RestoreError('the backup is cut short (no end line): nothing was restored');
    for (const [name, n] of Object.entries(footer)) {
      if ((loaded[name] ?? 0) !== n)
        throw new RestoreError(`table ${name}: the backup says ${n} rows, ${loaded[name] ?? 0} were read`);
    }
    await resetSequences(tx);
    const counts = await countRows(tx);
    for (const [name, n] of Object.entries(footer)) {
      if (counts[name] !== n)
        throw new RestoreError(`table ${name}: ${counts[name]} rows after restore, backup has ${n}`);
    }
    return { schema: header.schema, counts };
  });
  await options.onLoaded?.(summary);
  if (options.migrateForward !== false) await database.migrate();
  return summary;
}

/** Sets every sequence owned by a column (serial, bigserial, identity) past the column's largest value. */
export async function resetSequences(db: Executor): Promise<void> {
  const owned = await executeRows<{ tbl: string; col: string; seq: string }>(
    db,
    sql`SELECT c.relname AS tbl, a.attname AS col, s.relname AS seq FROM pg_depend d
        JOIN pg_class s ON s.oid = d.objid AND s.relkind = 'S'
        JOIN pg_class c ON c.oid = d.refobjid
        JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = d.refobjsubid
        JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public' AND d.deptype IN ('a', 'i')`,
  );
  for (const { tbl, col, seq } of owned) {
    await db.execute(
      sql.raw(
        `SELECT setval('public.${ident(seq).replace(/'/g, "''")}', COALESCE((SELECT MAX(${ident(col)}) FROM public.${ident(tbl)}), 0) + 1, false)`,
      ),
    );
  }
}

async function* toAsync<T>(items: Iterable<T>): AsyncIterable<T> {
  yield* items;
}
