/**
 * Leaderboard at community scale (performance issue, target 3): 100,000 players and 100,000
 * finished matches (1,000,000 match-player rows) in PostgreSQL. The real app serves
 * GET /api/users/ranking in this process; a bare Fastify answering `{"hello":"world"}` is the
 * baseline, on the same core, measured by the same load generator (autocannon in its own worker
 * thread, the other core) in the same run:
 *   1. closed loop (64 connections, 5 s): requests/s of page 1, a deep page (2,000), a name
 *      filter and a sort by wins, each as a ratio of the bare hello's requests/s (target ≥ 0.30);
 *   2. open loop at 500 requests/s for 5 s: p99 latency of each (target ≤ 25 ms), from
 *      bench/open-loop.ts (uniform arrivals, latency from when a request was due);
 *   3. player pages (card, stats, highlights, match list) of 2,000 players in turn: p99 at
 *      500 and 100 requests/s, and each kind alone at 100 requests/s (target ≤ 10 ms).
 * Also: the first snapshot's build time (it runs once, and again after changes).
 *
 *   DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/postgres node --import tsx bench/leaderboard-bench.ts
 *   options: --players=100000 --matches=100000
 *
 * A temporary database is created next to the given one and dropped. Stops by itself.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { openPostgres } from '../apps/server/src/db/client';
import { createTokens } from '../apps/server/src/modules/auth/tokens';
import { createScratchDatabase } from '../apps/server/test/scratch-database';
import { arg, benchConfig, hardStop } from './lib';
import { openLoop } from './open-loop';

const PLAYERS = arg('players', 100_000);
const MATCHES = arg('matches', 100_000);
hardStop('leaderboard-bench', 600_000);

const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) {
  console.error('leaderboard-bench: set DATABASE_URL (a PostgreSQL server; a scratch database is made)');
  process.exit(2);
}

/** Player n's id, in the app's id format (a UUID), in SQL and in TypeScript alike. */
const playerIdSql = (n: string) => `'00000000-0000-4000-8000-' || lpad((${n})::text, 12, '0')`;
const playerId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

async function seed(client: pg.Client): Promise<void> {
  // Players: Elo spread 50..449, some with equal Elo (ties break by age, then id).
  await client.query(
    `INSERT INTO users (id, name, elo, created_at)
     SELECT ${playerIdSql('g')}, 'player' || g, 50 + (g * 7919) % 400,
            now() - (g || ' seconds')::interval
     FROM generate_series(1, $1) g`,
    [PLAYERS],
  );
  await client.query(
    `INSERT INTO matches (id, status, created_at, finished_at, team_one_name, team_two_name, pick_order,
                          map_pool, winner, score_one, score_two)
     SELECT 'm' || g, 'finished', g, g, 'team_a', 'team_b', 'ABBAABBA', '[]'::jsonb,
            CASE WHEN g % 2 = 0 THEN 'teamOne' ELSE 'teamTwo' END, 13, 7
     FROM generate_series(1, $1) g`,
    [MATCHES],
  );
  await client.query(
    `INSERT INTO match_players (match_id, user_id, team, name, elo)
     SELECT 'm' || g, ${playerIdSql('(1 + (g * 10 + s) % $2)')},
            CASE WHEN s < 5 THEN 'teamOne' ELSE 'teamTwo' END, 'player', 200
     FROM generate_series(1, $1) g, generate_series(0, 9) s`,
    [MATCHES, PLAYERS],
  );
  await client.query('ANALYZE');
}

// Paths in turn (bench/rotate-paths.cjs), read by autocannon's worker from this file.
const pathsFile = path.join(os.tmpdir(), `openpug-bench-paths-${process.pid}.json`);
process.env.BENCH_PATHS_FILE = pathsFile;
const rotatePaths = path.join(import.meta.dirname, 'rotate-paths.cjs');

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * Load from autocannon's own worker thread (`workers: 1`: the other core), keep-alive connections.
 * closed: 64 requests in flight for 5 s; open: 500 requests/s overall for 5 s.
 */
