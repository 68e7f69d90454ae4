/**
 * Admin CLI, run from the repository root (or anywhere: paths resolve against the directory the
 * command was started from — npm's INIT_CWD — not against apps/server):
 *
 *   npm run admin -- grant <email> | revoke <email> | list
 *   npm run admin -- backup <file>
 *   npm run admin -- restore <file>
 *   npm run admin -- move-to-postgres <DATABASE_URL>
 *
 * The database is DATABASE_URL, else the PGlite database in DATA_DIR (default ./data). A command
 * that expects a community and finds no database, or one without accounts, says so and stops
 * without creating anything. PGlite allows one process per directory: `backup` then asks the
 * running server over loopback (src/backup/routes.ts); the other commands need it stopped.
 * ADMIN_EMAILS makes an account ADMIN once, when its address is verified; grant and revoke decide
 * for good.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  type WriteStream,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { eq, sql } from 'drizzle-orm';
import {
  type BackupSummary,
  countRows,
  latestSchema,
  nonEmptyTables,
  RestoreError,
  restoreBackup,
  schemaVersion,
  writeBackup,
} from '../src/backup/index';
import {
  BACKUP_ENDPOINT_FILE,
  BACKUP_PATH,
  BACKUP_TOKEN_HEADER,
  type BackupEndpoint,
} from '../src/backup/routes';
import { type Config, loadConfig } from '../src/config';
import { type Database, openPglite, openPostgres } from '../src/db/client';
import { type DataDirLock, DataDirLockedError, lockDataDir } from '../src/db/lock';
import { users } from '../src/modules/accounts/schema';

const usage = `usage: npm run admin -- <command>
  grant <email>                 make the account an admin
  revoke <email>                make the account a regular user
  list                          list the admins
  backup <file>                 write a backup (JSON lines; works while a PGlite server runs)
  restore <file>                restore a backup into an empty database
  move-to-postgres <URL>        copy the PGlite database in DATA_DIR into an empty PostgreSQL database`;

/** Exit with a message (code 1, or 2 for usage). */
class Stop extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

/** Where the command was started: npm runs workspace scripts in apps/server, INIT_CWD keeps the caller's directory. */
function startDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.INIT_CWD || process.cwd();
}

function configFor(base: string): Config {
  const dataDir = path.resolve(base, process.env.DATA_DIR || './data');
  return loadConfig({ ...process.env, DATA_DIR: dataDir });
}

const pgliteDir = (config: Config) => path.join(config.dataDir, 'db');
const pgliteExists = (config: Config) => existsSync(path.join(pgliteDir(config), 'PG_VERSION'));

function where(config: Config): string {
  return config.DATABASE_URL
    ? 'the PostgreSQL database in DATABASE_URL'
    : `the PGlite database in ${pgliteDir(config)}`;
}

/** The configured database, which must already exist (nothing is created). */
async function openExisting(config: Config): Promise<{ database: Database; lock?: DataDirLock }> {
  if (config.DATABASE_URL) return { database: openPostgres(config.DATABASE_URL) };
  if (!pgliteExists(config))
    throw new Stop(
      `no database in ${pgliteDir(config)}: DATA_DIR (${process.env.DATA_DIR || './data'}) resolves against the directory you ran the command in. ` +
        'Run it where you run the server, or set DATA_DIR (or DATABASE_URL).',
    );
  const lock = lockDataDir(config.dataDir);
  return { database: openPglite(pgliteDir(config)), lock };
}

/** Stops unless the database holds a community (a schema and at least one account). */
async function expectCommunity(database: Database, config: Config): Promise<void> {
  const version = await schemaVersion(database.db);
  const [row] = version
    ? (
        (await database.db.execute(sql`SELECT count(*) AS n FROM users`)) as unknown as {
          rows: { n: string }[];
        }
      ).rows
    : [{ n: '0' }];
  if (Number(row.n) === 0)
    throw new Stop(
      `${where(config)} is empty (no accounts${version ? '' : ', never migrated'}): is this the right database? ` +
        'DATA_DIR resolves against the directory you ran the command in; set DATA_DIR or DATABASE_URL.',
    );
}

async function roles(config: Config, command: string, rawEmail: string | undefined): Promise<number> {
  const { database, lock } = await openExisting(config);
  try {
    await expectCommunity(database, config);
    await database.migrate();
    const db = database.db;
    if (command === 'list') {
      const admins = await db
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(eq(users.role, 'ADMIN'));
      for (const a of admins) console.log(`${a.email ?? '(no e-mail)'}\t${a.name ?? ''}`);
      if (admins.length === 0) console.log('no admins');
      return 0;
    }
    const email = (rawEmail ?? '').trim().toLowerCase();
    const role = command === 'grant' ? 'ADMIN' : 'USER';
    const updated = await db
      .update(users)
      .set({ role, roleDecided: true })
      .where(eq(users.email, email))
      .returning({ id: users.id });
    if (updated.length === 0) {
      console.error(`no account with the e-mail ${email}`);
      return 1;
    }
    console.log(`${email} is now ${role}`);
    return 0;
  } finally {
    await database.close();
    lock?.release();
  }
}

