/**
 * Sockets benchmark (issue 20, target 7): many authenticated idle sockets on one server process,
 * the app against a bare Socket.IO server of the same version measured in the same run.
 *
 *   1. bare   bench/sockets-bare-server.mjs: Socket.IO alone, answering `authenticate` at once.
 *   2. app    the real server as `npm start` runs it (apps/server/dist/main.js, bundled from the
 *             current source first), PGlite in a temporary data
 *             directory holding N users created beforehand, each with a session token signed by
 *             the app's own token module (no sign-ups).
 *
 * For each: N clients in P client processes (bench/sockets-clients.mjs) connect over websocket
 * and sign in as the web does; the server process reports (bench/sockets-probe.mjs, over IPC)
 * its CPU time (user + system, every thread: PGlite runs in it) across the connect-and-
 * authenticate phase, and its heap and RSS after full GCs before and after, per socket. The app's
 * sockets then stay idle for the hold, every client-side disconnect counted as unexpected; then
 * the app restarts (SIGTERM, a new process on the same port and data directory) and every client
 * reconnects and signs in again by itself: the share back within 30 s of the stop is the figure.
 * Every process raises its open-file limit to the hard limit (reported as the ceiling).
 *
 *   node --import tsx bench/sockets-bench.ts [--n=19000] [--hold=300] [--procs=4]
 *        [--concurrency=40 (connects in flight per client process)] [--profile] [--no-restart]
 *   npm run bench -- sockets       (options from SOCKETS_N, SOCKETS_HOLD_S, SOCKETS_PROCS)
 *
 * Targets: app connect-and-authenticate CPU ≤ 3× bare, memory per socket ≤ 1.5× bare, no
 * unexpected disconnect during the hold, ≥ 99 % back within 30 s of a restart.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { openPglite } from '../apps/server/src/db/client';
import { users } from '../apps/server/src/db/schema';
import { createTokens } from '../apps/server/src/modules/auth/tokens';

const argOf = (name: string, env: string, def: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? process.env[env] ?? def);
const N = argOf('n', 'SOCKETS_N', 19_000);
const HOLD_S = argOf('hold', 'SOCKETS_HOLD_S', 300);
const PROCS = argOf('procs', 'SOCKETS_PROCS', 4);
const CONCURRENCY = argOf('concurrency', 'SOCKETS_CONCURRENCY', 40);
const PORT = argOf('port', 'SOCKETS_PORT', 3700);
const PROFILE = process.argv.includes('--profile');
const RESTART = !process.argv.includes('--no-restart');
const BACK_WITHIN_MS = 30_000;
const ROOT = path.resolve(import.meta.dirname, '..');

const hardStop = setTimeout(
  () => {
    console.error('sockets-bench: hard time limit reached');
    process.exit(2);
  },
  (HOLD_S + 2400) * 1000,
);
hardStop.unref();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (...a: unknown[]) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...a);

/** A node process with its open-file limit raised to the hard limit, and an IPC request helper. */
function spawnNode(args: string[], env: Record<string, string> = {}) {
  const child = spawn('sh', ['-c', 'ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"', process.execPath, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, ...env },
  });
  let seq = 0;
  const waiting = new Map<number, (body: Record<string, unknown>) => void>();
  child.on('message', (m: { id: number } & Record<string, unknown>) => {
    waiting.get(m.id)?.(m);
    waiting.delete(m.id);
  });
  // biome-ignore lint/suspicious/noExplicitAny: IPC answers are plain JSON, shaped by the command.
  const rpc = <T = any>(cmd: string, body: Record<string, unknown> = {}): Promise<T> =>
    new Promise((resolve) => {
      const id = ++seq;
      waiting.set(id, resolve as (b: Record<string, unknown>) => void);
      child.send({ id, cmd, ...body });
    });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, rpc, exited };
}
type Proc = ReturnType<typeof spawnNode>;

