/**
 * The real server as a child process on a data directory of its own, for the tests that SIGKILL
 * it and start it again on the same data (restart*.test.ts): players seeded into the database
 * before the first start, `start` (until /api/health answers) and `kill` (SIGKILL, then wait for
 * the exit). On PGlite the database lives in the data directory; in the server-pg project
 * (TEST_DB=postgres) it is a database of its own on TEST_DATABASE_URL, dropped by `dispose`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { type Database, openPglite, openPostgres } from '../src/db/client';
import { users } from '../src/db/schema';
import { createTokens } from '../src/modules/auth/tokens';
import { usingPostgres } from './helpers';
import { createScratchDatabase } from './scratch-database';

const serverDir = path.resolve(import.meta.dirname, '..');
const JWT_SECRET = 'spawned-test-secret-that-is-long-enough-for-hs256';

export interface SeededPlayer {
  id: string;
  name: string;
  elo: number;
  token: string;
}

export interface SpawnedServer {
  base: string;
  dataDir: string;
  players: SeededPlayer[];
  start(): Promise<void>;
  kill(): Promise<void>;
  /** The server's database, to read after the last kill (close it when done). */
  openDatabase(): Database;
  /** Drops the PostgreSQL database (nothing on PGlite). */
  dispose(): Promise<void>;
}

/** A fresh, migrated PostgreSQL database on TEST_DATABASE_URL: its URL and how to drop it. */
async function freshPostgres(): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const { url, drop } = await createScratchDatabase(adminUrl, 'openpug_spawned');
  const migrated = openPostgres(url);
  await migrated.migrate();
  await migrated.close();
  return { url, drop };
}

/**
 * `count` verified, voice-linked players with distinct Elo in a fresh data directory; `seed` may
 * add rows of its own (friendships, …) to that database before the first start.
 */
export async function spawnedServer(
  count: number,
  env: Record<string, string>,
  seed?: (db: Database['db'], playerIds: string[]) => Promise<unknown>,
): Promise<SpawnedServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-spawned-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const base = `http://127.0.0.1:${port}`;
  const postgres = usingPostgres() ? await freshPostgres() : null;
  const openDatabase = () => (postgres ? openPostgres(postgres.url) : openPglite(path.join(dataDir, 'db')));
  const seedDb = postgres
    ? openPostgres(postgres.url)
    : openPglite(path.join(dataDir, 'db'), new Blob([readFileSync(inject('pgliteTemplate'))]));
  const rows = Array.from({ length: count }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    name: `p${i}`,
    email: `p${i}@example.test`,
    elo: 300 - i * 7,
    teamSpeakId: `ts-${i}`,
    verified: true,
  }));
  await seedDb.db.insert(users).values(rows);
  await seed?.(
    seedDb.db,
    rows.map((r) => r.id),
  );
  await seedDb.close();
  const tokens = createTokens(JWT_SECRET);
  const players = await Promise.all(
    rows.map(async (r) => ({ id: r.id, name: r.name, elo: r.elo, token: (await tokens.sign(r.id)).token })),
  );
  let child: ChildProcess | null = null;
  return {
    base,
    dataDir,
    players,
    async start() {
      child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: serverDir,
        env: {
          ...process.env,
          NODE_ENV: 'test',
          LOG_LEVEL: 'warn',
          HOST: '127.0.0.1',
          PORT: String(port),
          DATA_DIR: dataDir,
          JWT_SECRET,
          JOBS_POLL_MS: '200',
          ...(postgres ? { DATABASE_URL: postgres.url } : {}),
          ...env,
        },
        stdio: ['ignore', 'ignore', process.env.RESTART_DEBUG ? 'inherit' : 'ignore'],
      });
      const until = Date.now() + 60_000;
      for (;;) {
        try {
          if ((await fetch(`${base}/api/health`)).status === 200) return;
        } catch {}
        if (Date.now() > until) throw new Error('server did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    openDatabase,
    async dispose() {
      await postgres?.drop();
    },
    async kill() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null || c.signalCode !== null) return;
      const gone = new Promise((r) => c.once('exit', r));
      c.kill('SIGKILL');
      await gone;
      // The embedded database's own process sees its server gone and closes PGlite: wait for it
      // (db/engine-child.ts) before anything opens the directory again.
      const lock = path.join(dataDir, 'engine.lock');
      for (const until = Date.now() + 15_000; existsSync(lock) && Date.now() < until; )
        await new Promise((r) => setTimeout(r, 50));
    },
  };
}
