// Starts the built server for the browser tests: builds first when no build exists, then runs
// apps/server/dist/main.js on a fresh temporary data directory that is removed on exit.
// E2E_DATA_DIR=<dir> runs on that directory instead and keeps it: the new-deploy journey restarts
// the server on the same data with another web build, as a deploy does.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverMain = path.join(root, 'apps/server/dist/main.js');
const webIndex = path.join(root, 'apps/web/dist/index.html');

// E2E_FROM_SOURCE=1 runs the server from source (tsx) and E2E_WEB_DIST serves another web build,
// so several engineers can run browser tests at once without sharing one dist folder.
const fromSource = process.env.E2E_FROM_SOURCE === '1';
const webDist = process.env.E2E_WEB_DIST;

if (!webDist && (!existsSync(webIndex) || (!fromSource && !existsSync(serverMain)))) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const keptDataDir = process.env.E2E_DATA_DIR;
const dataDir = keptDataDir ?? mkdtempSync(path.join(tmpdir(), 'openpug-e2e-'));
const args = fromSource ? ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')] : [serverMain];
const server = spawn(process.execPath, args, {
  cwd: root,
  stdio: 'inherit',
  env: {
    // Browser journeys sign up many players from one address: no per-IP limit here.
    RATE_LIMIT_PER_MIN: '0',
    ...process.env,
    PORT: process.env.E2E_PORT ?? '3100',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    ...(webDist ? { WEB_DIST: webDist } : {}),
  },
});

const cleanUp = () => {
  if (!keptDataDir) rmSync(dataDir, { recursive: true, force: true });
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => {
  cleanUp();
  process.exit(code ?? (signal ? 0 : 1));
});
