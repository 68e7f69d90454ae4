/**
 * A community under load (issue 20 targets 6 and 5): the built server as `npm start` runs it
 * (`node apps/server/dist/main.js`, embedded PGlite in its own process) with N simulated active
 * players for a given time, and the same server on PostgreSQL as the baseline in the same run;
 * or (`--engine=pair`) two instances as production runs them, on PostgreSQL, Redis and Synapse
 * (scripts/synapse.sh), each player on one of the two. Each player keeps a socket, and in a loop: waits a little, joins the queue, accepts its
 * accept phase (`ready`; the ack's latency is the "ready ack"), plays until an admin cancels the
 * match (the bench's admin, IN_MATCH_MS after the start), and again; meanwhile each player reads the
 * API about every 15 s (profile, leaderboard, queue, a player page, a match list: 300 players ≈
 * 20 reads/s). Errors: any non-2xx or timed-out read, a refused ack, an unexpected disconnect, a
 * failed cancel. CPU of the server and of the engine's process is read from /proc over the run.
 *
 *   node --import tsx bench/embedded-load-bench.ts [--minutes=10] [--players=300] [--cpu-prof=DIR]
 *        [--engine=both|embedded|postgres|pair]   (postgres, pair: DATABASE_URL or 127.0.0.1:5432,
 *                                                   a scratch database is created and dropped;
 *                                                   pair: REDIS_URL or 127.0.0.1:6379, Synapse)
 *
 * Targets: API p99 ≤ 100 ms, ready ack p99 ≤ 100 ms, 0 errors (target 6: embedded, 300 players;
 * target 5: pair, 2,000 players, also no lost match and memory, open handles and every table's
 * size flat after warm-up: the run reports their slopes over its last two thirds). Run after
 * `npm run build`.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { io, type Socket } from 'socket.io-client';
import { type Database, openPglite, openPostgres } from '../apps/server/src/db/client';
import { users } from '../apps/server/src/db/schema';
import { createTokens } from '../apps/server/src/modules/auth/tokens';
import { createScratchDatabase } from '../apps/server/test/scratch-database';

const flag = (name: string, def: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? def;
const MINUTES = Number(flag('minutes', '10'));
const PLAYERS = Number(flag('players', '300'));
const ENGINES = flag('engine', 'both') === 'both' ? ['embedded', 'postgres'] : [flag('engine', 'both')];
const IN_MATCH_MS = 20_000;
const READ_EVERY_MS = 15_000;
/** With --cpu-prof=DIR each instance writes a V8 CPU profile there on exit (bench/cpu-profile-summary.ts). */
const CPU_PROF_DIR = flag('cpu-prof', '');
const profileArgs = CPU_PROF_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROF_DIR}`] : [];
const main = path.resolve(import.meta.dirname, '../apps/server/dist/main.js');
const JWT_SECRET = randomBytes(32).toString('hex');
const pgAdminUrl = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** utime + stime of a process (and with `reaped`, of the children it waited for), in seconds. */
const cpuSeconds = (pid: number, reaped = false) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // fields 14-17: utime, stime, cutime, cstime, in clock ticks of 1/100 s
    return (Number(f[11]) + Number(f[12]) + (reaped ? Number(f[13]) + Number(f[14]) : 0)) / 100;
  } catch {
    return Number.NaN;
  }
};
const openFds = (pid: number) => {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return Number.NaN;
  }
};
/** Least-squares slope of (minute, value) points: growth per minute. */
const slopePerMinute = (points: [number, number][]) => {
  const n = points.length;
  if (n < 2) return Number.NaN;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const sxy = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const sxx = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
};
const rssMiB = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  } catch {
    return Number.NaN;
  }
};

interface Seeded {
  env: Record<string, string>;
  /** The scratch PostgreSQL database, for the table sizes (not for the embedded engine). */
  databaseUrl?: string;
  players: { id: string; token: string }[];
  adminToken: string;
  cleanup: () => Promise<void>;
}

async function seed(database: Database): Promise<Omit<Seeded, 'env' | 'cleanup'>> {
  await database.migrate();
  const tokens = createTokens(JWT_SECRET);
  const rows = Array.from({ length: PLAYERS }, (_, i) => ({
    id: randomUUID(),
    name: `load-${i}`,
    email: `load-${i}@example.test`,
    teamSpeakId: `load-ts-${i}`,
    elo: 150 + (i % 97),
    verified: true,
  }));
  const admin = {
    id: randomUUID(),
    name: 'load-admin',
    email: 'load-admin@example.test',
    verified: true,
    role: 'ADMIN' as const,
  };
  for (let i = 0; i < rows.length; i += 500) await database.db.insert(users).values(rows.slice(i, i + 500));
  await database.db.insert(users).values(admin);
  await database.close();
  return {
    players: await Promise.all(rows.map(async (r) => ({ id: r.id, token: (await tokens.sign(r.id)).token }))),
    adminToken: (await tokens.sign(admin.id)).token,
  };
}

async function prepare(engine: string, dataDir: string): Promise<Seeded> {
  if (engine === 'embedded') {
    // Seeded in-process before the server starts; the server then opens it in its engine process.
    const s = await seed(openPglite(path.join(dataDir, 'db')));
    return { ...s, env: {}, cleanup: async () => {} };
  }
  const scratch = await createScratchDatabase(pgAdminUrl, 'openpug_load');
  const s = await seed(openPostgres(scratch.url));
  if (engine === 'postgres')
    return { ...s, env: { DATABASE_URL: scratch.url }, databaseUrl: scratch.url, cleanup: scratch.drop };
  // pair: production's shape, as scripts/deploy-local.mjs starts it (without nginx: each simulated
  // player talks to its instance directly, over WebSocket, so no sticky sessions are needed).
  const synapse = spawnSync('bash', [path.resolve(import.meta.dirname, '../scripts/synapse.sh')], {
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (synapse.status !== 0) throw new Error('scripts/synapse.sh failed');
  const exported = Object.fromEntries(
    [...synapse.stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1], m[2].trim()]),
  );
  return {
    ...s,
    env: {
      DATABASE_URL: scratch.url,
      REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
      REDIS_PREFIX: `openpug-load-${randomBytes(4).toString('hex')}`,
      MATRIX_HOMESERVER_URL: exported.SYNAPSE_URL,
      MATRIX_SHARED_SECRET: exported.SYNAPSE_SHARED_SECRET,
      MATRIX_SERVER_NAME: exported.SYNAPSE_SERVER_NAME,
    },
    databaseUrl: scratch.url,
    cleanup: scratch.drop,
  };
}

/**
 * CPU seconds of PostgreSQL: every postgres process's own time and its children's that it waited
 * for (the postmaster's: backends whose pool closed them during the run are counted there).
 */
function postgresCpuSeconds(): number {
  let sum = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres')
        sum += cpuSeconds(Number(pid), true) || 0;
    } catch {}
  }
  return sum;
}

/** Synapse's process (scripts/synapse.sh writes its pid file), for its CPU over the run. */
function synapsePidOf(): number | undefined {
  try {
    const dir = process.env.SYNAPSE_DIR ?? path.resolve(import.meta.dirname, '../.cache/synapse');
    return Number(readFileSync(path.join(dir, 'homeserver.pid'), 'utf8').trim()) || undefined;
  } catch {
    return undefined;
  }
}

/**
 * An instance's own view of the run, from its /metrics (prom-client's default metrics, read over
 * loopback): its event-loop delay since the start (p99 and max) and its garbage collections by
 * kind (count, total seconds, and how many took 100 ms or more), the pauses a latency's tail may
 * come from.
 */
async function serverInside(base: string): Promise<string> {
  try {
    const text = await (await fetch(`${base}/metrics`)).text();
    const value = (name: string, labels = '') =>
      Number(
        new RegExp(`^${name}${labels.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN,
      );
    const gc = ['minor', 'major', 'incremental']
      .map((kind) => {
        const n = value('nodejs_gc_duration_seconds_count', `{kind="${kind}"}`);
        const sum = value('nodejs_gc_duration_seconds_sum', `{kind="${kind}"}`);
        const under = value('nodejs_gc_duration_seconds_bucket', `{le="0.1",kind="${kind}"}`);
        return `${kind} ${n} (${(sum * 1000).toFixed(0)} ms, ${n - under} ≥ 100 ms)`;
      })
      .join(', ');
    const ms = (name: string) => `${(value(name) * 1000).toFixed(0)} ms`;
    return `loop delay p99 ${ms('nodejs_eventloop_lag_p99_seconds')}, max ${ms('nodejs_eventloop_lag_max_seconds')}; GC ${gc}`;
  } catch (err) {
    return `metrics not read (${(err as Error).message})`;
  }
}