async function load(
  url: string,
  mode: 'closed' | 'open',
  seconds = 5,
  paths?: string[],
  rate = 500,
): Promise<LoadResult> {
  if (mode === 'open') {
    // A uniform open loop (open-loop.ts says why not autocannon's overallRate).
    const target = new URL(url);
    const result = await openLoop(url, paths ?? [target.pathname + target.search], rate, seconds);
    return { rps: result.sent / seconds, p50: result.p50, p99: result.p99, errors: result.errors };
  }
  if (paths) writeFileSync(pathsFile, JSON.stringify(paths));
  const result = await autocannon({
    url,
    ...(paths ? { requests: [{ method: 'GET' as const, setupRequest: rotatePaths }] } : {}),
    duration: seconds,
    workers: 1,
    connections: 64,
  });
  return {
    rps: result.requests.total / seconds,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

async function main() {
  const scratch = await createScratchDatabase(baseUrl as string, 'openpug_bench_lb');
  const database = openPostgres(scratch.url);
  try {
    await database.migrate();
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const t0 = performance.now();
    await seed(client);
    await client.end();
    console.log(
      `leaderboard-bench: seeded ${PLAYERS} players and ${MATCHES} matches (${MATCHES * 10} match-player rows) in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );

    const hello = Fastify();
    hello.get('/hello', async () => ({ hello: 'world' }));
    await hello.listen({ port: 0, host: '127.0.0.1' });
    const helloUrl = `http://127.0.0.1:${(hello.server.address() as AddressInfo).port}/hello`;

    const app = await buildApp(
      {
        config: benchConfig(),
        database,
        db: database.db,
        tokens: createTokens(randomBytes(32).toString('hex')),
        clock: { now: () => Date.now() },
        version: 'bench',
      },
      { logger: false, webDist: '/nonexistent' },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/users/ranking`;
    const b0 = performance.now();
    const first = await (await fetch(`${base}?page=1&limit=20`)).json();
    const buildMs = performance.now() - b0;
    console.log(
      `leaderboard-bench: first page (snapshot build) ${buildMs.toFixed(0)} ms; ${first.totalDocs} ranked`,
    );

    const cases: [string, string][] = [
      ['page 1', `${base}?page=1&limit=20`],
      ['page 2,000', `${base}?page=2000&limit=20`],
      ['name filter', `${base}?page=1&limit=20&filter=player12`],
      ['sort by wins', `${base}?page=3&limit=20&sort=wins`],
    ];
    // Warm-up: JIT, the sorted views and the connection pools, for hello and each case alike.
    for (const url of [helloUrl, ...cases.map(([, u]) => u)]) await load(url, 'closed', 1);
    const baseline = await load(helloUrl, 'closed');
    console.log(`bare Fastify hello: ${baseline.rps.toFixed(0)} req/s (p99 ${baseline.p99.toFixed(1)} ms)`);
    // The same app's cheapest route: what every request costs before the leaderboard does anything
    // (security headers, compression check, metrics, request id, routing).
    const floor = await load(base.replace('/api/users/ranking', '/version.json'), 'closed');
    console.log(
      `app floor (GET /version.json on the same app): ${floor.rps.toFixed(0)} req/s = ${(floor.rps / baseline.rps).toFixed(2)}× hello`,
    );
    const rows: string[] = [];
    let failed = false;
    for (const [label, url] of cases) {
      const closed = await load(url, 'closed');
      const open = await load(url, 'open');
      const ratio = closed.rps / baseline.rps;
      if (ratio < 0.3 || open.p99 > 25 || closed.errors + open.errors > 0) failed = true;
      rows.push(
        `${label}: ${closed.rps.toFixed(0)} req/s = ${ratio.toFixed(2)}× hello (target ≥ 0.30); at 500 req/s p50 ${open.p50.toFixed(1)} ms, p99 ${open.p99.toFixed(1)} ms (target ≤ 25 ms); errors ${closed.errors + open.errors}`,
      );
    }
    // Pages the page cache cannot hold (2,000 distinct pages in turn, 512 kept): every answer
    // is cut from the snapshot and written out anew.
    const spread = Array.from(
      { length: 2000 },
      (_, i) => `/api/users/ranking?page=${1 + ((i * 37) % 5000)}&limit=20&sort=elo`,
    );
    const uncachedClosed = await load(base, 'closed', 5, spread);
    const uncachedOpen = await load(base, 'open', 5, spread);
    const uncachedRatio = uncachedClosed.rps / baseline.rps;
    if (uncachedRatio < 0.3 || uncachedOpen.p99 > 25) failed = true;
    rows.push(
      `2,000 distinct pages (page cache missed): ${uncachedClosed.rps.toFixed(0)} req/s = ${uncachedRatio.toFixed(2)}× hello; at 500 req/s p50 ${uncachedOpen.p50.toFixed(1)} ms, p99 ${uncachedOpen.p99.toFixed(1)} ms; errors ${uncachedClosed.errors + uncachedOpen.errors}`,
    );
    // Player pages on the same data (target: p99 ≤ 10 ms): card, stats, highlights and the match
    // list of 2,000 different players in turn, each about 100 match rows deep.
    const playerPaths = Array.from({ length: 2000 }, (_, i) => {
      const id = playerId(1 + ((i * 7919) % PLAYERS));
      return [
        `/api/users/${id}`,
        `/api/users/${id}/stats`,
        `/api/users/${id}/highlights`,
        `/api/match/user/${id}?page=1&limit=10`,
      ];
    }).flat();
    // One at a time, 50 players: what each kind of player page costs alone (mean, max).
    const alone = new Map<string, number[]>();
    for (const pagePath of playerPaths.slice(4, 4 + 4 * 50)) {
      const t = performance.now();
      const res = await fetch(new URL(pagePath, base));
      if (res.status !== 200)
        throw new Error(`player page ${pagePath} answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      const kind = pagePath.replace(/[0-9a-f-]{36}/, ':id');
      alone.set(kind, [...(alone.get(kind) ?? []), performance.now() - t]);
    }
    for (const [kind, ms] of alone)
      console.log(
        `leaderboard-bench: ${kind} alone: mean ${(ms.reduce((a, x) => a + x, 0) / ms.length).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms`,
      );
    const playerClosed = await load(base, 'closed', 5, playerPaths);
    const playerRatio = playerClosed.rps / baseline.rps;
    let playerErrors = playerClosed.errors;
    const playerRates: string[] = [];
    // The issue gives no rate for player pages: 500 req/s like the leaderboard, and 100 req/s
    // (five times the 20 reads/s of 2,000 active players in target 5).
    for (const rate of [500, 100]) {
      const open = await load(base, 'open', 5, playerPaths, rate);
      playerErrors += open.errors;
      if (open.p99 > 10) failed = true;
      playerRates.push(`at ${rate} req/s p50 ${open.p50.toFixed(1)} ms, p99 ${open.p99.toFixed(1)} ms`);
    }
    // Each kind of player page alone at 100 req/s: which of them holds the mixed figure.
    for (let kind = 0; kind < 4; kind++) {
      const paths = playerPaths.filter((_, i) => i % 4 === kind);
      const open = await load(base, 'open', 3, paths, 100);
      playerErrors += open.errors;
      console.log(
        `leaderboard-bench: ${paths[0].replace(/[0-9a-f-]{36}/, ':id')} at 100 req/s: p50 ${open.p50.toFixed(1)} ms, p99 ${open.p99.toFixed(1)} ms`,
      );
    }
    // The server's own view of the same requests (its route histogram, from onRequest to
    // onResponse) and of its event loop: what part of the client's latency is spent inside.
    const metricsText = await (await fetch(new URL('/metrics', base))).text();
    for (const line of metricsText.split('\n'))
      if (
        /^nodejs_eventloop_lag_(p50|p99|max)_seconds /.test(line) ||
        (/^openpug_http_request_duration_seconds_bucket\{/.test(line) &&
          /route="\/api\/(users\/:id[^"]*|match\/user\/:userId\/?)"/.test(line) &&
          /le="(0\.005|0\.01|0\.025|\+Inf)"/.test(line))
      )
        console.log(`leaderboard-bench: server ${line}`);
    if (playerErrors > 0) failed = true;
    rows.push(
      `player pages (card, stats, highlights, matches of 2,000 players): ${playerClosed.rps.toFixed(0)} req/s = ${playerRatio.toFixed(2)}× hello; ${playerRates.join('; ')} (target p99 ≤ 10 ms); errors ${playerErrors}`,
    );
    console.log(rows.join('\n'));
    if (failed) process.exitCode = 1;
    await app.close();
    await hello.close();
  } finally {
    await database.close?.();
    await scratch.drop();
    rmSync(pathsFile, { force: true });
  }
}

await main();
