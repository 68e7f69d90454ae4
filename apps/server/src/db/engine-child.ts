/**
 * The embedded database's own process: PGlite on `$DATA_DIR/db`, served over the PostgreSQL wire
 * protocol on a Unix socket in a private (0700) directory, so that the server talks to it with the
 * same `pg` driver and code path as to PostgreSQL and none of PGlite's WebAssembly runs on the
 * thread that serves HTTP and sockets (issue 20 target 6; docs/architecture.md "Database").
 *
 * One connection at a time: PGlite is a single session, and the server's pool holds exactly one
 * connection (db/engine.ts), so session state (transactions, advisory locks) is never shared.
 * Messages are framed as in the protocol (docs: https://www.postgresql.org/docs/17/protocol-message-formats.html;
 * the same framing as @electric-sql/pglite-socket src/index.ts `handleData`, which we do not use:
 * its 0.2.17 pins the peer @electric-sql/pglite to 0.5.14 and seven extension packages) and each one
 * goes to PGlite's `execProtocolRawStream`, which answers the startup message and every later one.
 *
 * Protocol with the parent (IPC): → {type:'ready', socketDir, firstBoot, ms} once serving;
 * ← {type:'stop'} closes PGlite cleanly and exits 0. The parent's death (IPC disconnect) does the
 * same. SIGINT is ignored (a Ctrl-C reaches the whole process group; the parent drains first and
 * then stops us); SIGTERM stops like {type:'stop'}.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { DataDirLockedError, ENGINE_LOCK, lockDataDir } from './lock';

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const PROTOCOL_3 = 196608;

const dir = process.env.OPENPUG_ENGINE_DIR;
const snapshot = process.env.OPENPUG_ENGINE_SNAPSHOT;
if (!dir || !process.send) {
  console.error('openpug: engine-child is started by the server (db/engine.ts), not by hand');
  process.exit(2);
}
const send = (m: object) => process.send?.(m);

const t0 = performance.now();
mkdirSync(dir, { recursive: true });
// The engine of a server that was just killed may still be closing PGlite here: wait for it.
let engineLock: ReturnType<typeof lockDataDir> | undefined;
for (const until = Date.now() + 15_000; !engineLock; ) {
  try {
    engineLock = lockDataDir(path.dirname(dir), ENGINE_LOCK);
  } catch (err) {
    if (!(err instanceof DataDirLockedError) || Date.now() > until) {
      console.error(`openpug: ${(err as Error).message}`);
      process.exit(1);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
const firstBoot = !existsSync(path.join(dir, 'PG_VERSION'));
// A first boot starts from the build's migrated snapshot (apps/server/build.mjs) when there is
// one: unpacking it is ~1.5 s where initdb is 5–14 s on this machine. Gunzip here (native) —
// PGlite's own gzip path is ~4× slower.
const loadDataDir =
  firstBoot && snapshot && existsSync(snapshot)
    ? new Blob([gunzipSync(readFileSync(snapshot))], { type: 'application/x-tar' })
    : undefined;
const pglite = new PGlite({ dataDir: dir, loadDataDir });

const socketDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-db-'));
const socketPath = path.join(socketDir, '.s.PGSQL.5432');
let active: Socket | undefined;

/** Feeds one connection's messages to PGlite in order; replies are written as PGlite streams them. */
function serve(socket: Socket): void {
  socket.setNoDelay(true);
  let buffer = Buffer.alloc(0);
  let chain = Promise.resolve();
  let started = false;
  const run = (message: Buffer) => {
    chain = chain.then(() =>
      pglite.runExclusive(() =>
        pglite.execProtocolRawStream(new Uint8Array(message), {
          onRawData: (data) => {
            if (!socket.destroyed) socket.write(Buffer.from(data));
          },
        }),
      ),
    );
    chain = chain.catch((err) => {
      console.error('openpug: embedded database failed a request:', err);
      socket.destroy();
    });
  };
  socket.on('data', (data) => {
    buffer = buffer.length ? Buffer.concat([buffer, data]) : data;
    for (;;) {
      if (!started) {
        // Untyped first messages: Int32 length, Int32 code.
        if (buffer.length < 8) return;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) return;
        const code = buffer.readInt32BE(4);
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) socket.write('N');
        else if (code === CANCEL_REQUEST) socket.destroy();
        else if (code === PROTOCOL_3) {
          started = true;
          run(Buffer.from(message));
        } else socket.destroy();
        continue;
      }
      // Typed messages: Byte1 type, Int32 length (counting itself).
      if (buffer.length < 5) return;
      const length = 1 + buffer.readInt32BE(1);
      if (buffer.length < length) return;
      run(Buffer.from(buffer.subarray(0, length)));
      buffer = buffer.subarray(length);
    }
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    if (active === socket) active = undefined;
    // A client gone inside a transaction must not leave it open for the next one.
    chain = chain
      .then(async () => {
        if (pglite.isInTransaction()) await pglite.exec('ROLLBACK');
      })
      .catch(() => {});
  });
}

const server = createServer((socket) => {
  if (active) {
    // PGlite is one session: a second concurrent client would share its transactions.
    socket.end();
    return;
  }
  active = socket;
  serve(socket);
});

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.close();
  active?.destroy();
  try {
    await pglite.close();
  } catch (err) {
    console.error('openpug: closing the embedded database failed:', err);
    code = 1;
  }
  rmSync(socketDir, { recursive: true, force: true });
  engineLock?.release();
  process.exit(code);
}

process.on('SIGINT', () => {});
process.on('SIGTERM', () => void stop(0));
process.on('disconnect', () => void stop(0));
process.on('message', (m: { type?: string }) => {
  if (m?.type === 'stop') void stop(0);
});

pglite.waitReady.then(
  () => {
    server.listen(socketPath, () =>
      send({ type: 'ready', socketDir, firstBoot, fromSnapshot: !!loadDataDir, ms: performance.now() - t0 }),
    );
  },
  (err) => {
    console.error('openpug: the embedded database did not open:', err);
    rmSync(socketDir, { recursive: true, force: true });
    engineLock?.release();
    process.exit(1);
  },
);
