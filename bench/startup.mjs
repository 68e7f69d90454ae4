// Time from starting the built server to its first 200 on /api/health, on an empty data directory
// (first boot) and on an existing one (reopen), with the embedded default and — the baseline, in
// the same run — the same server on PostgreSQL (a scratch database on DATABASE_URL or
// 127.0.0.1:5432, created empty and dropped). After each boot, once idle for 3 s: the resident
// size of the server and of the embedded engine's process. Then the engine alone: its process
// (dist/engine-child.js) started by itself on the same directory, idle 3 s.
// Targets: issue 2 (≤ 15 s empty, ≤ 3 s existing) and issue 20 target 6 (first boot ≤ 3 s; idle
// RSS after the first boot ≤ 1.5 × the server on PostgreSQL + the engine alone).
// Run after `npm run build`. `--runs=3` boots of each kind; medians are reported.
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const dist = path.resolve(import.meta.dirname, '../apps/server/dist');
const main = path.join(dist, 'main.js');
const port = 3700 + Math.floor(Math.random() * 200);
const runs = Number(process.argv.find((a) => a.startsWith('--runs='))?.split('=')[1] ?? 3);
const pgAdminUrl = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const IDLE_MS = 3_000;

const rssMiB = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return Number.NaN;
  }
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function boot(dataDir, databaseUrl) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  try {
    let ms;
    for (;;) {
      if (performance.now() - t0 > 120_000) throw new Error('server did not become healthy in 120 s');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.status === 200) {
          ms = performance.now() - t0;
          break;
        }
      } catch {}
      await sleep(20);
    }
    await sleep(IDLE_MS);
    const server = rssMiB(child.pid);
    const engine = databaseUrl ? 0 : rssMiB(Number(readFileSync(path.join(dataDir, 'engine.lock'), 'utf8')));
    return { ms, server, engine };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
}

/** The engine's process by itself on `dataDir`: its resident size once idle. */
async function engineAlone(dataDir) {
  const child = fork(path.join(dist, 'engine-child.js'), [], {
    env: { ...process.env, OPENPUG_ENGINE_DIR: path.join(dataDir, 'db') },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise((resolve, reject) => {
    child.on('message', (m) => m?.type === 'ready' && resolve());
    child.once('exit', () => reject(new Error('engine exited')));
  });
  await sleep(IDLE_MS);
  const rss = rssMiB(child.pid);
  child.send({ type: 'stop' });
  await new Promise((r) => child.on('exit', r));
  return rss;
}

async function scratchDatabase() {
  const name = `openpug_startup_${Math.random().toString(16).slice(2, 10)}`;
  const admin = async (q) => {
    const c = new pg.Client({ connectionString: pgAdminUrl });
    await c.connect();
    await c.query(q);
    await c.end();
  };
  await admin(`CREATE DATABASE ${name}`);
  const u = new URL(pgAdminUrl);
  u.pathname = `/${name}`;
  return { url: u.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = { embedded: { first: [], reopen: [] }, postgres: { first: [], reopen: [] } };
const alone = [];
console.log(
  `startup: load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (${os.cpus().length} cores)`,
);
for (let i = 0; i < runs; i++) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openpug-startup-'));
  rows.embedded.first.push(await boot(dir));
  rows.embedded.reopen.push(await boot(dir));
  alone.push(await engineAlone(dir));
  rmSync(dir, { recursive: true, force: true });

  const pgDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-startup-pg-'));
  const db = await scratchDatabase();
  try {
    rows.postgres.first.push(await boot(pgDir, db.url));
    rows.postgres.reopen.push(await boot(pgDir, db.url));
  } finally {
    await db.drop();
    rmSync(pgDir, { recursive: true, force: true });
  }
}
const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const m = (mib) => `${mib.toFixed(0)} MiB`;
for (const [engine, kinds] of Object.entries(rows))
  for (const [kind, list] of Object.entries(kinds)) {
    const ms = median(list.map((r) => r.ms));
    const server = median(list.map((r) => r.server));
    const engineRss = median(list.map((r) => r.engine));
    console.log(
      `startup: ${engine}, ${kind === 'first' ? 'first boot (empty)' : 'reopen (existing)'}: healthy after median ${s(ms)} ` +
        `(runs ${list.map((r) => s(r.ms)).join(', ')}); idle RSS server ${m(server)}` +
        (engine === 'embedded' ? ` + engine process ${m(engineRss)} = ${m(server + engineRss)}` : ''),
    );
  }
const engineAloneRss = median(alone);
const firstTotal = median(rows.embedded.first.map((r) => r.server + r.engine));
const pgServer = median(rows.postgres.first.map((r) => r.server));
const budget = 1.5 * pgServer + engineAloneRss;
console.log(
  `startup: the engine alone (dist/engine-child.js on the same directory, idle): ${m(engineAloneRss)} (runs ${alone.map(m).join(', ')})`,
);
console.log(
  `startup: load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end`,
);
const firstMs = median(rows.embedded.first.map((r) => r.ms));
const reopenMs = median(rows.embedded.reopen.map((r) => r.ms));
console.log(
  `startup: targets — first boot ≤ 3 s: ${s(firstMs)} ${firstMs <= 3_000 ? 'met' : 'NOT met'}; ` +
    `idle RSS after first boot ≤ 1.5 × ${m(pgServer)} + ${m(engineAloneRss)} = ${m(budget)}: ${m(firstTotal)} ${firstTotal <= budget ? 'met' : 'NOT met'}; ` +
    `issue 2: empty ≤ 15 s ${firstMs <= 15_000 ? 'met' : 'NOT met'}, existing ≤ 3 s ${reopenMs <= 3_000 ? 'met' : 'NOT met'}`,
);
if (firstMs > 3_000 || reopenMs > 3_000 || firstTotal > budget) process.exitCode = 1;
