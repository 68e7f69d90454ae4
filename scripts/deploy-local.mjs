// `npm run deploy:local`: the production topology of deploy/ on this machine, for trying it and
// for the deploy journey (e2e/deploy/): nginx with deploy/nginx/openpug.conf (TLS with a
// self-signed certificate made now) in front of two built openpug instances on PostgreSQL (a
// scratch database), Redis (a key prefix of its own) and Synapse (scripts/synapse.sh, a fresh
// instance of its own). Prints the https URL; Ctrl-C (or SIGTERM) stops everything, drops the
// database and removes the temporary folder.
//
// Needs nginx and openssl (`apt-get install -y nginx`), PostgreSQL and Redis running (as
// .ci/run starts them), python3 with venv for Synapse. Builds (`npm run build`) only when the
// build is missing. The instances run without NODE_ENV=production, so the dev outbox, the
// simulated voice server and the game-server simulator stand in for mail, TeamSpeak and CS2.
//
// Environment (all optional):
//   DEPLOY_PORT          https port of nginx (default: a free one)
//   DEPLOY_INSTANCES     number of openpug instances (default 2)
//   DEPLOY_PG_URL        PostgreSQL to create the scratch database on
//                        (default TEST_DATABASE_URL, else postgres://postgres:postgres@127.0.0.1:5432/postgres)
//   DEPLOY_REDIS_URL     Redis (default TEST_REDIS_URL, else redis://127.0.0.1:6379)
//   DEPLOY_STATE_FILE    where to write the state (URL, instance ports and pids; default <tmp>/state.json)
//   DEPLOY_RESTART_SEC   an instance that exits is started again after this many seconds, as
//                        systemd's Restart= would (default 2; `off`: not started again)
//   DEPLOY_KEEP=1        keep the temporary folder (logs) after stopping
// Anything else in the environment (SIM_ROUND_MS, RATE_LIMIT_PER_MIN, LOG_LEVEL, …) reaches the
// instances.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { root } from './lib.mjs';
import { ensureNode24 } from './node24.mjs';

ensureNode24();

const env = process.env;
const log = (msg) => console.log(`[deploy] ${msg}`);
const fail = (msg) => {
  console.error(`[deploy] ${msg}`);
  return Object.assign(new Error(msg), { logged: true });
};

const tmp = mkdtempSync(path.join(os.tmpdir(), 'openpug-deploy-'));
chmodSync(tmp, 0o755); // nginx's workers (user nobody when started as root) write temp files here
const stateFile = env.DEPLOY_STATE_FILE || path.join(tmp, 'state.json');
const count = Number(env.DEPLOY_INSTANCES || 2);
const restartSec = env.DEPLOY_RESTART_SEC === 'off' ? null : Number(env.DEPLOY_RESTART_SEC || 2);
const tag = randomBytes(4).toString('hex');

/** What stop() has to undo, filled in as the start goes on. */
const state = {
  url: '',
  tmp,
  accessLog: path.join(tmp, 'access.log'),
  errorLog: path.join(tmp, 'error.log'),
  instances: [],
  synapse: null,
  database: null,
};
let nginx = null;
let synapseEnv = null;
let pgAdminUrl = '';
let stopping = false;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function need(cmd, hint) {
  if (spawnSync('sh', ['-c', `command -v ${cmd}`]).status !== 0) throw fail(`${cmd} not found: ${hint}`);
}

