// Helpers for the start and test commands: install dependencies and build only when needed,
// so `npm start` and `npm test` work on a fresh clone and stay quick afterwards.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (res.error) throw res.error;
  return res.status ?? 1;
}

export function mustRun(cmd, args, opts) {
  const status = run(cmd, args, opts);
  if (status !== 0) {
    console.error(`openpug: "${cmd} ${args.join(' ')}" failed with exit code ${status}`);
    process.exit(status);
  }
}

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const st = statSync(target);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(target)) {
    if (entry === 'node_modules' || entry === 'dist') continue;
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  }
  return newest;
}

const at = (...p) => path.join(root, ...p);

/**
 * Installs exactly the lock file (`npm ci`) when node_modules is missing or older than it. The
 * lock lists every platform's optional packages, so `npm ci` accepts a fresh clone anywhere; a
 * lock out of step with package.json fails here instead of being rewritten quietly.
 */
export function ensureInstalled() {
  const marker = at('node_modules', '.package-lock.json');
  if (existsSync(marker) && newestMtime(marker) >= newestMtime(at('package-lock.json'))) return;
  console.log('openpug: installing dependencies (npm ci from the lock file) …');
  mustRun('npm', ['ci', '--no-audit', '--no-fund']);
}

/** Builds web and server when their output is missing or older than their sources. */
export function ensureBuilt({ force = false } = {}) {
  const shared = newestMtime(at('packages', 'shared', 'src'));
  const webOut = newestMtime(at('apps', 'web', 'dist', 'index.html'));
  const webSrc = Math.max(shared, newestMtime(at('apps', 'web')));
  if (force || webOut === 0 || webSrc > webOut) {
    console.log('openpug: building the web app …');
    mustRun('npm', ['run', 'build', '-w', '@openpug/web']);
  }
  const serverOut = newestMtime(at('apps', 'server', 'dist', 'main.js'));
  const serverSrc = Math.max(shared, newestMtime(at('apps', 'server', 'src')));
  if (force || serverOut === 0 || serverSrc > serverOut) {
    console.log('openpug: building the server …');
    mustRun('npm', ['run', 'build', '-w', '@openpug/server']);
  }
}
