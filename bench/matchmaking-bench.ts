/**
 * Matchmaking all at once (issue 20, target 4): 1,000 players, already signed up (voice linked;
 * their chat accounts are made when first needed, or with --chat-accounts=signup in the set-up as
 * `user.created` does, which takes minutes of argon2 on PGlite), connect and authenticate over real
 * Socket.IO websockets; then all send `join` within one second and accept their accept phase the
 * moment it opens. Reported from the first join: when the 1st, 10th and 100th match started (the
 * last of its ten PRIVATE_MATCH_START), the 10th join → last PRIVATE_QUEUE_READY of each phase
 * (p50 / p99 / max), and the SQL statements per match — counted at the driver (every query the
 * pg client or PGlite runs, BEGIN/COMMIT included), once up to the last match start and once
 * until the server is quiet again (the chat rooms and whatever else runs after the start).
 *
 * The same clients first run against a baseline in the same process: a bare Socket.IO server
 * with an in-memory queue (same events, same acks, no database), so the figures can be read
 * against what this machine does with the sockets alone at that moment.
 *
 *   node --import tsx bench/matchmaking-bench.ts            the embedded default (PGlite in its own
 *                                                           process, as `npm start`), and PostgreSQL
 *                                                           too when DATABASE_URL is set (a scratch
 *                                                           database is created and dropped)
 *   options: --clients=1000 --spread=1000 (ms over which the joins are sent) --limit=120 (s)
 *            --engine=embedded,pglite,postgres (any of them; pglite = in the server's thread)
 *            --chat-accounts=signup
 *            --rounds=2 (bursts of new players one after another on one server: a cold one first)
 *            --cpu-prof=DIR (the server's thread, first join → players' last event, one
 *            .cpuprofile per engine and round in DIR, summarised by bench/cpu-profile-summary.ts)
 *
 * Target: the 100th match within 2 s of the first join and p99 < 50 ms, on each engine, in every round.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import { Server } from 'socket.io';
import { type Database, openPglite, openPostgres } from '../apps/server/src/db/client';
import { startEngine } from '../apps/server/src/db/engine';
import { provisionUser } from '../apps/server/src/modules/chat/service';
import { createScratchDatabase } from '../apps/server/test/scratch-database';
import { insertBenchPlayers, runBench, startBenchApp } from './lib';

const opt = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const CLIENTS = Number(opt('clients') ?? 1000);
const SPREAD_MS = Number(opt('spread') ?? 1000);
const LIMIT_MS = Number(opt('limit') ?? 120) * 1000;
const CHAT_ACCOUNTS = opt('chat-accounts') === 'signup';
// --rounds=N: N bursts of new players one after another on the same server (the baseline too); the
// first meets a server that has just started (V8 still compiling its code), the later ones a server
// that has served, as on a community's night. The target must be met in every round.
const ROUNDS = Number(opt('rounds') ?? 2);
const GROUPS = Math.floor(CLIENTS / 10);
const PG_URL = process.env.DATABASE_URL;
// `embedded` is what `npm start` runs (PGlite in its own process behind the PostgreSQL wire
// protocol, db/engine.ts); `pglite` is PGlite on the server's thread, as before issue 20 target 6.
type Engine = 'embedded' | 'pglite' | 'postgres';
const engines = (
  opt('engine') ? opt('engine')?.split(',') : ['embedded', ...(PG_URL ? ['postgres'] : [])]
) as Engine[];

const hardStop = setTimeout(
  () => {
    console.error('matchmaking-bench: hard time limit reached');
    process.exit(2);
  },
  engines.length * (LIMIT_MS + 600_000),
);
hardStop.unref();

// ---- SQL statement counting at the driver ---------------------------------------------------------

const counter = { statements: 0, transactions: 0, locks: 0 };
// --sql-top=N: the N most frequent statements (by their first 90 characters) from the first join
// until the last match start, and until the server is quiet.
const SQL_TOP = Number(opt('sql-top') ?? 0);
const CPU_PROF_DIR = opt('cpu-prof');
if (CPU_PROF_DIR) mkdirSync(CPU_PROF_DIR, { recursive: true });
const shapes = new Map<string, number>();
let countShapes = false;
const countSql = (text: unknown) => {
  counter.statements++;
  const s = typeof text === 'string' ? text : ((text as { text?: string })?.text ?? '');
  if (SQL_TOP && countShapes) {
    const shape = s.replace(/\s+/g, ' ').slice(0, 90);
    shapes.set(shape, (shapes.get(shape) ?? 0) + 1);
  }
  if (/^\s*begin/i.test(s)) counter.transactions++;
  if (s.includes('pg_advisory_xact_lock') || /for update/i.test(s)) counter.locks++;
};
// Every pool client is a pg.Client; drizzle runs BEGIN/COMMIT through the same query().
const pgQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  countSql(args[0]);
  return (pgQuery as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pgQuery;

type Runner = { query: (...a: unknown[]) => unknown; exec: (...a: unknown[]) => unknown };
function countPglite(client: Runner & { transaction: (fn: (tx: Runner) => unknown) => unknown }) {
  const wrap = (r: Runner) => {
    const { query, exec } = r;
    r.query = (...a) => {
      countSql(a[0]);
      return query.apply(r, a);
    };
    r.exec = (...a) => {
      countSql(a[0]);
      return exec.apply(r, a);
    };
  };
  wrap(client);
  const transaction = client.transaction;
  client.transaction = (fn) =>
    transaction.call(client, (tx: Runner) => {
      countSql('BEGIN');
      counter.statements++; // its COMMIT or ROLLBACK
      wrap(tx);
      return fn(tx);
    });
}

// ---- where the machine's two cores went -------------------------------------------------------

/**
 * CPU time (ms) by who used it, from /proc (Linux): this process's threads by name (MainThread is
 * the server, WorkerThread the simulated players, V8Worker the garbage collector's and compiler's
 * helpers, libuv-worker the thread pool) and every other process by its command (postgres, the
 * embedded engine's node). The players share the machine with the server here; on a real night
 * they are elsewhere.
 */
