/**
 * What the server benchmarks share: `--name=value` options, a hard time limit, the database
 * (PGlite in memory, or a temporary PostgreSQL database next to DATABASE_URL, dropped afterwards),
 * the app's configuration and percentiles.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../apps/server/src/app';
import { type Config, loadConfig } from '../apps/server/src/config';
import { type Database, openPglite, openPostgres } from '../apps/server/src/db/client';
import { users } from '../apps/server/src/db/schema';
import { createTokens } from '../apps/server/src/modules/auth/tokens';
import { createScratchDatabase } from '../apps/server/test/scratch-database';

/** The number given as `--name=…` on the command line, else `def`. */
export const arg = (name: string, def: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);

/** Ends the process with exit code 2 after `ms`, so a stuck benchmark never hangs a run. */
export function hardStop(bench: string, ms: number): void {
  const timer = setTimeout(() => {
    console.error(`${bench}: hard time limit reached`);
    process.exit(2);
  }, ms);
  timer.unref();
}

export async function openDatabase(): Promise<{
  database: Database;
  drop: () => Promise<void>;
  kind: string;
}> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const database = openPglite();
    await database.migrate();
    return { database, drop: async () => {}, kind: 'PGlite (in memory)' };
  }
  const scratch = await createScratchDatabase(url, 'openpug_bench');
  const database = openPostgres(scratch.url);
  await database.migrate();
  return { database, kind: 'PostgreSQL', drop: scratch.drop };
}

/** The app's configuration for a benchmark: silent, no rate limit, no job polling; `env` on top. */
export const benchConfig = (env: Record<string, string> = {}): Config =>
  loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PORT: '0',
    DATA_DIR: '/tmp/openpug-bench',
    RATE_LIMIT_PER_MIN: '0',
    JOBS_POLL_MS: '0',
    ...env,
  });

/** The `p`th percentile of ascending `sorted`. */
export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * The real app on `database`, listening on a free loopback port; `tokens` signs the sessions of
 * the benchmark's players with the app's secret.
 */
export async function startBenchApp(database: Database, env: Record<string, string> = {}) {
  const secret = randomBytes(32).toString('hex');
  const app = await buildApp(
    {
      config: benchConfig(env),
      database,
      db: database.db,
      tokens: createTokens(secret),
      clock: { now: () => Date.now() },
      version: 'bench',
    },
    { logger: false, webDist: '/nonexistent' },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  return { app, url, tokens: createTokens(secret) };
}

/** `n` players who may queue (named, verified, voice linked), written in 500 at a time. */
export async function insertBenchPlayers(database: Database, n: number, from = 0) {
  const players = Array.from({ length: n }, (_, k) => from + k).map((i) => ({
    id: randomUUID(),
    name: `bench-${i}`,
    email: `bench-${i}@example.test`,
    teamSpeakId: `bench-ts-${i}`,
    elo: 150 + (i % 97),
    verified: true,
  }));
  for (let i = 0; i < players.length; i += 500)
    await database.db.insert(users).values(players.slice(i, i + 500));
  return players;
}

/** Runs a benchmark's `main`, which resolves whether its target was met; exit 0, 1 (missed) or 1 on a crash. */
export function runBench(main: () => Promise<boolean>): void {
  main().then(
    (ok) => process.exit(ok ? 0 : 1),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