async function waitHealthy(base: string) {
  for (const until = Date.now() + 120_000; ; ) {
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) return;
    } catch {}
    if (Date.now() > until) throw new Error(`${base} did not become healthy`);
    await sleep(100);
  }
}

/** Row count of every table of the scratch database (exact: the tables stay small). */
async function tableRows(client: pg.Client): Promise<Map<string, number>> {
  const { rows } = await client.query<{ relname: string }>(
    "SELECT relname FROM pg_stat_user_tables WHERE schemaname = 'public'",
  );
  const counts: [string, number][] = [];
  for (const { relname } of rows) {
    const r = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${relname}"`);
    counts.push([relname, Number(r.rows[0].n)]);
  }
  return new Map(counts);
}

async function runOne(engine: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-load-'));
  const seeded = await prepare(engine, dataDir);
  const bases = (engine === 'pair' ? [3600, 3601] : [3600]).map((port) => `http://127.0.0.1:${port}`);
  const servers: ChildProcess[] = [];
  for (const url of bases) {
    servers.push(
      spawn(process.execPath, [...profileArgs, main], {
        env: {
          ...process.env,
          ...seeded.env,
          DATABASE_URL: seeded.env.DATABASE_URL ?? '',
          DATA_DIR: dataDir,
          PORT: new URL(url).port,
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          JWT_SECRET,
          // One machine plays every player: the per-address limit would count them as one.
          RATE_LIMIT_PER_MIN: '0',
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      }),
    );
    // The first instance migrates; the second starts on the migrated database.
    await waitHealthy(url);
  }
  const enginePid =
    engine === 'embedded' ? Number(readFileSync(path.join(dataDir, 'engine.lock'), 'utf8')) : undefined;
  const tables = seeded.databaseUrl ? new pg.Client({ connectionString: seeded.databaseUrl }) : undefined;
  await tables?.connect();
  /** Every 15 s: minute of the run, RSS and open descriptors of each instance, rows of each table. */
  const samples: { minute: number; rss: number[]; fds: number[]; rows?: Map<string, number> }[] = [];

  const errors: string[] = [];
  // Accept phases that timed out because some of their players got them after the run's end.
  let phasesCutByEnd = 0;
  const apiMs: number[] = [];
  const readyMs: number[] = [];
  const joinMs: number[] = [];
  // When each of those began (performance.now()), to tell the warm-up from the rest of the run.
  const apiAt: number[] = [];
  const readyAt: number[] = [];
  const joinAt: number[] = [];
  let matches = 0;
  let cancelled = 0;
  let stopping = false;

  const sockets: Socket[] = [];
  for (let i = 0; i < seeded.players.length; i += 50) {
    sockets.push(
      ...(await Promise.all(
        seeded.players.slice(i, i + 50).map(
          (p, j) =>
            new Promise<Socket>((resolve, reject) => {
              const s = io(bases[(i + j) % bases.length], {
                path: '/socket',
                transports: ['websocket'],
                forceNew: true,
                reconnection: false,
              });
              s.once('connect_error', reject);
              s.once('authenticated', () => resolve(s));
              s.once('connect', () => s.emit('authenticate', { key: p.token }));
            }),
        ),
      )),
    );
  }
  for (const s of sockets)
    s.on('disconnect', (reason) => {
      if (!stopping) errors.push(`socket disconnected: ${reason}`);
    });
  // Every PUBLIC_QUEUE_UPDATE is one frame to every socket: how many each player got says what
  // the count's fan-out costs the instances.
  let countFrames = 0;
  for (const s of sockets) s.on('PUBLIC_QUEUE_UPDATE', () => countFrames++);

  const cancels = new Map<string, Promise<void>>();
  const cancelAfter = (matchId: string) => {
    let p = cancels.get(matchId);
    if (!p) {
      // The admin's calls take turns over the instances, as plain HTTP does behind the nginx
      // recipe (deploy/nginx/openpug.conf: round-robin). All on the first instance, the second
      // crowd's cancels were that instance's alone (bench/RESULTS.md session 29).
      const at = bases[cancels.size % bases.length];
      p = sleep(IN_MATCH_MS).then(async () => {
        const res = await fetch(`${at}/api/admin/matches/${matchId}/cancel`, {
          method: 'POST',
          headers: { authorization: `Bearer ${seeded.adminToken}` },
        }).catch((err) => ({ status: 0, text: async () => String(err) }));
        if (res.status !== 200) errors.push(`cancel ${res.status}: ${await res.text()}`);
        else cancelled++;
        matches++;
      });
      cancels.set(matchId, p);
    }
    return p;
  };

  // Each read's latency also by route, so a slow one shows which.
  const apiMsByRoute = new Map<string, number[]>();
  const get = async (at: string, pathname: string, token: string) => {
    const route = pathname.replace(/[0-9a-f-]{36}/g, ':id');
    const took = (t0: number) => {
      const ms = performance.now() - t0;
      apiMs.push(ms);
      apiAt.push(t0);
      const ofRoute = apiMsByRoute.get(route) ?? [];
      apiMsByRoute.set(route, ofRoute);
      ofRoute.push(ms);
    };
    const t0 = performance.now();
    try {
      const res = await fetch(`${at}${pathname}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      took(t0);
      if (res.status !== 200) errors.push(`GET ${route} ${res.status}`);
    } catch (err) {
      took(t0);
      errors.push(`GET ${route} ${(err as Error).name}`);
    }
  };
  const next = <T>(s: Socket, event: string) =>
    new Promise<T>((resolve) => s.once(event, (payload: T) => resolve(payload)));

  const end = Date.now() + MINUTES * 60_000;
  const serverCpu = () => servers.reduce((sum, x) => sum + cpuSeconds(x.pid ?? 0), 0);
  // The simulated players share the machine: their own process's CPU and event-loop delay say how
  // much of a latency is the clients' (a late timer or callback here adds to every figure), and
  // Synapse's CPU how much of the cores the chat took.
  const synapsePid = engine === 'pair' ? synapsePidOf() : undefined;
  const clientsCpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  const t0Cpu = {
    server: serverCpu(),
    engine: enginePid ? cpuSeconds(enginePid) : 0,
    clients: clientsCpu(),
    synapse: synapsePid ? cpuSeconds(synapsePid) : 0,
    postgres: engine === 'embedded' ? 0 : postgresCpuSeconds(),
  };
  const clientsLoop = monitorEventLoopDelay({ resolution: 10 });
  clientsLoop.enable();
  const t0 = performance.now();
  // The monotonic clock V8 stamps profiles with: cpu-profile-summary.ts --origin= cuts a window from here.
  if (CPU_PROF_DIR) console.log(`profile origin (monotonic µs): ${process.hrtime.bigint() / 1000n}`);
  const sampling = (async () => {
    while (Date.now() < end) {
      samples.push({
        minute: (performance.now() - t0) / 60_000,
        rss: servers.map((x) => rssMiB(x.pid ?? 0)),
        fds: servers.map((x) => openFds(x.pid ?? 0)),
        rows: tables ? await tableRows(tables) : undefined,
      });
      await sleep(Math.min(15_000, Math.max(0, end - Date.now())));
    }
  })();
  const players = seeded.players.map(async (p, i) => {
    const s = sockets[i];
    const reads = (async () => {
      await sleep(Math.random() * READ_EVERY_MS);
      const paths = [
        '/api/profile',
        '/api/users/ranking',
        '/api/queue',
        `/api/users/${p.id}`,
        `/api/match/user/${p.id}`,
      ];
      for (let k = i; Date.now() < end; k++) {
        await get(bases[i % bases.length], paths[k % paths.length], p.token);
        await sleep(READ_EVERY_MS * (0.5 + Math.random()));
      }
    })();
    while (Date.now() < end) {
      await sleep(Math.random() * 3_000);
      if (Date.now() >= end) break;
      const phase = next<{ deadline: number }>(s, 'PRIVATE_QUEUE_READY');
      const tj = performance.now();
      const joined = (await s.emitWithAck('queue-message', { event: 'join' })) as {
        ok: boolean;
        msg?: string;
      };
      joinMs.push(performance.now() - tj);
      joinAt.push(tj);
      if (!joined.ok) {
        errors.push(`join refused: ${joined.msg}`);
        await sleep(5_000);
        continue;
      }
      const ended = await Promise.race([
        phase,
        sleep(Math.max(0, end - Date.now())).then(() => 'end' as const),
      ]);
      if (ended === 'end') break;
      const started = next<{ matchId: string }>(s, 'PRIVATE_MATCH_START');
      const timedOut = next<unknown>(s, 'PRIVATE_QUEUE_TIMEOUT').then(() => 'timeout' as const);
      const tr = performance.now();
      const ready = (await s.emitWithAck('queue-message', { event: 'ready' })) as {
        ok: boolean;
        msg?: string;
      };
      readyMs.push(performance.now() - tr);
      readyAt.push(tr);
      if (!ready.ok) {
        errors.push(`ready refused: ${ready.msg}`);
        continue;
      }
      const start = await Promise.race([started, timedOut, sleep(60_000).then(() => null)]);
      if (start === 'timeout') {
        // A phase whose deadline is after the run's end may have players who got it after the
        // end and stopped (above): not the server's fault. One that ended before, everyone saw.
        if (ended.deadline <= end) errors.push('accept phase timed out although all ten accepted');
        else phasesCutByEnd++;
        continue;
      }
      if (!start) {
        errors.push('no match start within 60 s of accepting');
        continue;
      }
      await cancelAfter(start.matchId);
    }
    await reads;
  });
  await Promise.all(players);
  const seconds = (performance.now() - t0) / 1000;
  await Promise.all(cancels.values());
  await sampling;
  const cpu = {
    server: (serverCpu() - t0Cpu.server) / seconds,
    engine: enginePid ? (cpuSeconds(enginePid) - t0Cpu.engine) / seconds : 0,
    clients: (clientsCpu() - t0Cpu.clients) / seconds,
    synapse: synapsePid ? (cpuSeconds(synapsePid) - t0Cpu.synapse) / seconds : 0,
    postgres: engine === 'embedded' ? 0 : (postgresCpuSeconds() - t0Cpu.postgres) / seconds,
  };
  clientsLoop.disable();
  const clientsLoopP99 = clientsLoop.percentile(99) / 1e6;
  const rss = {
    server: servers.reduce((sum, x) => sum + rssMiB(x.pid ?? 0), 0),
    engine: enginePid ? rssMiB(enginePid) : 0,
  };
  const inside = await Promise.all(bases.map(serverInside));
  // A lost match: one that started and is neither cancelled (by the bench's admin) nor finished.
  const lost = tables
    ? Number(
        (
          await tables.query<{ n: string }>(
            "SELECT count(*) AS n FROM matches WHERE status NOT IN ('cancelled', 'finished')",
          )
        ).rows[0].n,
      )
    : Number.NaN;
  await tables?.end();
  stopping = true;
  for (const s of sockets) s.disconnect();
  const codes = await Promise.all(
    servers.map((x) => {
      x.kill('SIGTERM');
      return new Promise<number | null>((r) => x.once('exit', (c) => r(c)));
    }),
  );
  const code = codes.join('/');
  await seeded.cleanup();
  rmSync(dataDir, { recursive: true, force: true });

  // Slopes after the warm-up (the run's first third): memory, descriptors and table rows per minute.
  const steady = samples.filter((x) => x.minute >= seconds / 60 / 3);
  const slopes = {
    rssMiB: servers.map((_, k) => slopePerMinute(steady.map((x) => [x.minute, x.rss[k]]))),
    fds: servers.map((_, k) => slopePerMinute(steady.map((x) => [x.minute, x.fds[k]]))),
    rows: [...(steady.at(-1)?.rows?.keys() ?? [])]
      .map(
        (t) =>
          [
            t,
            slopePerMinute(steady.map((x) => [x.minute, x.rows?.get(t) ?? 0])),
            steady.at(-1)?.rows?.get(t) ?? 0,
          ] as const,
      )
      .filter(([, slope]) => slope !== 0)
      .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])),
  };
  const f = (v: number) => `${v.toFixed(1)} ms`;
  const byKind = new Map<string, number>();
  for (const e of errors) byKind.set(e, (byKind.get(e) ?? 0) + 1);
  const result = {
    engine,
    minutes: seconds / 60,
    api: { n: apiMs.length, p50: pct(apiMs, 50), p99: pct(apiMs, 99), max: pct(apiMs, 100) },
    ready: { n: readyMs.length, p50: pct(readyMs, 50), p99: pct(readyMs, 99), max: pct(readyMs, 100) },
    join: { n: joinMs.length, p99: pct(joinMs, 99) },
    matches,
    cancelled,
    lost,
    errors: errors.length,
    cpu,
    rss,
    exit: code,
  };
  console.log(
    `embedded-load: ${engine}, ${PLAYERS} players, ${result.minutes.toFixed(1)} min: ` +
      `API ${result.api.n} reads p50 ${f(result.api.p50)} p99 ${f(result.api.p99)} max ${f(result.api.max)}; ` +
      `ready ack ${result.ready.n} p50 ${f(result.ready.p50)} p99 ${f(result.ready.p99)} max ${f(result.ready.max)}; ` +
      `join ack p99 ${f(result.join.p99)}; ${matches} matches; ` +
      `queue counts ${(countFrames / PLAYERS / result.minutes).toFixed(1)} per player per minute; ` +
      `${phasesCutByEnd ? `${phasesCutByEnd} players in phases cut by the run's end; ` : ''}errors ${errors.length}` +
      `${byKind.size ? ` (${[...byKind].map(([k, n]) => `${n}× ${k}`).join('; ')})` : ''}; ` +
      `CPU server ${(cpu.server * 100).toFixed(0)} %${enginePid ? `, engine process ${(cpu.engine * 100).toFixed(0)} %` : ''}` +
      `${engine === 'embedded' ? '' : `, PostgreSQL ${(cpu.postgres * 100).toFixed(0)} %`}` +
      `${synapsePid ? `, Synapse ${(cpu.synapse * 100).toFixed(0)} %` : ''}, clients ${(cpu.clients * 100).toFixed(0)} % ` +
      `(their event-loop delay p99 ${f(clientsLoopP99)}); ` +
      `RSS server ${rss.server.toFixed(0)} MiB${enginePid ? `, engine ${rss.engine.toFixed(0)} MiB` : ''}; exit ${code}`,
  );
  // Every player joins within the first 3 s (target 4's crowd) and every first match ends 20 s
  // later, when they all queue again: the whole-run p99 includes both crowds, this one neither.
  const warm = t0 + (seconds * 1000) / 3;
  const afterWarmUp = (ms: number[], at: number[]) => ms.filter((_, k) => at[k] >= warm);
  console.log(
    `embedded-load: ${engine}, after warm-up (the last two thirds, not the target's figure): ` +
      `API p99 ${f(pct(afterWarmUp(apiMs, apiAt), 99))}, ready ack p99 ${f(pct(afterWarmUp(readyMs, readyAt), 99))}, ` +
      `join ack p99 ${f(pct(afterWarmUp(joinMs, joinAt), 99))}`,
  );
  console.log(
    `embedded-load: ${engine}, API p99 by route: ${[...apiMsByRoute]
      .map(([route, ms]) => `${route} ${f(pct(ms, 99))}`)
      .join(', ')}`,
  );
  const perMin = (xs: number[], unit: string) =>
    xs.map((x) => `${x >= 0 ? '+' : ''}${x.toFixed(2)} ${unit}/min`).join(' and ');
  for (const [k, line] of inside.entries())
    console.log(`embedded-load: ${engine}, instance ${k + 1}: ${line}`);
  console.log(
    `embedded-load: ${engine}, after warm-up (${steady.length} samples): RSS ${perMin(slopes.rssMiB, 'MiB')}; open descriptors ${perMin(slopes.fds, '')}; ` +
      `${cancelled} of ${matches} matches cancelled as planned, ${Number.isNaN(lost) ? 'lost matches not counted' : `${lost} lost`}; ` +
      `tables growing: ${slopes.rows.length ? slopes.rows.map(([t, slope, last]) => `${t} ${slope >= 0 ? '+' : ''}${slope.toFixed(1)} rows/min (${last} at the end)`).join(', ') : 'none'}`,
  );
  return { ...result, slopes };
}

const results = [];
console.log(
  `embedded-load: load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} (${os.cpus().length} cores)`,
);
for (const engine of ENGINES) results.push(await runOne(engine));
console.log(
  `embedded-load: load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} at the end`,
);
const pair = results.find((r) => r.engine === 'pair');
if (pair) {
  const met =
    pair.api.p99 <= 100 &&
    pair.ready.p99 <= 100 &&
    pair.errors === 0 &&
    pair.lost === 0 &&
    pair.cancelled === pair.matches;
  console.log(
    `embedded-load: pair target (API p99 ≤ 100 ms, ready ack p99 ≤ 100 ms, 0 errors, no lost match; slopes above) ${met ? 'met' : 'NOT met'}`,
  );
  if (!met) process.exitCode = 1;
}
const embedded = results.find((r) => r.engine === 'embedded');
if (embedded) {
  const met = embedded.api.p99 <= 100 && embedded.ready.p99 <= 100 && embedded.errors === 0;
  console.log(
    `embedded-load: target (API p99 ≤ 100 ms, ready ack p99 ≤ 100 ms, 0 errors) ${met ? 'met' : 'NOT met'}`,
  );
  if (!met) process.exitCode = 1;
}
