/**
 * The embedded database's own process: PGlite on `$DATA_DIR/db`, served over the PostgreSQL wire
 * protocol on a Unix socket in a private (0700) directory, so that the server talks to it with the
 * same `pg` driver and code path as to PostgreSQL and none of PGlite's WebAssembly runs on the
 * thread that serves HTTP and sockets (issue 20 target 6; docs/architecture.md "Database").
 *
 * PGlite is one session; the server's pool opens several connections (db/engine.ts) and this
 * process runs their requests one at a time: a request is the messages up to a Sync (extended
 * protocol) or a simple Query, never interleaved with another's, and while a connection's
 * transaction is open only its requests run — the serialisation in-process PGlite gave (its
 * transaction mutex). Several connections let requests queue here, so one wake-up of this process
 * runs every request that has arrived instead of one round trip each. Messages are framed as in
 * the protocol (https://www.postgresql.org/docs/17/protocol-message-formats.html; the same
 * framing as @electric-sql/pglite-socket src/index.ts `handleData`, which we do not use: its 0.2.17
 * pins the peer @electric-sql/pglite to 0.5.14 and seven extension packages, and its multiplexer
 * interleaves single messages of different connections outside transactions) and each one goes to
 * PGlite's `execProtocolRawStream`, which answers the startup message and every later one.
 *
 * Protocol with the parent (IPC): → {type:'ready', socketDir, firstBoot, ms} once serving;
 * ← {type:'stop'} closes PGlite cleanly and exits 0. The parent's death (IPC disconnect) does the
 * same. SIGINT is ignored (a Ctrl-C reaches the whole process group; the parent drains first and
 * then stops us); SIGTERM stops like {type:'stop'}.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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
// one, written straight to disk: ~0.3 s where initdb is 5–14 s on this machine and PGlite's own
// `loadDataDir` (through its in-memory file system) ~2 s.
const fromSnapshot = firstBoot && !!snapshot && existsSync(snapshot);
if (fromSnapshot) {
  // Unpacked beside and renamed into place: a crash halfway leaves no half directory to open.
  const partial = `${dir}.partial`;
  rmSync(partial, { recursive: true, force: true });
  untar(gunzipSync(readFileSync(snapshot)), partial);
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
}
const pglite = new PGlite({ dataDir: dir });

/**
 * Writes a ustar archive's directories and regular files under `into` — the format and the only
 * entry types PGlite's `dumpDataDir` writes (POSIX.1-1988 ustar header: name 0–100, size 124–136
 * octal, type 156, prefix 345–500). Names are kept inside `into`.
 */
function untar(tar: Buffer, into: string): void {
  const field = (h: Buffer, from: number, to: number) => h.toString('utf8', from, to).replace(/\0.*$/s, '');
  for (let at = 0; at + 512 <= tar.length; ) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const prefix = field(header, 345, 500);
    const name = (prefix ? `${prefix}/` : '') + field(header, 0, 100);
    const size = Number.parseInt(field(header, 124, 136).trim() || '0', 8);
    const type = String.fromCharCode(header[156] || 0x30);
    const target = path.resolve(into, `./${name}`);
    if (target !== into && !target.startsWith(`${into}${path.sep}`))
      throw new Error(`snapshot entry outside: ${name}`);
    at += 512;
    if (type === '5') mkdirSync(target, { recursive: true });
    else if (type === '0') {
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, tar.subarray(at, at + size));
    } else throw new Error(`snapshot entry of type ${type} not supported: ${name}`);
    at += Math.ceil(size / 512) * 512;
  }
}

const socketDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-db-'));
const socketPath = path.join(socketDir, '.s.PGSQL.5432');

/** One client connection: its complete requests waiting for PGlite. */
interface Conn {
  socket: Socket;
  closed: boolean;
  /** The statements it named (Parse messages): they live in the one session, so go with it. */
  statements: Set<string>;
}
/** A request: the messages up to and including a Sync or a simple Query, run back to back. */
interface Unit {
  conn: Conn;
  messages: Buffer[];
}
const pending: Unit[] = [];
/** The connection whose transaction is open: only its requests run until it ends. */
let owner: Conn | undefined;
let pumping = false;
const conns = new Set<Conn>();