function writeState() {
  writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`);
}

// ---- PostgreSQL: a scratch database (driver from the server's dependencies) ----
const requireServer = createRequire(path.join(root, 'apps/server/package.json'));
const pg = requireServer('pg');

async function sql(url, text) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

// ---- nginx: deploy/nginx/openpug.conf with the local host, ports and files ----
function nginxSite(port, ports, synapsePort, cert, key) {
  let conf = readFileSync(path.join(root, 'deploy/nginx/openpug.conf'), 'utf8');
  const swap = (pattern, replacement, what) => {
    const before = conf;
    conf = conf.replace(pattern, replacement);
    if (conf === before)
      throw fail(`deploy/nginx/openpug.conf: ${what} not found (scripts/deploy-local.mjs)`);
  };
  // The port-80 server (ACME challenge, redirect) has no use on loopback.
  swap(/\n# Port 80:[^\n]*\nserver \{[\s\S]*?\n\}\n/, '\n', 'the port-80 server block');
  swap(/listen 443 ssl http2;/, `listen 127.0.0.1:${port} ssl http2;`, 'listen 443');
  swap(/\n\s*listen \[::\]:443 ssl http2;/, '', 'listen [::]:443');
  swap(/server_name pug\.example\.org;/g, 'server_name localhost;', 'server_name');
  swap(/ssl_certificate\s+\S+; # local: certificate/, `ssl_certificate ${cert};`, 'ssl_certificate');
  swap(/ssl_certificate_key\s+\S+;\s+# local: key/, `ssl_certificate_key ${key};`, 'ssl_certificate_key');
  swap(/access_log \S+ openpug; # local: access log/, `access_log ${state.accessLog} openpug;`, 'access_log');
  swap(/server 127\.0\.0\.1:\d+; # local: synapse/, `server 127.0.0.1:${synapsePort};`, 'synapse server');
  // Each run of instance lines (one per upstream) becomes one line per local instance.
  swap(
    /( *)server 127\.0\.0\.1:\d+ ([^;\n]*); # local: instance\n(?:\s*server 127\.0\.0\.1:\d+ [^;\n]*; # local: instance\n)*/g,
    (_m, indent, params) => ports.map((p) => `${indent}server 127.0.0.1:${p} ${params};\n`).join(''),
    'instance servers',
  );
  if (/server_name pug\.example\.org|;\s*# local:/.test(conf))
    throw fail('deploy/nginx/openpug.conf: a line was not adapted');
  return conf;
}

function nginxMain(site) {
  const t = (d) => path.join(tmp, 'nginx-temp', d);
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(t(d), { recursive: true });
  chmodSync(path.join(tmp, 'nginx-temp'), 0o777);
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) chmodSync(t(d), 0o777);
  return `# Generated by scripts/deploy-local.mjs around deploy/nginx/openpug.conf (${site}).
worker_processes 1;
pid ${path.join(tmp, 'nginx.pid')};
error_log ${state.errorLog} warn;
events { worker_connections 1024; }
http {
    include /etc/nginx/mime.types;
    default_type application/octet-stream;
    sendfile on;
    client_body_temp_path ${t('body')};
    proxy_temp_path ${t('proxy')};
    fastcgi_temp_path ${t('fastcgi')};
    uwsgi_temp_path ${t('uwsgi')};
    scgi_temp_path ${t('scgi')};
    access_log ${state.accessLog};
    include ${site};
}
`;
}

// ---- openpug instances, started again when they exit (like systemd's Restart=) ----
const children = new Set();

function prefixLines(stream, label, out) {
  let rest = '';
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    for (const line of lines) out.write(`[${label}] ${line}\n`);
  });
}

function startInstance(instance, instanceEnv) {
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: { ...instanceEnv, PORT: String(instance.port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  instance.pid = child.pid;
  instance.starts = (instance.starts ?? 0) + 1;
  prefixLines(child.stdout, `app:${instance.port}`, process.stdout);
  prefixLines(child.stderr, `app:${instance.port}`, process.stderr);
  child.on('exit', (code, signal) => {
    children.delete(child);
    instance.pid = null;
    writeState();
    if (stopping) return;
    log(`instance :${instance.port} exited (${signal ?? `code ${code}`})`);
    if (restartSec === null) return;
    setTimeout(() => {
      if (stopping) return;
      log(`starting instance :${instance.port} again`);
      startInstance(instance, instanceEnv);
      writeState();
    }, restartSec * 1000);
  });
  return child;
}

async function waitFor(url, what, ms = 120_000, init = {}) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      const res = await fetch(url, init);
      if (res.ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 300));
  }
  throw fail(`${what} did not answer at ${url} within ${ms / 1000} s`);
}

function waitExit(child, ms) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  log('stopping');
  // Instances first (SIGTERM: they close their sockets and finish), then the proxy.
  const apps = [...children];
  for (const child of apps) child.kill('SIGTERM');
  await Promise.all(apps.map((c) => waitExit(c, 15_000)));
  if (nginx) {
    nginx.kill('SIGQUIT'); // graceful
    await waitExit(nginx, 5_000);
  }
  if (synapseEnv) spawnSync('bash', [path.join(root, 'scripts/synapse.sh'), 'stop'], { env: synapseEnv });
  if (state.database) {
    try {
      await sql(pgAdminUrl, `DROP DATABASE IF EXISTS "${state.database}" WITH (FORCE)`);
    } catch (err) {
      console.error(`[deploy] could not drop database ${state.database}: ${err.message}`);
    }
  }
  if (env.DEPLOY_KEEP === '1') log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
  if (env.DEPLOY_STATE_FILE) rmSync(stateFile, { force: true });
  process.exit(code);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));

async function main() {
  need('nginx', 'apt-get install -y nginx');
  need('openssl', 'apt-get install -y openssl');
  need('curl', 'apt-get install -y curl');
  need('python3', 'apt-get install -y python3 python3-venv (for Synapse)');

  const serverMain = path.join(root, 'apps/server/dist/main.js');
  if (!existsSync(serverMain) || !existsSync(path.join(root, 'apps/web/dist/index.html'))) {
    log('no build yet: npm run build');
    if (spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' }).status !== 0)
      throw fail('npm run build failed');
  }

  const port = Number(env.DEPLOY_PORT) || (await freePort());
  const ports = [];
  while (ports.length < count) {
    const p = await freePort();
    if (p !== port && !ports.includes(p)) ports.push(p);
  }
  state.url = `https://localhost:${port}`;

  // Certificate for localhost, valid two days.
  const cert = path.join(tmp, 'cert.pem');
  const key = path.join(tmp, 'key.pem');
  const ssl = spawnSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  if (ssl.status !== 0) throw fail(`openssl failed: ${ssl.stderr}`);

  // Synapse of its own (own folder and port; the venv is shared with the tests).
  const synapsePort = await freePort();
  synapseEnv = { ...env, SYNAPSE_DIR: path.join(tmp, 'synapse'), SYNAPSE_PORT: String(synapsePort) };
  log(`starting Synapse on 127.0.0.1:${synapsePort}`);
  const syn = spawnSync('bash', [path.join(root, 'scripts/synapse.sh')], {
    env: synapseEnv,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (syn.status !== 0) throw fail('scripts/synapse.sh failed');
  const exported = Object.fromEntries(
    [...syn.stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2].trim()]),
  );
  state.synapse = exported.SYNAPSE_URL;

  // PostgreSQL scratch database.
  pgAdminUrl =
    env.DEPLOY_PG_URL || env.TEST_DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
  state.database = `openpug_deploy_${tag}`;
  await sql(pgAdminUrl, `CREATE DATABASE "${state.database}"`);
  const databaseUrl = new URL(pgAdminUrl);
  databaseUrl.pathname = `/${state.database}`;

  const instanceEnv = {
    LOG_LEVEL: 'warn',
    ...env,
    HOST: '127.0.0.1',
    PUBLIC_URL: state.url,
    DATABASE_URL: databaseUrl.toString(),
    REDIS_URL: env.DEPLOY_REDIS_URL || env.TEST_REDIS_URL || 'redis://127.0.0.1:6379',
    REDIS_PREFIX: `openpug-deploy-${tag}`,
    MATRIX_HOMESERVER_URL: exported.SYNAPSE_URL,
    // Browsers reach Synapse through nginx's /_matrix on the site's own origin.
    MATRIX_PUBLIC_URL: state.url,
    MATRIX_SHARED_SECRET: exported.SYNAPSE_SHARED_SECRET,
    MATRIX_SERVER_NAME: exported.SYNAPSE_SERVER_NAME,
    // Shared by the instances (as /etc/openpug/openpug.env would be): the same signing secret,
    // and one data folder for the generated VAPID keys.
    JWT_SECRET: randomBytes(48).toString('base64'),
    DATA_DIR: path.join(tmp, 'data'),
  };
  delete instanceEnv.PORT;

  // The first instance migrates the database; the others start when it is up.
  for (const [i, p] of ports.entries()) {
    const instance = { port: p, url: `http://127.0.0.1:${p}`, pid: null };
    state.instances.push(instance);
    startInstance(instance, instanceEnv);
    if (i === 0) await waitFor(`${instance.url}/api/health`, `instance :${p}`);
  }
  await Promise.all(state.instances.map((x) => waitFor(`${x.url}/api/health`, `instance :${x.port}`)));

  // nginx in the foreground (a child of this process), on the generated configuration.
  const site = path.join(tmp, 'openpug.conf');
  writeFileSync(site, nginxSite(port, ports, synapsePort, cert, key));
  const main = path.join(tmp, 'nginx.conf');
  writeFileSync(main, nginxMain(site));
  const nginxArgs = ['-p', tmp, '-c', main, '-e', state.errorLog];
  const check = spawnSync('nginx', [...nginxArgs, '-t', '-q'], { encoding: 'utf8' });
  if (check.status !== 0) throw fail(`nginx -t refused the configuration:\n${check.stderr}`);
  nginx = spawn('nginx', [...nginxArgs, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  nginx.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[deploy] nginx exited (${signal ?? `code ${code}`}); see ${state.errorLog}`);
      stop(1);
    }
  });
  // Self-signed: Node's fetch would refuse it, so ask through the proxy with curl.
  const until = Date.now() + 30_000;
  while (spawnSync('curl', ['-fsk', '-o', '/dev/null', `${state.url}/api/health`]).status !== 0) {
    if (Date.now() > until) throw fail(`nginx did not answer at ${state.url}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  writeState();

  log(`openpug is up at ${state.url} (self-signed certificate)`);
  log(`instances: ${state.instances.map((x) => x.url).join(', ')}; Synapse: ${state.synapse}`);
  log(`database: ${state.database}; Redis prefix: ${instanceEnv.REDIS_PREFIX}`);
  log(`state: ${stateFile}; nginx log: ${state.accessLog}`);
  log('Ctrl-C stops everything');
}

main().catch((err) => {
  if (!err?.logged) console.error('[deploy] start failed:', err);
  stop(1);
});
