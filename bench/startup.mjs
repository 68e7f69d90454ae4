// Time from starting the built server to its first 200 on /api/health, on an empty data directory
// (PGlite initialises) and on an existing one. Targets (issue 2): ≤ 15 s empty, ≤ 3 s existing.
// Run after `npm run build`. Three runs each; the median is reported.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const main = path.resolve(import.meta.dirname, '../apps/server/dist/main.js');
const port = 3700 + Math.floor(Math.random() * 200);

async function timeToHealthy(dataDir) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [main], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      if (performance.now() - t0 > 60_000) throw new Error('server did not become healthy in 60 s');
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.status === 200) return performance.now() - t0;
      } catch {}
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const empty = [];
const existing = [];
for (let i = 0; i < 3; i++) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openpug-startup-'));
  empty.push(await timeToHealthy(dir));
  existing.push(await timeToHealthy(dir));
  rmSync(dir, { recursive: true, force: true });
}
const fmt = (ms) => `${(ms / 1000).toFixed(2)} s`;
console.log(
  `startup to first healthy response, empty data dir: median ${fmt(median(empty))} (runs ${empty.map(fmt).join(', ')}) — target ≤ 15 s`,
);
console.log(
  `startup to first healthy response, existing data dir: median ${fmt(median(existing))} (runs ${existing.map(fmt).join(', ')}) — target ≤ 3 s`,
);
if (median(empty) > 15_000 || median(existing) > 3_000) process.exitCode = 1;