function cpuByOwner(): Map<string, number> {
  const tick = 10; // ms per clock tick (USER_HZ is 100 on Linux)
  const out = new Map<string, number>();
  const add = (statFile: string, owner: (comm: string) => string) => {
    try {
      const stat = readFileSync(statFile, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const fields = stat.slice(close + 2).split(' ');
      const key = owner(comm);
      out.set(key, (out.get(key) ?? 0) + (Number(fields[11]) + Number(fields[12])) * tick);
    } catch {
      // gone meanwhile
    }
  };
  for (const tid of readdirSync('/proc/self/task')) add(`/proc/self/task/${tid}/stat`, (c) => `bench: ${c}`);
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid))
    add(`/proc/${pid}/stat`, (c) => c);
  return out;
}

function cpuSince(before: Map<string, number>): string {
  const now = cpuByOwner();
  return [...now]
    .map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const)
    .filter(([, v]) => v >= 20)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k} ${v} ms`)
    .join(', ');
}

// ---- the server thread's garbage collections ----------------------------------------------------

/** Pauses of this thread (the server's) for garbage collection while `gcWatched` (the burst). */
const gcPauses: { major: boolean; ms: number }[] = [];
let gcWatched = false;
new PerformanceObserver((list) => {
  if (!gcWatched) return;
  for (const entry of list.getEntries()) {
    const kind = (entry.detail as { kind?: number } | undefined)?.kind;
    gcPauses.push({ major: kind === constants.NODE_PERFORMANCE_GC_MAJOR, ms: entry.duration });
  }
}).observe({ entryTypes: ['gc'] });

function gcReport(): string {
  const major = gcPauses.filter((g) => g.major).length;
  const total = gcPauses.reduce((n, g) => n + g.ms, 0);
  const longest = Math.max(0, ...gcPauses.map((g) => g.ms));
  return `${gcPauses.length} garbage collections (${major} major), ${total.toFixed(0)} ms in all, the longest ${longest.toFixed(1)} ms`;
}

// ---- helpers ------------------------------------------------------------------------------------

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : NaN;
const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '—' : `${v.toFixed(0)} ms`);

interface Done {
  joinSent: Record<string, number>;
  phases: { players: string[]; lastReady: number; arrived: number }[];
  matches: { matchId: string; players: number; lastStart: number }[];
  errors: string[];
  elapsed: number;
  /** Frames the players received (not counting acks), by event. */
  received: Record<string, number>;
}

/** Runs the players; `close()` disconnects them (after the server has gone quiet). */
function runClients(url: string, people: { id: string; key: string }[], onBegin: () => void) {
  const worker = new Worker(new URL('./matchmaking-clients.mjs', import.meta.url), {
    workerData: { url, users: people, spreadMs: SPREAD_MS, limitMs: LIMIT_MS },
  });
  const close = () =>
    new Promise<void>((resolve) => {
      worker.on('message', (m: { type: string }) => {
        if (m.type === 'closed') void worker.terminate().then(() => resolve());
      });
      worker.postMessage('close');
    });
  return new Promise<Done & { close: () => Promise<void> }>((resolve, reject) => {
    worker.on('message', (m: { type: string } & Done) => {
      if (m.type === 'begin') onBegin();
      else if (m.type === 'done') resolve({ ...m, close });
    });
    worker.once('error', reject);
  });
}

interface Figures {
  first?: number;
  tenth?: number;
  hundredth?: number;
  matches: number;
  p50: number;
  p99: number;
  max: number;
  errors: string[];
  received: Record<string, number>;
}

function figures(done: Done): Figures {
  const starts = done.matches
    .filter((m) => m.players === 10)
    .map((m) => m.lastStart)
    .sort((a, b) => a - b);
  const waits = done.phases
    .filter((p) => p.arrived === 10)
    .map((p) => p.lastReady - Math.max(...p.players.map((id) => done.joinSent[id] ?? 0)))
    .sort((a, b) => a - b);
  return {
    first: starts[0],
    tenth: starts[9],
    hundredth: starts[GROUPS - 1],
    matches: starts.length,
    p50: pct(waits, 50),
    p99: pct(waits, 99),
    max: waits[waits.length - 1],
    errors: done.errors,
    received: done.received,
  };
}

function report(label: string, f: Figures) {
  const frames = Object.entries(f.received).sort((a, b) => b[1] - a[1]);
  const players = GROUPS * 10;
  console.log(
    `matchmaking-bench: ${label}: ${f.matches}/${GROUPS} matches; match start after the first join: ` +
      `1st ${ms(f.first)}, 10th ${ms(f.tenth)}, ${GROUPS}th ${ms(f.hundredth)}; ` +
      `10th join → last PRIVATE_QUEUE_READY p50 ${ms(f.p50)}, p99 ${ms(f.p99)}, max ${ms(f.max)}` +
      (f.errors.length ? `; ${f.errors.length} refused acks (first: ${f.errors[0]})` : ''),
  );
  console.log(
    `matchmaking-bench: ${label}: events a player received besides its two acks: ` +
      `${(frames.reduce((n, [, c]) => n + c, 0) / players).toFixed(1)} (` +
      frames.map(([name, c]) => `${name} ${(c / players).toFixed(1)}`).join(', ') +
      ')',
  );
}

// ---- the baseline: a bare Socket.IO server with an in-memory queue ------------------------------

async function baseline(): Promise<Figures> {
  const http = createServer();
  const io = new Server(http, { path: '/socket', serveClient: false });
  const queue: string[] = [];
  const phaseOf = new Map<string, { players: string[]; accepted: Set<string> }>();
  io.on('connection', (socket) => {
    socket.on('authenticate', ({ key }: { key: string }) => {
      socket.data.userId = key;
      void socket.join(`user:${key}`);
      socket.emit('authenticated', { userId: key });
    });
    socket.on('queue-message', ({ event }: { event: string }, ack: (a: unknown) => void) => {
      const userId = socket.data.userId as string;
      if (event === 'join') {
        queue.push(userId);
        while (queue.length >= 10) {
          const players = queue.splice(0, 10);
          const phase = { players, accepted: new Set<string>() };
          const payload = { players: players.map((id) => ({ userId: id, accepted: false })), deadline: 0 };
          for (const id of players) {
            phaseOf.set(id, phase);
            io.to(`user:${id}`).emit('PRIVATE_QUEUE_READY', payload);
          }
        }
        return ack({ ok: true, data: { inQueue: true, count: queue.length } });
      }
      const phase = phaseOf.get(userId);
      if (event !== 'ready' || !phase) return ack({ ok: false, msg: 'NO_ACCEPT_PHASE' });
      phase.accepted.add(userId);
      const players = phase.players.map((id) => ({ userId: id, accepted: phase.accepted.has(id) }));
      for (const id of phase.players) io.to(`user:${id}`).emit('PRIVATE_QUEUE_READY_UPDATE', { players });
      if (phase.accepted.size === 10) {
        const matchId = randomUUID();
        for (const id of phase.players) {
          phaseOf.delete(id);
          io.to(`user:${id}`).emit('PRIVATE_MATCH_START', { matchId });
        }
      }
      ack({ ok: true, data: { inQueue: true, count: queue.length } });
    });
  });
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  // As many rounds as the real server gets, each with new players; the last one is reported.
  let last: Figures | null = null;
  for (let round = 1; round <= ROUNDS; round++) {
    const people = Array.from({ length: GROUPS * 10 }, () => {
      const id = randomUUID();
      return { id, key: id };
    });
    let loopAtBegin = performance.eventLoopUtilization();
    let cpuAtBegin = cpuByOwner();
    const done = await runClients(url, people, () => {
      loopAtBegin = performance.eventLoopUtilization();
      cpuAtBegin = cpuByOwner();
    });
    const loopBusy = performance.eventLoopUtilization(loopAtBegin).utilization;
    const cpu = cpuSince(cpuAtBegin);
    await done.close();
    console.log(
      `matchmaking-bench: baseline${ROUNDS === 1 ? '' : `, round ${round}`}: its event loop was busy ${(loopBusy * 100).toFixed(0)} % of the burst; CPU in the burst: ${cpu}`,
    );
    last = figures(done);
  }
  await io.close();
  return last as Figures;
}

// ---- the real server ----------------------------------------------------------------------------

async function openDatabase(kind: Engine) {
  if (kind === 'embedded') {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'openpug-bench-mm-'));
    const engine = await startEngine({ dir: path.join(dir, 'db') });
    await engine.database.migrate();
    return {
      database: engine.database,
      label: 'embedded (PGlite in its own process)',
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  if (kind === 'pglite') {
    const database = openPglite();
    await database.migrate();
    countPglite((database as unknown as { pglite: Parameters<typeof countPglite>[0] }).pglite);
    return { database, drop: async () => {}, label: 'PGlite (in memory)' };
  }
  const scratch = await createScratchDatabase(PG_URL as string, 'openpug_bench_mm');
  const database: Database = openPostgres(scratch.url);
  await database.migrate();
  return { database, label: 'PostgreSQL', drop: scratch.drop };
}

/** Waits until no statement has run for `quietMs` (the work after the match starts is over). */
async function quiet(quietMs = 1500, maxMs = 60_000) {
  const start = Date.now();
  let last = counter.statements;
  let since = Date.now();
  while (Date.now() - start < maxMs) {
    await new Promise((r) => setTimeout(r, 100));
    if (counter.statements !== last) {
      last = counter.statements;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) return true;
  }
  return false;
}

async function engine(kind: Engine): Promise<boolean> {
  const { database, drop, label } = await openDatabase(kind);
  const served = await startBenchApp(database, {
    DATA_DIR: '/tmp/openpug-bench-mm',
    ACCEPT_TIMEOUT_MS: '600000',
    PICK_TIMEOUT_MS: '600000',
  });
  let met = true;
  for (let round = 1; round <= ROUNDS; round++) {
    const name = ROUNDS === 1 ? label : `${label}, round ${round} (${round === 1 ? 'cold' : 'warm'})`;
    const f = await burst(
      served,
      database,
      name,
      (round - 1) * GROUPS * 10,
      `${kind}${ROUNDS === 1 ? '' : `-${round}`}`,
    );
    met &&= f.matches === GROUPS && (f.hundredth ?? Infinity) <= 2000 && f.p99 < 50;
  }
  await served.app.close();
  await database.close();
  await drop();
  return met;
}

/**
 * One burst of GROUPS × 10 new players (their rows numbered from `from`) on a running server;
 * with --cpu-prof its profile is `profileName`.cpuprofile.
 */
async function burst(
  { app, url, tokens }: Awaited<ReturnType<typeof startBenchApp>>,
  database: Database,
  label: string,
  from: number,
  profileName: string,
): Promise<Figures> {
  const ctx = app.ctx;
  const rows = await insertBenchPlayers(database, GROUPS * 10, from);
  if (CHAT_ACCOUNTS) {
    // What sign-up does on `user.created` (and every login again): each player has a chat account.
    const t0 = Date.now();
    for (let i = 0; i < rows.length; i += 20)
      await Promise.all(rows.slice(i, i + 20).map((r) => provisionUser(ctx, r.id)));
    console.log(
      `matchmaking-bench: ${label}: ${rows.length} chat accounts made in ${Date.now() - t0} ms (set-up)`,
    );
  }
  const people = await Promise.all(
    rows.map(async (r) => ({ id: r.id, key: (await tokens.sign(r.id)).token })),
  );

  let atBegin = { ...counter };
  let atLast: typeof counter | null = null;
  let shapesAtLast = new Map<string, number>();
  let matched = 0;
  ctx.bus.on('queue.matched', () => {
    if (++matched !== GROUPS) return;
    atLast = { ...counter };
    shapesAtLast = new Map(shapes);
  });
  shapes.clear();
  // How busy the server's thread was from the first join to the players' last event.
  let loopAtBegin = performance.eventLoopUtilization();
  // How long the server's thread kept callbacks waiting (a statement's answer, a socket's event).
  const loopDelay = monitorEventLoopDelay({ resolution: 1 });
  let cpuAtBegin = cpuByOwner();
  const profiler = CPU_PROF_DIR ? new Session() : null;
  profiler?.connect();
  await profiler?.post('Profiler.enable');
  await profiler?.post('Profiler.setSamplingInterval', { interval: 200 });
  const done = await runClients(url, people, () => {
    atBegin = { ...counter };
    countShapes = true;
    loopAtBegin = performance.eventLoopUtilization();
    loopDelay.enable();
    gcPauses.length = 0;
    gcWatched = true;
    cpuAtBegin = cpuByOwner();
    void profiler?.post('Profiler.start');
  });
  const loopBusy = performance.eventLoopUtilization(loopAtBegin).utilization;
  loopDelay.disable();
  gcWatched = false;
  const cpu = cpuSince(cpuAtBegin);
  if (profiler && CPU_PROF_DIR) {
    const { profile } = await profiler.post('Profiler.stop');
    const file = path.join(CPU_PROF_DIR, `${profileName}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    profiler.disconnect();
    console.log(`matchmaking-bench: ${label}: the server thread's profile of the burst: ${file}`);
  }
  const f = figures(done);
  const settled = await quiet();
  const atEnd = { ...counter };
  countShapes = false;
  await done.close();
  const top = (counts: Map<string, number>, until: string) => {
    for (const [shape, n] of [...counts].sort((a, b) => b[1] - a[1]).slice(0, SQL_TOP))
      console.log(`matchmaking-bench: ${label}: until ${until}: ${String(n).padStart(6)} × ${shape}`);
  };
  top(shapesAtLast, 'the last match start');
  top(shapes, 'quiet');
  report(label, f);
  console.log(
    `matchmaking-bench: ${label}: the server's event loop was busy ${(loopBusy * 100).toFixed(0)} % of the burst; ` +
      `its delay p50 ${(loopDelay.percentile(50) / 1e6).toFixed(1)} ms, p99 ${(loopDelay.percentile(99) / 1e6).toFixed(1)} ms, ` +
      `max ${(loopDelay.max / 1e6).toFixed(1)} ms; ${gcReport()}; CPU in the burst: ${cpu}`,
  );
  const per = (a: typeof counter | null, key: keyof typeof counter) =>
    a
      ? `${a[key] - atBegin[key]} (${((a[key] - atBegin[key]) / Math.max(1, f.matches)).toFixed(0)} a match)`
      : '—';
  console.log(
    `matchmaking-bench: ${label}: SQL, first join → last match start: ${per(atLast, 'statements')} statements, ` +
      `${per(atLast, 'transactions')} transactions, ${per(atLast, 'locks')} lock statements; ` +
      `until quiet${settled ? '' : ' (not quiet after 60 s)'}: ${per(atEnd, 'statements')} statements, ` +
      `${per(atEnd, 'transactions')} transactions, ${per(atEnd, 'locks')} lock statements`,
  );
  return f;
}

async function main() {
  console.log(
    `matchmaking-bench: ${GROUPS * 10} players join within ${SPREAD_MS} ms and accept at once; ` +
      `load average ${(await import('node:os'))
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
  );
  report('baseline (bare Socket.IO, in-memory queue)', await baseline());
  let ok = true;
  for (const kind of engines) {
    const met = await engine(kind);
    console.log(
      `matchmaking-bench: ${kind}: target (${GROUPS}th match ≤ 2 s, p99 < 50 ms) ${met ? 'met' : 'NOT met'}`,
    );
    ok &&= met;
  }
  return ok;
}

runBench(main);
