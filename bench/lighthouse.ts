/**
 * Lighthouse on the built app (performance issue, target 2): npm `lighthouse` 12, Debian Chromium
 * (/usr/bin/chromium, launched here; nothing downloads a browser), the default mobile preset
 * (Moto G Power emulation, simulated slow 4G and 4× CPU slowdown), performance only, 3 runs each,
 * medians, on `/`, `/leaderboard`, `/match/:id` (a finished match seeded here) and
 * `/user/:id/matches`. Baseline in the same run: a minimal Vite + React hello app (bench/hello-app,
 * built with the app's compression settings) served by a second copy of the same built server
 * (WEB_DIST): same static serving, precompressed assets, headers. Runs are interleaved (every
 * page once per round) so load changes on the machine hit every page alike.
 *
 *   npm run build && node --import tsx bench/lighthouse.ts   (also `npm run bench -- lighthouse`)
 *   options: --runs=3 --port=4002 (uses port and port+1) --keep (keeps the reports' folder)
 *            --pages=/match/:id,/ (only these pages, with the baseline)
 *
 * Prints per page: score, LCP, TBT, CLS (medians), the difference to the baseline, and the median
 * run's top opportunities and diagnostics; exits 1 when a page misses the issue's targets.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import * as chromeLauncher from 'chrome-launcher';
import { sql } from 'drizzle-orm';
import lighthouse from 'lighthouse';
import { build } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { openPglite } from '../apps/server/src/db/client';

const arg = (name: string, def: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def);
const RUNS = arg('runs', 3);
const PORT = arg('port', 4002);
const keep = process.argv.includes('--keep');
// --pages=/match/:id,/ : only these pages (and the baseline), to work on one of them.
const ONLY =
  process.argv
    .find((a) => a.startsWith('--pages='))
    ?.slice('--pages='.length)
    .split(',') ?? [];
const root = path.resolve(import.meta.dirname, '..');
const work = mkdtempSync(path.join(os.tmpdir(), 'openpug-lighthouse-'));
// Taken before the hello build: Vite sets NODE_ENV=production in this process, which would make
// the servers demand a production configuration.
const serverEnv = { ...process.env };
const TARGETS = { score: 0.95, lcp: 2500, tbt: 150, cls: 0.05, belowBaseline: 0.03 };

/** The hello app, built with the same compression settings as apps/web/vite.config.ts. */
async function buildHello(outDir: string): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: path.join(root, 'bench/hello-app'),
    plugins: [
      react(),
      compression({
        algorithms: ['brotliCompress', 'gzip'],
        include: /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/,
        threshold: 1024,
        skipIfLargerOrEqual: true,
        logLevel: 'silent',
      }),
    ],
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
}

/** Ten players and one finished match between them, written before the server starts. */
async function seed(dataDir: string): Promise<{ matchId: string; userId: string }> {
  const database = openPglite(path.join(dataDir, 'db'));
  await database.migrate();
  const matchId = randomUUID();
  const users = Array.from({ length: 10 }, (_, i) => ({ id: randomUUID(), name: `bench_player_${i}` }));
  const now = Date.now();
  for (const [i, u] of users.entries()) {
    await database.db.execute(
      sql`INSERT INTO users (id, name, elo, created_at) VALUES (${u.id}, ${u.name}, ${1000 + i * 25}, now())`,
    );
  }
  await database.db.execute(sql`
    INSERT INTO matches (id, status, created_at, finished_at, live_at, team_one_name, team_two_name,
                         pick_order, map_pool, map_key, map_name, winner, score_one, score_two, round)
    VALUES (${matchId}, 'finished', ${now - 3_600_000}, ${now - 600_000}, ${now - 3_000_000},
            ${`team_${users[0].name}`}, ${`team_${users[1].name}`}, 'ABBAABBA', '[]'::jsonb,
            'de_mirage', 'Mirage', 'teamOne', 13, 9, 22)`);
  for (const [i, u] of users.entries()) {
    const team = i % 2 === 0 ? 'teamOne' : 'teamTwo';
    const elo = 1000 + i * 25;
    const delta = team === 'teamOne' ? 12 : -12;
    await database.db.execute(sql`
      INSERT INTO match_players (match_id, user_id, team, captain, name, elo, elo_before, elo_after,
                                 kills, deaths, assists, damage, headshots, rounds_present)
      VALUES (${matchId}, ${u.id}, ${team}, ${i < 2}, ${u.name}, ${elo}, ${elo}, ${elo + delta},
              ${10 + i}, ${12 - i}, ${i}, ${1500 + 100 * i}, ${i * 2}, 22)`);
  }
  await database.close();
  return { matchId, userId: users[0].id };
}