async function waitListening(port: number, timeoutMs = 120_000): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/socket/?EIO=4&transport=polling`);
      await res.arrayBuffer();
      if (res.ok) return performance.now() - t0;
    } catch {}
    await sleep(100);
  }
  throw new Error(`no server on port ${port} after ${timeoutMs} ms`);
}

const probeArgs = ['--expose-gc', '--import', './bench/sockets-probe.mjs'];

interface Phase {
  connectMs: number;
  connected: number;
  failed: number;
  cpuS: number;
  heapPerSocket: number;
  rssPerSocket: number;
  nofile: number | null;
  profile?: string;
}

function spawnClients(): Proc[] {
  return Array.from({ length: PROCS }, () => spawnNode(['bench/sockets-clients.mjs']));
}

async function connectPhase(
  name: string,
  port: number,
  server: Proc,
  clients: Proc[],
  tokens: string[],
): Promise<Phase> {
  const url = `http://127.0.0.1:${port}`;
  log(`${name}: measuring`);
  const mem0 = await server.rpc('mem');
  const cpu0 = (await server.rpc('cpu')).cpu;
  if (PROFILE) await server.rpc('profile-start');
  log(`${name}: connecting`);
  const t0 = performance.now();
  let shown = 0;
  const answers = await Promise.all(
    clients.map((c, i) =>
      c
        .rpc('connect', { url, tokens: tokens.filter((_, j) => j % PROCS === i), concurrency: CONCURRENCY })
        .then((a) => {
          shown++;
          log(
            `${name}: client process ${shown}/${PROCS} done (${a.connected} signed in, ${a.failed} failed)`,
          );
          return a;
        }),
    ),
  );
  const connectMs = performance.now() - t0;
  const cpu1 = (await server.rpc('cpu')).cpu;
  let profile: string | undefined;
  if (PROFILE) {
    profile = path.join(ROOT, `bench/.sockets-${name}.cpuprofile`);
    await server.rpc('profile-stop', { file: profile });
  }
  const mem1 = await server.rpc('mem');
  const connected = answers.reduce((s, a) => s + a.connected, 0);
  const failed = answers.reduce((s, a) => s + a.failed, 0);
  const per = (k: 'heapUsed' | 'rss') => (mem1.mem[k] - mem0.mem[k]) / Math.max(1, connected);
  return {
    connectMs,
    connected,
    failed,
    cpuS: (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / 1e6,
    heapPerSocket: per('heapUsed'),
    rssPerSocket: per('rss'),
    nofile: mem1.nofile,
    profile,
  };
}

/** The profile's heaviest frames by self time, and self time by package. */
function summarize(file: string, top = 15): string {
  const prof = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: Array<{
      id: number;
      hitCount?: number;
      callFrame: { functionName: string; url: string; lineNumber: number };
    }>;
    startTime: number;
    endTime: number;
    samples: number[];
  };
  const total = prof.samples.length || 1;
  const byFrame = new Map<string, number>();
  const byPackage = new Map<string, number>();
  for (const node of prof.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const short = url.replace(/^file:\/\//, '').replace(`${ROOT}/`, '');
    const key = `${functionName || '(anonymous)'} ${short ? `${short}:${lineNumber + 1}` : ''}`;
    byFrame.set(key, (byFrame.get(key) ?? 0) + hits);
    const pkg = short.startsWith('wasm://')
      ? '@electric-sql/pglite (wasm)'
      : (short.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ??
        (short.startsWith('apps/') || short.startsWith('packages/')
          ? short.split('/').slice(0, 4).join('/')
          : short.startsWith('node:')
            ? 'node:*'
            : functionName.startsWith('(')
              ? functionName
              : '(native)'));
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + hits);
  }
  const pct = (h: number) => `${((100 * h) / total).toFixed(1)} %`;
  const rows = (m: Map<string, number>) =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, h]) => `  ${pct(h).padStart(7)}  ${k}`)
      .join('\n');
  return `self time by frame:\n${rows(byFrame)}\nself time by package/folder:\n${rows(byPackage)}`;
}

