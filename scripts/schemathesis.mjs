// Fuzzes the HTTP API with schemathesis (PyPI) against the OpenAPI document the server serves at
// /api/docs/json: every operation with a player's token and, side by side, the admin operations
// with an admin's token. Fails on any 5xx or any response that does not match its documented
// schema.
//
//   node scripts/schemathesis.mjs                     # 100 examples per operation (CI)
//   SCHEMATHESIS_EXAMPLES=1000 node scripts/schemathesis.mjs   # the full-size run of bench/RESULTS.md
//
// SCHEMATHESIS_WORKERS: concurrent schemathesis workers (default 2). SCHEMATHESIS_PASSES: which
// passes to run (default `player,admin`, side by side).
// SCHEMATHESIS_ARGS: more options for the player pass (a share of the operations, to run the
// full-size fuzzing as several processes side by side).
// SCHEMATHESIS: the schemathesis executable (default: the venv .ci/run makes,
// ~/.cache/openpug/schemathesis-venv/bin/schemathesis). SCHEMATHESIS_PORT: the server's port
// (default: a free one). Serves apps/server/dist (built when missing or stale) on a fresh PGlite
// data directory, removed afterwards; SCHEMATHESIS_FROM_SOURCE=1 runs the server from source (tsx)
// instead, leaving the shared build alone.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { ensureBuilt, root } from './lib.mjs';

const cacheDir =
  process.env.OPENPUG_NODE_CACHE ??
  (process.env.XDG_CACHE_HOME
    ? path.join(process.env.XDG_CACHE_HOME, 'openpug')
    : path.join(homedir(), '.cache', 'openpug'));
const schemathesis =
  process.env.SCHEMATHESIS ?? path.join(cacheDir, 'schemathesis-venv', 'bin', 'schemathesis');
const examples = process.env.SCHEMATHESIS_EXAMPLES ?? '100';
const workers = process.env.SCHEMATHESIS_WORKERS ?? '2';
const passes = (process.env.SCHEMATHESIS_PASSES ?? 'player,admin').split(',');
/** More schemathesis options for the player pass, e.g. `--include-path-regex ^/api/users` to run a share. */
const extraArgs = (process.env.SCHEMATHESIS_ARGS ?? '').split(' ').filter(Boolean);
const ADMIN_EMAIL = 'schemathesis-admin@example.test';
const PASSWORD = 'schemathesis-password';
/** Operations only an admin may call (requireAdmin; docs/contract.md §6): fuzzed again as admin. */
const ADMIN_PATHS = '^/api/(admin/|drops(/|$)|users/\\{id\\}/role$)';

if (!existsSync(schemathesis)) {
  console.error(
    `schemathesis not found at ${schemathesis}: .ci/run installs it (pip install schemathesis in a venv)`,
  );
  process.exit(1);
}

async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const fromSource = process.env.SCHEMATHESIS_FROM_SOURCE === '1';
if (!fromSource) ensureBuilt();
const port = Number(process.env.SCHEMATHESIS_PORT ?? (await freePort()));
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'openpug-schemathesis-'));
const serverArgs = fromSource
  ? ['--import', 'tsx', path.join(root, 'apps/server/src/main.ts')]
  : [path.join(root, 'apps/server/dist/main.js')];
const server = spawn(process.execPath, serverArgs, {
  cwd: root,
  stdio: ['ignore', 'inherit', 'inherit'],
  env: {
    ...process.env,
    NODE_ENV: 'development',
    PORT: String(port),
    PUBLIC_URL: base,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'error',
    // Thousands of calls from one address: no per-IP limit.
    RATE_LIMIT_PER_MIN: '0',
    // The admin of the second pass: promoted once its e-mail is verified.
    ADMIN_EMAILS: ADMIN_EMAIL,
  },
});
let stopping = false;
server.on('exit', (code) => {
  if (!stopping) {
    console.error(`schemathesis: the server exited early (${code})`);
    process.exit(1);
  }
});
const stopServer = async () => {
  stopping = true;
  if (server.exitCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
};

async function api(method, url, body, token) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(body ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Signs up through the API as a player would (the link from the dev outbox; this script is a loopback client). */
async function signUp(name, email) {
  await api('POST', '/api/register', { name, email, password: PASSWORD, confirmPassword: PASSWORD });
  const outbox = await api('GET', '/api/dev/outbox');
  const mail = outbox.docs.find((m) => m.to === email && /\/verify\//.test(m.text ?? ''));
  const id = /\/verify\/([\w-]+)/.exec(mail?.text ?? '')?.[1];
  if (!id) throw new Error(`no verification link for ${email} in the dev outbox`);
  await api('POST', '/api/verify', { id });
  return (await api('POST', '/api/login', { email, password: PASSWORD })).token;
}

let status = 1;
try {
  for (let i = 0; ; i++) {
    if (
      await fetch(`${base}/api/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 1800) throw new Error('the server did not answer /api/health within 180 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const playerToken = await signUp('fuzzer', 'schemathesis-player@example.test');
  const adminToken = await signUp('fuzzadmin', ADMIN_EMAIL);
  const me = await api('GET', '/api/profile', undefined, adminToken);
  if (me.role !== 'ADMIN') throw new Error('the verified ADMIN_EMAILS account is not an admin');

  /** One schemathesis run; its lines are prefixed with `[name]`, as both passes run at once. */
  const run = (name, label, token, filter) => {
    console.log(`== schemathesis [${name}]: ${label}, ${examples} examples per operation`);
    const args = [
      'run',
      `${base}/api/docs/json`,
      '--url',
      base,
      '-H',
      `Authorization: Bearer ${token}`,
      '--checks',
      'not_a_server_error,response_schema_conformance',
      '--max-examples',
      examples,
      '--workers',
      workers,
      '--no-shrink',
      '--phases',
      'examples,coverage,fuzzing',
      '--generation-database',
      'none',
      '--no-color',
      '--suppress-health-check',
      'all',
      '--warnings',
      'off',
      ...filter,
    ];
    const child = spawn(schemathesis, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    for (const stream of [child.stdout, child.stderr])
      createInterface({ input: stream }).on('line', (line) => {
        output += `${line}\n`;
        console.log(`[${name}] ${line}`);
      });
    return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, output })));
  };
  /**
   * A pass, run again once when schemathesis itself crashed on Debian 12's Python 3.11.2 compiler
   * bug ("AST constructor recursion depth mismatch", a SystemError inside Hypothesis while it
   * describes a strategy; CPython gh-106905, fixed in later 3.11 releases) and found nothing
   * wrong with the API. Any failure of a check is never retried.
   */
  const pass = async (...runArgs) => {
    const first = await run(...runArgs);
    const toolCrash =
      first.code !== 0 &&
      first.output.includes('AST constructor recursion depth mismatch') &&
      !/failures/i.test(first.output);
    if (!toolCrash) return first.code;
    console.log(
      `== schemathesis [${runArgs[0]}]: the tool crashed (CPython 3.11 compiler bug), running the pass again`,
    );
    return (await run(...runArgs)).code;
  };
  // Side by side: the server, the player pass and the admin pass each keep a core busy.
  const results = await Promise.all([
    passes.includes('player') ? pass('player', 'every operation as a player', playerToken, extraArgs) : 0,
    passes.includes('admin')
      ? pass('admin', 'admin operations as an admin', adminToken, ['--include-path-regex', ADMIN_PATHS])
      : 0,
  ]);
  status = results.some((code) => code !== 0) ? 1 : 0;
} catch (err) {
  console.error(`schemathesis: ${err.message}`);
} finally {
  await stopServer();
}
process.exit(status);