/** A backup file written under a temporary name and renamed once complete (a cut file never has the real name). */
class BackupFile {
  private readonly partial: string;
  private readonly out: WriteStream;
  constructor(readonly file: string) {
    this.partial = `${file}.partial`;
    this.out = createWriteStream(this.partial, { mode: 0o600 });
  }
  write = (chunk: string | Buffer): Promise<void> | undefined =>
    this.out.write(chunk) ? undefined : new Promise((resolve) => this.out.once('drain', () => resolve()));
  private async close(): Promise<void> {
    await new Promise<void>((resolve, reject) =>
      this.out.end((err?: Error | null) => (err ? reject(err) : resolve())),
    );
  }
  async commit(): Promise<void> {
    await this.close();
    renameSync(this.partial, this.file);
  }
  async abandon(): Promise<void> {
    await this.close().catch(() => {});
    rmSync(this.partial, { force: true });
  }
}

function describe(summary: BackupSummary): string {
  const rows = Object.values(summary.counts).reduce((a, b) => a + b, 0);
  return `${Object.keys(summary.counts).length} tables, ${rows} rows, schema ${summary.schema}`;
}

async function backupDirect(database: Database, file: string): Promise<BackupSummary> {
  const out = new BackupFile(file);
  try {
    const summary = await writeBackup(database, out.write);
    await out.commit();
    return summary;
  } catch (err) {
    await out.abandon();
    throw err;
  }
}

/** Asks the server that holds the PGlite directory for the backup (loopback, token from DATA_DIR). */
async function backupFromServer(
  config: Config,
  locked: DataDirLockedError,
  file: string,
): Promise<BackupSummary> {
  const endpointFile = path.join(config.dataDir, BACKUP_ENDPOINT_FILE);
  let endpoint: BackupEndpoint;
  try {
    endpoint = JSON.parse(readFileSync(endpointFile, 'utf8')) as BackupEndpoint;
  } catch {
    throw new Stop(
      `the server (pid ${locked.pid}) holds ${config.dataDir} but published no backup endpoint (${endpointFile}): ` +
        'it is an older openpug or still starting. Try again, or stop it and run the backup then.',
    );
  }
  if (endpoint.pid !== locked.pid)
    throw new Stop(
      `${endpointFile} is stale (pid ${endpoint.pid}, the server is ${locked.pid}): try again once the server is up`,
    );
  if (!endpoint.host)
    throw new Stop(
      'the running server does not listen on loopback (HOST): stop it for the backup, or listen on 0.0.0.0 or 127.0.0.1',
    );
  const host = endpoint.host.includes(':') ? `[${endpoint.host}]` : endpoint.host;
  const res = await fetch(`http://${host}:${endpoint.port}${BACKUP_PATH}`, {
    headers: { [BACKUP_TOKEN_HEADER]: endpoint.token },
  });
  if (!res.ok || !res.body) throw new Stop(`the running server refused the backup (HTTP ${res.status})`);
  const out = new BackupFile(file);
  let head = '';
  let tail = '';
  try {
    for await (const chunk of Readable.fromWeb(res.body as never)) {
      const text = (chunk as Buffer).toString('utf8');
      if (head.length < 4096) head += text.slice(0, 4096);
      tail = (tail + text).slice(-1 << 16);
      await out.write(chunk as Buffer);
    }
    const header = JSON.parse(head.split('\n')[0]) as { schema: string };
    const last = tail.trimEnd().split('\n').pop() ?? '';
    const end = last.startsWith('{"@":"end"')
      ? (JSON.parse(last) as { counts: Record<string, number> })
      : undefined;
    if (!end) throw new Error('the backup stream ended early (no end line)');
    await out.commit();
    return { schema: header.schema, counts: end.counts };
  } catch (err) {
    await out.abandon();
    throw err;
  }
}

async function backup(config: Config, file: string): Promise<number> {
  if (existsSync(file)) throw new Stop(`${file} exists already: give a new file name`);
  if (!existsSync(path.dirname(file))) throw new Stop(`the folder ${path.dirname(file)} does not exist`);
  let opened: { database: Database; lock?: DataDirLock };
  try {
    opened = await openExisting(config);
  } catch (err) {
    if (!(err instanceof DataDirLockedError)) throw err;
    const summary = await backupFromServer(config, err, file);
    console.log(`backup written to ${file} by the running server (${describe(summary)})`);
    return 0;
  }
  const { database, lock } = opened;
  try {
    await expectCommunity(database, config);
    const summary = await backupDirect(database, file);
    console.log(`backup written to ${file} (${describe(summary)})`);
    return 0;
  } finally {
    await database.close();
    lock?.release();
  }
}