/** Runs waiting requests one after another; a wake-up drains every request that has arrived. */
async function pump(): Promise<void> {
  if (pumping) return;
  pumping = true;
  try {
    for (;;) {
      const i = owner ? pending.findIndex((u) => u.conn === owner) : 0;
      if (i < 0 || pending.length === 0) break;
      const [unit] = pending.splice(i, 1);
      const { conn } = unit;
      for (const message of unit.messages) {
        await pglite.execProtocolRawStream(new Uint8Array(message), {
          onRawData: (data) => {
            if (!conn.socket.destroyed) conn.socket.write(Buffer.from(data));
          },
        });
      }
      owner = pglite.isInTransaction() ? conn : undefined;
      // A client gone inside its transaction must not leave it open for the others.
      if (owner?.closed) {
        await pglite.exec('ROLLBACK');
        owner = undefined;
      }
    }
  } catch (err) {
    console.error('openpug: the embedded database failed a request:', err);
    process.exit(1);
  } finally {
    pumping = false;
  }
}

/** A simple Query message: Byte1 'Q', Int32 length, the text as a C string. */
function simpleQuery(text: string): Buffer {
  const body = Buffer.from(`${text}\0`, 'utf8');
  const message = Buffer.alloc(5 + body.length);
  message[0] = 0x51;
  message.writeInt32BE(4 + body.length, 1);
  body.copy(message, 5);
  return message;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function serve(socket: Socket): void {
  const conn: Conn = { socket, closed: false, statements: new Set() };
  conns.add(conn);
  socket.setNoDelay(true);
  let buffer = Buffer.alloc(0);
  let started = false;
  let unit: Buffer[] = [];
  const submit = (messages: Buffer[]) => {
    pending.push({ conn, messages });
    void pump();
  };
  socket.on('data', (data) => {
    buffer = buffer.length ? Buffer.concat([buffer, data]) : data;
    for (;;) {
      if (!started) {
        // Untyped first messages: Int32 length, Int32 code.
        if (buffer.length < 8) break;
        const length = buffer.readInt32BE(0);
        if (buffer.length < length) break;
        const code = buffer.readInt32BE(4);
        const message = Buffer.from(buffer.subarray(0, length));
        buffer = buffer.subarray(length);
        if (code === SSL_REQUEST || code === GSSENC_REQUEST) socket.write('N');
        else if (code === PROTOCOL_3) {
          started = true;
          submit([message]);
        } else {
          // CancelRequest (pg sends it when a query times out) and anything unknown: not supported;
          // the connection closes and the pool opens another.
          if (code !== CANCEL_REQUEST) process.emitWarning(`embedded engine: unknown start-up code ${code}`);
          socket.destroy();
          return;
        }
        continue;
      }
      // Typed messages: Byte1 type, Int32 length (counting itself).
      if (buffer.length < 5) break;
      const length = 1 + buffer.readInt32BE(1);
      if (buffer.length < length) break;
      const type = buffer[0];
      const message = Buffer.from(buffer.subarray(0, length));
      buffer = buffer.subarray(length);
      if (type === 0x58 /* X: Terminate */) {
        socket.end();
        return;
      }
      if (type === 0x50 /* P: Parse, String statement name first */) {
        const name = message.toString('utf8', 5, message.indexOf(0, 5));
        if (name) conn.statements.add(name);
      }
      unit.push(message);
      if (type === 0x53 /* S: Sync */ || type === 0x51 /* Q: Query */) {
        submit(unit);
        unit = [];
      }
    }
  });
  socket.on('error', () => socket.destroy());
  socket.on('close', () => {
    conn.closed = true;
    conns.delete(conn);
    for (let i = pending.length - 1; i >= 0; i--) if (pending[i].conn === conn) pending.splice(i, 1);
    if (owner === conn && !pumping) {
      owner = undefined;
      void pglite.exec('ROLLBACK').catch(() => {});
    }
    // Its named statements (db/prepared.ts) would outlive it in the one session: deallocated in
    // turn with the other requests, never inside another connection's transaction. Not while
    // stopping: PGlite closes with the session.
    if (conn.statements.size > 0 && !stopping) {
      pending.push({
        conn,
        messages: [...conn.statements].map((name) => simpleQuery(`DEALLOCATE ${quoted(name)}`)),
      });
      void pump();
    }
  });
}

const server = createServer(serve);

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  server.close();
  for (const conn of conns) conn.socket.destroy();
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
      send({ type: 'ready', socketDir, firstBoot, fromSnapshot, ms: performance.now() - t0 }),
    );
  },
  (err) => {
    console.error('openpug: the embedded database did not open:', err);
    rmSync(socketDir, { recursive: true, force: true });
    engineLock?.release();
    process.exit(1);
  },
);