async function startServer(port: number, dataDir: string, webDist?: string): Promise<ChildProcess> {
  // A server left over on the port (say, by a run killed before its clean-up) would answer the
  // health check below for the new one, and Lighthouse would measure whatever build it serves.
  const stale = await fetch(`http://127.0.0.1:${port}/api/health`).then(
    () => true,
    () => false,
  );
  if (stale) throw new Error(`port ${port} is already in use: stop what listens there, or pass --port=`);
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: {
      ...serverEnv,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(webDist ? { WEB_DIST: webDist } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const t0 = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server on ${port} exited with ${child.exitCode}`);
    if (Date.now() - t0 > 120_000) throw new Error(`server on ${port} not healthy in 120 s`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
}

interface Run {
  score: number;
  lcp: number;
  tbt: number;
  cls: number;
  /** Lighthouse's measure of the host's CPU speed; its 4× mobile slowdown assumes a fast desktop. */
  benchmarkIndex: number;
  lhr: LighthouseResult;
}
interface LighthouseResult {
  environment: { benchmarkIndex: number };
  categories: { performance: { score: number } };
  audits: Record<
    string,
    {
      title: string;
      score: number | null;
      numericValue?: number;
      displayValue?: string;
      details?: { type?: string; overallSavingsMs?: number; overallSavingsBytes?: number };
      metricSavings?: Record<string, number>;
    }
  >;
}

async function audit(url: string, port: number): Promise<Run> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
  });
  if (!result) throw new Error(`no Lighthouse result for ${url}`);
  const lhr = result.lhr as unknown as LighthouseResult;
  const a = lhr.audits;
  return {
    score: lhr.categories.performance.score,
    lcp: a['largest-contentful-paint'].numericValue ?? Number.NaN,
    tbt: a['total-blocking-time'].numericValue ?? Number.NaN,
    cls: a['cumulative-layout-shift'].numericValue ?? Number.NaN,
    benchmarkIndex: lhr.environment.benchmarkIndex,
    lhr,
  };
}

const slug = (name: string) => name.replace(/[^a-z0-9]+/gi, '_');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The audits worth reading when a page misses: opportunities by savings, then failing diagnostics. */
function topFindings(lhr: LighthouseResult, count = 6): string[] {
  return Object.entries(lhr.audits)
    .filter(([, a]) => a.score !== null && a.score < 0.9)
    .map(([id, a]) => ({
      id,
      a,
      saving: Math.max(a.details?.overallSavingsMs ?? 0, ...Object.values(a.metricSavings ?? {})),
    }))
    .sort((x, y) => y.saving - x.saving)
    .slice(0, count)
    .map(({ id, a }) => `${id}: ${a.title}${a.displayValue ? ` — ${a.displayValue}` : ''}`);
}

// chrome-launcher reports a missing browser as an unhandled 'error' event, past the clean-up below.
if (!existsSync('/usr/bin/chromium'))
  throw new Error('lighthouse bench: /usr/bin/chromium is missing (apt-get install chromium)');
const servers: ChildProcess[] = [];
let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  const helloDist = path.join(work, 'hello-dist');
  await buildHello(helloDist);
  const appData = path.join(work, 'app-data');
  const { matchId, userId } = await seed(appData);
  servers.push(await startServer(PORT, appData));
  servers.push(await startServer(PORT + 1, path.join(work, 'hello-data'), helloDist));
  const app = `http://127.0.0.1:${PORT}`;
  const every: [string, string][] = [
    ['baseline: Vite + React hello', `http://127.0.0.1:${PORT + 1}/`],
    ['/', `${app}/`],
    ['/leaderboard', `${app}/leaderboard`],
    ['/match/:id', `${app}/match/${matchId}`],
    ['/user/:id/matches', `${app}/user/${userId}/matches`],
  ];
  const pages = every.filter(
    ([name], i) => ONLY.length === 0 || i === 0 || ONLY.includes(name), // the baseline always
  );
  chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  const runs = new Map<string, Run[]>(pages.map(([name]) => [name, []]));
  const loads: number[] = [];
  for (let round = 1; round <= RUNS; round++) {
    for (const [name, url] of pages) {
      loads.push(os.loadavg()[0]);
      const run = await audit(url, chrome.port);
      runs.get(name)?.push(run);
      if (keep) writeFileSync(path.join(work, `${slug(name)}-run${round}.json`), JSON.stringify(run.lhr));
      console.log(
        `run ${round} ${name}: score ${run.score.toFixed(2)}, LCP ${run.lcp.toFixed(0)} ms, TBT ${run.tbt.toFixed(0)} ms, CLS ${run.cls.toFixed(3)}`,
      );
    }
  }
  const summary = pages.map(([name]) => {
    const list = runs.get(name) ?? [];
    const score = median(list.map((r) => r.score));
    const medianRun = list.find((r) => r.score === score) ?? list[0];
    return {
      name,
      score,
      lcp: median(list.map((r) => r.lcp)),
      tbt: median(list.map((r) => r.tbt)),
      cls: median(list.map((r) => r.cls)),
      scores: list.map((r) => r.score),
      medianRun,
    };
  });
  const base = summary[0];
  const indexes = [...runs.values()].flat().map((r) => r.benchmarkIndex);
  console.log(
    `\n${RUNS} runs each, medians; load average (1 min) during the runs ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} on ${os.cpus().length} cores; Lighthouse benchmarkIndex ${Math.min(...indexes).toFixed(0)}–${Math.max(...indexes).toFixed(0)} (median ${median(indexes).toFixed(0)})`,
  );
  console.log('| page | score (runs) | LCP | TBT | CLS | score − baseline |');
  console.log('|---|---|---|---|---|---|');
  let missed = 0;
  // In points, as Lighthouse reports a score (0.97 − 1.00 in floating point is below −0.03).
  const points = (score: number) => Math.round(score * 100);
  for (const s of summary) {
    const diff = (points(s.score) - points(base.score)) / 100;
    console.log(
      `| ${s.name} | ${s.score.toFixed(2)} (${s.scores.map((x) => x.toFixed(2)).join(', ')}) | ${(s.lcp / 1000).toFixed(2)} s | ${s.tbt.toFixed(0)} ms | ${s.cls.toFixed(3)} | ${s === base ? '—' : diff.toFixed(2)} |`,
    );
    if (s === base) continue;
    const misses =
      s.score < TARGETS.score ||
      s.lcp > TARGETS.lcp ||
      s.tbt > TARGETS.tbt ||
      s.cls > TARGETS.cls ||
      diff < -TARGETS.belowBaseline;
    if (misses) missed++;
  }
  for (const s of summary) {
    const file = path.join(work, `${slug(s.name)}.json`);
    writeFileSync(file, JSON.stringify(s.medianRun.lhr));
    console.log(`\n${s.name} (median run${keep ? `, ${file}` : ''}):`);
    for (const line of topFindings(s.medianRun.lhr)) console.log(`  ${line}`);
  }
  if (missed) {
    console.log(
      `\n${missed} page(s) miss a target (score ≥ 0.95, LCP ≤ 2.5 s, TBT ≤ 150 ms, CLS ≤ 0.05, ≤ 0.03 below the baseline)`,
    );
    process.exitCode = 1;
  }
} finally {
  await chrome?.kill();
  for (const s of servers) {
    s.kill('SIGTERM');
    await new Promise((r) => (s.exitCode !== null ? r(null) : s.on('exit', r)));
  }
  if (!keep) rmSync(work, { recursive: true, force: true });
}