function readLines(file: string): AsyncIterable<string> {
  return createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
}

async function restore(config: Config, file: string): Promise<number> {
  if (!existsSync(file)) throw new Stop(`no file ${file}`);
  let lock: DataDirLock | undefined;
  let database: Database;
  if (config.DATABASE_URL) database = openPostgres(config.DATABASE_URL);
  else {
    try {
      lock = lockDataDir(config.dataDir);
    } catch (err) {
      if (err instanceof DataDirLockedError)
        throw new Stop(`${err.message} A restore needs the server stopped.`);
      throw err;
    }
    database = openPglite(pgliteDir(config));
  }
  try {
    const summary = await restoreBackup(database, readLines(file));
    console.log(
      `restored ${file} into ${where(config)} (${describe(summary)}), migrated to ${latestSchema()}`,
    );
    return 0;
  } finally {
    await database.close();
    lock?.release();
  }
}

async function moveToPostgres(config: Config, url: string): Promise<number> {
  if (config.DATABASE_URL)
    throw new Stop('DATABASE_URL is set: the move reads the PGlite database in DATA_DIR; unset DATABASE_URL');
  try {
    new URL(url);
  } catch {
    throw new Stop('give the PostgreSQL URL: postgres://user:password@host:5432/database');
  }
  let opened: { database: Database; lock?: DataDirLock };
  try {
    opened = await openExisting(config);
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new Stop(`${err.message} Stop the server for the move.`);
    throw err;
  }
  const { database: source, lock } = opened;
  const target = openPostgres(url);
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'openpug-move-'));
  try {
    await expectCommunity(source, config);
    if (!(await target.ping())) throw new Stop(`cannot connect to ${redact(url)}`);
    if (await schemaVersion(target.db)) {
      const busy = await nonEmptyTables(target.db);
      if (busy.length > 0)
        throw new Stop(
          `the PostgreSQL database is not empty (rows in ${busy.join(', ')}): give an empty one`,
        );
    }
    // The newest schema on both sides: the PGlite database is migrated first, like a server start would.
    await source.migrate();
    const file = path.join(tmp, 'move.jsonl');
    const summary = await backupDirect(source, file);
    await restoreBackup(target, readLines(file));
    const before = await countRows(source.db);
    const after = await countRows(target.db);
    const wrong = Object.keys({ ...before, ...after }).filter((t) => before[t] !== after[t]);
    if (wrong.length > 0)
      throw new Stop(
        `row counts differ after the copy: ${wrong.map((t) => `${t} ${before[t]} → ${after[t]}`).join(', ')}`,
      );
    for (const [table, n] of Object.entries(after)) console.log(`  ${table.padEnd(24)} ${n}`);
    console.log(`copied ${describe(summary)} into ${redact(url)}; every table's row count matches.`);
    console.log(`
The embedded chat server's users, rooms, messages, receipts and media are tables in the same
database (mx_*): they moved too. The PGlite directory ${pgliteDir(config)} is unchanged; keep it until
the server runs well on PostgreSQL, then archive it.

Next: set this in the server's environment and start it:

  DATABASE_URL=${url}

and keep DATA_DIR=${config.dataDir} (it holds jwt-secret — sessions and the encrypted chat passwords
depend on it — vapid.json and matrix_shared_secret), or set JWT_SECRET to the content of
${path.join(config.dataDir, 'jwt-secret')} if you move DATA_DIR${config.JWT_SECRET ? ' (JWT_SECRET is set: keep it)' : ''}.`);
    return 0;
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    await target.close();
    await source.close();
    lock?.release();
  }
}

function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, arg] = argv;
  const needsArg = ['grant', 'revoke', 'backup', 'restore', 'move-to-postgres'];
  if (!command || !['list', ...needsArg].includes(command) || (needsArg.includes(command) && !arg)) {
    console.error(usage);
    return 2;
  }
  const base = startDir();
  const config = configFor(base);
  switch (command) {
    case 'backup':
      return backup(config, path.resolve(base, arg));
    case 'restore':
      return restore(config, path.resolve(base, arg));
    case 'move-to-postgres':
      return moveToPostgres(config, arg);
    default:
      return roles(config, command, arg);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof Stop || err instanceof RestoreError || err instanceof DataDirLockedError)
      console.error(`admin: ${err.message}`);
    else console.error(`admin: ${err instanceof Error ? (err.stack ?? err.message) : err}`);
    process.exit(err instanceof Stop ? err.code : 1);
  },
);
