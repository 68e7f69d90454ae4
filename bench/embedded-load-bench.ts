/**
 * Embedded default under a small community (issue 20 target 6): the built server as `npm start`
 * runs it (`node apps/server/dist/main.js`, embedded PGlite in its own process) with N simulated
 * active players for a given time, and the same server on PostgreSQL as the baseline in the same
 * run. Each player keeps a socket, and in a loop: waits a little, joins the queue, accepts its
 * accept phase (`ready`; the ack's latency is the "ready ack"), plays until an admin cancels the
 * match (the bench's admin, IN_MATCH_MS after the start), and again; meanwhile each player reads the
 * API about every 15 s (profile, leaderboard, queue, a player page, a match list: 300 players ≈
 * 20 reads/s). Errors: any non-2xx or timed-out read, a refused ack, an unexpected disconnect, a
 * failed cancel. CPU of the server and of the engine's process is read from /proc over the run.
 *
 *   node --import tsx bench/embedded-load-bench.ts [--minutes=10] [--players=300]
 *        [--engine=both|embedded|postgres]    (postgres: DATABASE_URL or 127.0.0.1:5432; a scratch
 *                                               database is created and dropped)
 *
 * Targets: API p99 ≤ 100 ms, ready ack p99 ≤ 100 ms, 0 errors. Run after `npm run build`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
const main = path.resolve(import.meta.dirname, '../apps/server/dist/main.js');
const JWT_SECRET = randomBytes(32).toString('hex');
const pgAdminUrl = process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

const pct = (xs: number[], p: number) => {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cpuSeconds = (pid: number) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks of 1/100 s
  } catch {
    return Number.NaN;
  }
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
  return { ...s, env: { DATABASE_URL: scratch.url }, cleanup: scratch.drop };
}

async function runOne(engine: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-load-'));
  const seeded = await prepare(engine, dataDir);
  const port = 3600;
  const base = `http://127.0.0.1:${port}`;
  const server: ChildProcess = spawn(process.execPath, [main], {
    env: {
      ...process.env,
      ...seeded.env,
      DATABASE_URL: seeded.env.DATABASE_URL ?? '',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      JWT_SECRET,
      // One machine plays every player: the per-address limit would count them as one.
      RATE_LIMIT_PER_MIN: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (const until = Date.now() + 120_000; ; ) {
    try {
      if ((await fetch(`${base}/api/health`)).status === 200) break;
    } catch {}
    if (Date.now() > until) throw new Error('server did not become healthy');
    await sleep(100);
  }
  const enginePid =
    engine === 'embedded' ? Number(readFileSync(path.join(dataDir, 'engine.lock'), 'utf8')) : undefined;

  const errors: string[] = [];
  const apiMs: number[] = [];
  const readyMs: number[] = [];
  const joinMs: number[] = [];
  let matches = 0;
  let stopping = false;

  const sockets: Socket[] = [];
  for (let i = 0; i < seeded.players.length; i += 50) {
    sockets.push(
      ...(await Promise.all(
        seeded.players.slice(i, i + 50).map(
          (p) =>
            new Promise<Socket>((resolve, reject) => {
              const s = io(base, {
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

  const cancels = new Map<string, Promise<void>>();
  const cancelAfter = (matchId: string) => {
    let p = cancels.get(matchId);
    if (!p) {
      p = sleep(IN_MATCH_MS).then(async () => {
        const res = await fetch(`${base}/api/admin/matches/${matchId}/cancel`, {
          method: 'POST',
          headers: { authorization: `Bearer ${seeded.adminToken}` },
        }).catch((err) => ({ status: 0, text: async () => String(err) }));
        if (res.status !== 200) errors.push(`cancel ${res.status}: ${await res.text()}`);
        matches++;
      });
      cancels.set(matchId, p);
    }
    return p;
  };

  const get = async (pathname: string, token: string) => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${base}${pathname}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      apiMs.push(performance.now() - t0);
      if (res.status !== 200) errors.push(`GET ${pathname.replace(/[0-9a-f-]{36}/g, ':id')} ${res.status}`);
    } catch (err) {
      apiMs.push(performance.now() - t0);
      errors.push(`GET ${pathname.replace(/[0-9a-f-]{36}/g, ':id')} ${(err as Error).name}`);
    }
  };
  const next = <T>(s: Socket, event: string) =>
    new Promise<T>((resolve) => s.once(event, (payload: T) => resolve(payload)));

  const end = Date.now() + MINUTES * 60_000;
  const t0Cpu = { server: cpuSeconds(server.pid ?? 0), engine: enginePid ? cpuSeconds(enginePid) : 0 };
  const t0 = performance.now();
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
        await get(paths[k % paths.length], p.token);
        await sleep(READ_EVERY_MS * (0.5 + Math.random()));
      }
    })();
    while (Date.now() < end) {
      await sleep(Math.random() * 3_000);
      if (Date.now() >= end) break;
      const phase = next<unknown>(s, 'PRIVATE_QUEUE_READY');
      const tj = performance.now();
      const joined = (await s.emitWithAck('queue-message', { event: 'join' })) as {
        ok: boolean;
        msg?: string;
      };
      joinMs.push(performance.now() - tj);
      if (!joined.ok) {
        errors.push(`join refused: ${joined.msg}`);
        await sleep(5_000);
        continue;
      }
      const ended = await Promise.race([
        phase.then(() => 'phase' as const),
        sleep(Math.max(0, end - Date.now())).then(() => 'end' as const),
      ]);
      if (ended === 'end') break;
      const started = next<{ matchId: string }>(s, 'PRIVATE_MATCH_START');
      const tr = performance.now();
      const ready = (await s.emitWithAck('queue-message', { event: 'ready' })) as {
        ok: boolean;
        msg?: string;
      };
      readyMs.push(performance.now() - tr);
      if (!ready.ok) {
        errors.push(`ready refused: ${ready.msg}`);
        continue;
      }
      const start = await Promise.race([started, sleep(60_000).then(() => null)]);
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
  const cpu = {
    server: (cpuSeconds(server.pid ?? 0) - t0Cpu.server) / seconds,
    engine: enginePid ? (cpuSeconds(enginePid) - t0Cpu.engine) / seconds : 0,
  };
  const rss = { server: rssMiB(server.pid ?? 0), engine: enginePid ? rssMiB(enginePid) : 0 };
  stopping = true;
  for (const s of sockets) s.disconnect();
  server.kill('SIGTERM');
  const code = await new Promise<number | null>((r) => server.once('exit', (c) => r(c)));
  await seeded.cleanup();
  rmSync(dataDir, { recursive: true, force: true });

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
    errors: errors.length,
    cpu,
    rss,
    exit: code,
  };
  console.log(
    `embedded-load: ${engine}, ${PLAYERS} players, ${result.minutes.toFixed(1)} min: ` +
      `API ${result.api.n} reads p50 ${f(result.api.p50)} p99 ${f(result.api.p99)} max ${f(result.api.max)}; ` +
      `ready ack ${result.ready.n} p50 ${f(result.ready.p50)} p99 ${f(result.ready.p99)} max ${f(result.ready.max)}; ` +
      `join ack p99 ${f(result.join.p99)}; ${matches} matches; errors ${errors.length}` +
      `${byKind.size ? ` (${[...byKind].map(([k, n]) => `${n}× ${k}`).join('; ')})` : ''}; ` +
      `CPU server ${(cpu.server * 100).toFixed(0)} %${enginePid ? `, engine process ${(cpu.engine * 100).toFixed(0)} %` : ''}; ` +
      `RSS server ${rss.server.toFixed(0)} MiB${enginePid ? `, engine ${rss.engine.toFixed(0)} MiB` : ''}; exit ${code}`,
  );
  return result;
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
const embedded = results.find((r) => r.engine === 'embedded');
if (embedded) {
  const met = embedded.api.p99 <= 100 && embedded.ready.p99 <= 100 && embedded.errors === 0;
  console.log(
    `embedded-load: target (API p99 ≤ 100 ms, ready ack p99 ≤ 100 ms, 0 errors) ${met ? 'met' : 'NOT met'}`,
  );
  process.exitCode = met ? 0 : 1;
}
