/**
 * Starts the embedded database's process (db/engine-child.ts) and opens it like PostgreSQL: the
 * `pg` driver over a Unix socket (PGlite is one session: the engine process runs one request at a
 * time and a transaction's alone, as in-process). The server's thread only encodes and decodes the protocol; PGlite's
 * WebAssembly runs in the child (issue 20 target 6, figures in bench/RESULTS.md).
 *
 * Lifecycle: `startEngine` resolves once the child serves (or rejects with its exit); `close()`
 * asks it to stop and waits for its exit; if it dies on its own, `onCrash` is called (main.ts
 * exits the server: queries cannot continue against a lost session, and a supervisor restarts
 * both). The data-directory lock (db/lock.ts) stays with the server process.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './client';

export interface EngineOptions {
  /** PGlite's directory ($DATA_DIR/db). */
  dir: string;
  /** Called once if the child exits without being asked to. */
  onCrash?: (detail: { code: number | null; signal: NodeJS.Signals | null }) => void;
  /** How long to wait for the child to serve. */
  readyTimeoutMs?: number;
}

export interface EngineStart {
  database: Database;
  pid: number;
  firstBoot: boolean;
  fromSnapshot: boolean;
  /** The child's own time from spawn to serving, ms. */
  readyMs: number;
  /** The private directory of its Unix socket (a `pg` host). */
  socketDir: string;
}

const here = path.dirname(fileURLToPath(import.meta.url));

/** The child's entry: dist/engine-child.js next to the bundle, or the source under tsx. */
export function engineChildEntry(): string {
  for (const candidate of [path.join(here, 'engine-child.js'), path.join(here, 'engine-child.ts')])
    if (existsSync(candidate)) return candidate;
  throw new Error(`engine-child not found near ${here}`);
}

/** The migrated first-boot snapshot the build writes (apps/server/build.mjs); absent under tsx. */
export function engineSnapshot(): string | undefined {
  for (const candidate of [path.join(here, 'pgdata.tar.gz'), path.join(here, '../../dist/pgdata.tar.gz')])
    if (existsSync(candidate)) return candidate;
  return undefined;
}

type Ready = { type: 'ready'; socketDir: string; firstBoot: boolean; fromSnapshot: boolean; ms: number };

export async function startEngine(options: EngineOptions): Promise<EngineStart> {
  const entry = engineChildEntry();
  const child: ChildProcess = fork(entry, [], {
    // From source (dev, tests) the child needs tsx like its parent; a test runner's worker does not
    // pass it on.
    execArgv: entry.endsWith('.ts') ? ['--import', 'tsx'] : process.execArgv,
    env: {
      ...process.env,
      OPENPUG_ENGINE_DIR: options.dir,
      OPENPUG_ENGINE_SNAPSHOT: engineSnapshot() ?? '',
    },
    // stdout/stderr go where the server's go; the child writes only on failure.
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'json',
  });
  let stopping = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );

  const ready = await new Promise<Ready>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the embedded database did not start within ${options.readyTimeoutMs ?? 60_000} ms`));
    }, options.readyTimeoutMs ?? 60_000);
    child.on('message', (m: Ready) => {
      if (m?.type !== 'ready') return;
      clearTimeout(timer);
      resolve(m);
    });
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the embedded database exited while starting (code ${code}, signal ${signal})`));
    });
  });

  void exited.then((detail) => {
    if (!stopping) options.onCrash?.(detail);
  });

  // Loaded here, not at the top: the launcher (main.ts) spawns the child before the driver and the
  // rest of the server load, so both start together.
  const { openPool } = await import('./client');
  const database = openPool(
    {
      host: ready.socketDir,
      user: 'postgres',
      database: 'postgres',
      // Requests queue in the engine process, which runs them one at a time (engine-child.ts).
      max: 10,
    },
    'pglite',
  );
  const closePool = database.close;
  database.close = async () => {
    await closePool().catch(() => {});
    if (child.exitCode !== null || child.signalCode !== null) return;
    stopping = true;
    child.send({ type: 'stop' });
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(kill);
  };
  return {
    database,
    pid: child.pid ?? 0,
    firstBoot: ready.firstBoot,
    fromSnapshot: ready.fromSnapshot,
    readyMs: ready.ms,
    socketDir: ready.socketDir,
  };
}
