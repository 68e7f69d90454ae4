// Starts the built server for the browser tests: builds first when no build exists, then runs
// apps/server/dist/main.js on a fresh temporary data directory that is removed on exit.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverMain = path.join(root, 'apps/server/dist/main.js');
const webIndex = path.join(root, 'apps/web/dist/index.html');

if (!existsSync(serverMain) || !existsSync(webIndex)) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'openpug-e2e-'));
const server = spawn(process.execPath, [serverMain], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PORT: process.env.E2E_PORT ?? '3100', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
});

const cleanUp = () => rmSync(dataDir, { recursive: true, force: true });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => {
  cleanUp();
  process.exit(code ?? (signal ? 0 : 1));
});
