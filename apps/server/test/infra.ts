/**
 * Infrastructure of our own for the tests that restart dependencies and instances underneath a
 * running deployment (dependencies.test.ts, rolling.test.ts): a throw-away PostgreSQL cluster
 * (initdb + pg_ctl into a temp folder), a redis-server child, a TCP proxy that stands for a
 * Synapse we can "stop", and openpug instances run as real processes (src/main.ts through tsx).
 * Never touches the machine's shared PostgreSQL (5432) or Redis (6379).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { hashSeed, isMapOver, mulberry32 } from '../src/modules/gameservers/simulator';

const serverDir = path.resolve(import.meta.dirname, '..');

/** The PostgreSQL binaries (Debian's layout, or on PATH) and redis-server; or why not. */
/**
 * Why a test file of real services cannot run here (a printed SKIPPED line), or null. Printed once,
 * from the PGlite project: the PostgreSQL project skips these files anyway.
 */
export function skipReasonFor(file: string, printed: boolean): string | null {
  const tools = findTools();
  const reason =
    'missing' in tools
      ? `SKIPPED ${file}: ${tools.missing} not installed (apt-get install postgresql redis-server)`
      : null;
  if (reason && printed) console.warn(reason);
  return reason;
}

export function findTools(): { pgBin: string; redisServer: string } | { missing: string } {
  const which = (cmd: string) => {
    try {
      return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim() || null;
    } catch {
      return null;
    }
  };
  let pgBin: string | null = null;
  for (const v of ['17', '16', '15', '14', '13']) {
    const dir = `/usr/lib/postgresql/${v}/bin`;
    if (existsSync(`${dir}/initdb`) && existsSync(`${dir}/pg_ctl`)) {
      pgBin = dir;
      break;
    }
  }
  if (!pgBin) {
    const initdb = which('initdb');
    if (initdb && which('pg_ctl')) pgBin = path.dirname(initdb);
  }
  const redisServer = which('redis-server');
  const missing = [!pgBin && 'initdb/pg_ctl (PostgreSQL server)', !redisServer && 'redis-server'].filter(
    Boolean,
  );
  if (missing.length > 0 || !pgBin || !redisServer) return { missing: missing.join(' and ') };
  if (process.getuid?.() === 0) {
    try {
      execFileSync('id', ['postgres'], { stdio: 'ignore' });
    } catch {
      return { missing: 'a postgres system user (initdb refuses to run as root)' };
    }
  }
  return { pgBin, redisServer };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface OwnPostgres {
  url: string;
  port: number;
  start(): void;
  /** `pg_ctl stop -m fast`: sessions are terminated, new connections refused. */
  stop(): void;
  dispose(): void;
}

/** A cluster of our own in a temp folder (trust auth on 127.0.0.1, fsync off). */
export async function startPostgres(pgBin: string): Promise<OwnPostgres> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openpug-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(dir, 0o755);
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  const run = (bin: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : path.join(pgBin, bin),
      asRoot ? ['-u', 'postgres', '--', path.join(pgBin, bin), ...args] : args,
      { stdio: 'pipe', cwd: dir },
    );
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c synchronous_commit=off`;
  const pg: OwnPostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () =>
      run('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '30', 'start']),
    stop: () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    dispose: () => {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // not running
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  pg.start();
  return pg;
}

export interface OwnRedis {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  dispose(): Promise<void>;
}

/** A redis-server child on a port of our own, without persistence. */
export async function startRedis(redisServer: string): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const r: OwnRedis = {
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(
        redisServer,
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
          '--dir',
          os.tmpdir(),
        ],
        { stdio: 'ignore' },
      );
      for (let i = 0; i < 100; i++) {
        if (await canConnect(port)) return;
        await sleep(50);
      }
      throw new Error('redis-server did not start');
    },
    async stop() {
      const c = child;
      child = null;
      if (!c || c.exitCode !== null) return;
      const gone = new Promise((res) => c.once('exit', res));
      c.kill('SIGKILL');
      await gone;
    },
    dispose: () => r.stop(),
  };
  await r.start();
  return r;
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

/**
 * A TCP proxy to `target` (host:port): `down()` closes its listener and cuts every connection, so
 * whoever uses it sees the service stopped (connection refused); `up()` listens again.
 */
export async function tcpProxy(
  target: URL,
): Promise<{ url: string; down(): Promise<void>; up(): Promise<void> }> {
  const port = await freePort();
  const conns = new Set<net.Socket>();
  let server: net.Server | null = null;
  const up = () =>
    new Promise<void>((resolve) => {
      server = net.createServer((client) => {
        const upstream = net.connect(Number(target.port), target.hostname);
        conns.add(client).add(upstream);
        const end = () => {
          client.destroy();
          upstream.destroy();
          conns.delete(client);
          conns.delete(upstream);
        };
        client.on('error', end).on('close', end);
        upstream.on('error', end).on('close', end);
        client.pipe(upstream).pipe(client);
      });
      server.listen(port, '127.0.0.1', () => resolve());
    });
  const down = () =>
    new Promise<void>((resolve) => {
      const s = server;
      server = null;
      for (const c of conns) c.destroy();
      conns.clear();
      if (!s) return resolve();
      s.close(() => resolve());
    });
  await up();
  return { url: `http://127.0.0.1:${port}`, up, down };
}