async function main() {
  const load0 = loadavg();
  log(
    `sockets bench: N=${N} hold=${HOLD_S}s client processes=${PROCS} load average ${load0.map((l) => l.toFixed(1)).join(' ')}`,
  );
  const dataDir = mkdtempSync(path.join(tmpdir(), 'openpug-sockets-'));
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(36).toString('base64url');

  // N users in the app's database, each with a session token from the app's token module.
  const t0 = performance.now();
  const database = openPglite(path.join(dataDir, 'db'));
  await database.migrate();
  const ids = Array.from({ length: N }, () => randomUUID());
  for (let i = 0; i < N; i += 1000) {
    await database.db.insert(users).values(
      ids.slice(i, i + 1000).map((id, j) => ({
        id,
        name: `sock${i + j}`,
        email: `sock${i + j}@example.test`,
        verified: true,
      })),
    );
  }
  await database.close();
  const signer = createTokens(secret);
  const tokens: string[] = [];
  for (const id of ids) tokens.push((await signer.sign(id, 0)).token);
  log(`${N} users and tokens ready in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // --- bare Socket.IO ---
  const bareServer = spawnNode([...probeArgs, 'bench/sockets-bare-server.mjs'], { PORT: String(PORT + 1) });
  const bareClients = spawnClients();
  await waitListening(PORT + 1);
  const bare = await connectPhase('bare', PORT + 1, bareServer, bareClients, tokens);
  await Promise.all(bareClients.map((c) => c.rpc('close')));
  for (const c of bareClients) c.child.kill();
  bareServer.child.kill('SIGTERM');
  await bareServer.exited;
  log(`bare: ${bare.connected} in ${(bare.connectMs / 1000).toFixed(1)} s, CPU ${bare.cpuS.toFixed(2)} s`);

  // --- the app ---
  const appEnv = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    PORT: String(PORT),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    JWT_SECRET: secret,
    WEB_DIST: path.join(dataDir, 'no-web'),
  };
  // The server as `npm start` runs it: the bundle, built from the current source first.
  execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(ROOT, 'apps/server'), stdio: 'inherit' });
  const startApp = () => spawnNode([...probeArgs, 'apps/server/dist/main.js'], appEnv);
  let appServer = startApp();
  const bootMs = await waitListening(PORT);
  log(`app listening after ${(bootMs / 1000).toFixed(1)} s`);
  const clients = spawnClients();
  const app = await connectPhase('app', PORT, appServer, clients, tokens);
  log(`app: ${app.connected} in ${(app.connectMs / 1000).toFixed(1)} s, CPU ${app.cpuS.toFixed(2)} s`);

  // --- hold ---
  const holdEnd = Date.now() + HOLD_S * 1000;
  let unexpected = 0;
  const reasons: Record<string, number> = {};
  while (Date.now() < holdEnd) {
    await sleep(Math.min(15_000, holdEnd - Date.now()));
    const reports = await Promise.all(clients.map((c) => c.rpc('report')));
    unexpected = reports.reduce((s, r) => s + r.unexpected, 0);
    for (const k of Object.keys(reasons)) delete reasons[k];
    for (const r of reports)
      for (const [k, v] of Object.entries(r.reasons as Record<string, number>))
        reasons[k] = (reasons[k] ?? 0) + v;
    const authed = reports.reduce((s, r) => s + r.authed, 0);
    log(
      `hold: ${Math.round((holdEnd - Date.now()) / 1000)} s left, ${authed} signed in, ${unexpected} unexpected disconnects`,
    );
  }
  const held = (await Promise.all(clients.map((c) => c.rpc('report')))).reduce((s, r) => s + r.authed, 0);
  const holdMem = await appServer.rpc('mem');

  // --- restart ---
  let restart: {
    back30: number;
    total: number;
    p50: number;
    p99: number;
    max: number;
    bootS: number;
  } | null = null;
  if (RESTART) {
    const stopAt = Date.now();
    await Promise.all(clients.map((c) => c.rpc('restart', { t0: stopAt })));
    appServer.child.kill('SIGTERM');
    await appServer.exited;
    log(`app stopped after ${((Date.now() - stopAt) / 1000).toFixed(1)} s; starting again`);
    appServer = startApp();
    const reboot = await waitListening(PORT);
    const bootS = (Date.now() - stopAt) / 1000;
    log(`app listening again ${bootS.toFixed(1)} s after the stop (boot ${(reboot / 1000).toFixed(1)} s)`);
    let reports: Array<{ authed: number; total: number; backMs: Array<number | null> }> = [];
    while (Date.now() - stopAt < BACK_WITHIN_MS + 30_000) {
      await sleep(2_000);
      reports = await Promise.all(clients.map((c) => c.rpc('report')));
      const authed = reports.reduce((s, r) => s + r.authed, 0);
      log(`restart: ${authed}/${app.connected} back after ${((Date.now() - stopAt) / 1000).toFixed(0)} s`);
      if (authed === app.connected) break;
    }
    reports = await Promise.all(clients.map((c) => c.rpc('report', { withTimes: true })));
    const times = reports
      .flatMap((r) => r.backMs)
      .filter((t): t is number => t !== null)
      .sort((a, b) => a - b);
    const total = reports.reduce((s, r) => s + r.total, 0);
    const q = (p: number) => times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)] ?? Number.NaN;
    restart = {
      back30: times.filter((t) => t <= BACK_WITHIN_MS).length / Math.max(1, total),
      total,
      p50: q(0.5),
      p99: q(0.99),
      max: times.at(-1) ?? Number.NaN,
      bootS,
    };
  }
  for (const c of clients) c.child.kill();
  appServer.child.kill('SIGTERM');
  await appServer.exited;
  rmSync(dataDir, { recursive: true, force: true });

  const load1 = loadavg();
  const kb = (b: number) => `${(b / 1024).toFixed(1)} KiB`;
  const rows = [
    ['', 'bare Socket.IO', 'app', 'app ÷ bare'],
    ['signed in', `${bare.connected}`, `${app.connected}`, ''],
    ['failed', `${bare.failed}`, `${app.failed}`, ''],
    [
      'connect + auth wall',
      `${(bare.connectMs / 1000).toFixed(1)} s`,
      `${(app.connectMs / 1000).toFixed(1)} s`,
      '',
    ],
    [
      'connect + auth server CPU',
      `${bare.cpuS.toFixed(2)} s`,
      `${app.cpuS.toFixed(2)} s`,
      `${(app.cpuS / bare.cpuS).toFixed(2)}×`,
    ],
    [
      'CPU per socket',
      `${((1e3 * bare.cpuS) / bare.connected).toFixed(3)} ms`,
      `${((1e3 * app.cpuS) / app.connected).toFixed(3)} ms`,
      '',
    ],
    [
      'heap per socket (after GC)',
      kb(bare.heapPerSocket),
      kb(app.heapPerSocket),
      `${(app.heapPerSocket / bare.heapPerSocket).toFixed(2)}×`,
    ],
    [
      'RSS per socket (after GC)',
      kb(bare.rssPerSocket),
      kb(app.rssPerSocket),
      `${(app.rssPerSocket / bare.rssPerSocket).toFixed(2)}×`,
    ],
    ['open-file ceiling', `${bare.nofile}`, `${app.nofile}`, ''],
  ];
  console.log(`\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}`);
  console.log(
    `\nhold ${HOLD_S} s: ${held}/${app.connected} still signed in at the end, ${unexpected} unexpected disconnects ${JSON.stringify(reasons)}; app heap ${(holdMem.mem.heapUsed / 2 ** 20).toFixed(0)} MiB, RSS ${(holdMem.mem.rss / 2 ** 20).toFixed(0)} MiB after it`,
  );
  if (restart)
    console.log(
      `restart: ${(100 * restart.back30).toFixed(2)} % of ${restart.total} back within 30 s of the stop (listening again after ${restart.bootS.toFixed(1)} s; back p50 ${(restart.p50 / 1000).toFixed(1)} s, p99 ${(restart.p99 / 1000).toFixed(1)} s, last ${(restart.max / 1000).toFixed(1)} s)`,
    );
  console.log(
    `load average before ${load0.map((l) => l.toFixed(1)).join(' ')}, after ${load1.map((l) => l.toFixed(1)).join(' ')}`,
  );
  if (PROFILE) {
    for (const [name, phase] of [
      ['bare', bare],
      ['app', app],
    ] as const)
      if (phase.profile)
        console.log(
          `\n${name} connect-and-authenticate profile (${phase.profile}):\n${summarize(phase.profile)}`,
        );
  }
  const ok =
    app.cpuS <= 3 * bare.cpuS &&
    app.heapPerSocket <= 1.5 * bare.heapPerSocket &&
    unexpected === 0 &&
    app.failed === 0 &&
    (!restart || restart.back30 >= 0.99);
  console.log(`\ntargets ${ok ? 'met' : 'NOT met'}`);
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