export interface Instance {
  port: number;
  url: string;
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
  /** Sends a signal and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** One openpug instance as an operator runs it (src/main.ts), healthy before this returns. */
export async function startInstance(env: Record<string, string>, port?: number): Promise<Instance> {
  const p = port ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      RATE_LIMIT_PER_MIN: '0',
      ...env,
      PORT: String(p),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += d));
  child.stderr?.on('data', (d) => {
    out += d;
    if (process.env.INFRA_DEBUG) process.stderr.write(`[${p}] ${d}`);
  });
  let stopping = false;
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      // An instance that dies on its own is the finding: show why.
      if (!stopping)
        console.error(`instance :${p} exited (${code ?? signal}) on its own:\n${out.slice(-6_000)}`);
      resolve(code);
    }),
  );
  const url = `http://127.0.0.1:${p}`;
  const until = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`instance exited at start:\n${out}`);
    try {
      if ((await fetch(`${url}/api/health`)).status === 200) break;
    } catch {}
    if (Date.now() > until) {
      stopping = true;
      child.kill('SIGKILL');
      throw new Error(`instance did not become healthy:\n${out}`);
    }
    await sleep(100);
  }
  return {
    port: p,
    url,
    child,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Environment shared by the instances of one deployment. */
export function deploymentEnv(pgUrl: string, redisUrl: string, extra: Record<string, string> = {}) {
  return {
    DATABASE_URL: pgUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `openpug-infra-${randomBytes(4).toString('hex')}`,
    DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'openpug-inst-')),
    JWT_SECRET: 'infra-test-secret-that-is-long-enough-for-hs256',
    JOBS_POLL_MS: '200',
    ...extra,
  };
}

/** Status of GET /api/health, or 0 when nothing answers; with the time it took. */
export async function health(url: string, timeoutMs = 2_000): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0 };
  } catch {
    return { status: 0, ms: performance.now() - t0 };
  }
}

/** The score the simulator plays for a match between two teams of equal Elo (round n: draw < 0.5). */
export function expectedSimScore(matchId: string): { teamOne: number; teamTwo: number } {
  const score = { teamOne: 0, teamTwo: 0 };
  for (let round = 1; !isMapOver(score.teamOne, score.teamTwo); round++) {
    if (mulberry32(hashSeed(`${matchId}:${round}`))() < 0.5) score.teamOne++;
    else score.teamTwo++;
  }
  return score;
}
