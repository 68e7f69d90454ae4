/**
 * Source RCON client (Valve's TCP remote-console protocol, spoken by CS2 and CS:GO servers).
 *
 * A packet is `int32 size | int32 id | int32 type | body | NUL | NUL`, little-endian, where size
 * counts everything after itself (so at least 10). The client authenticates with
 * SERVERDATA_AUTH (3) and gets SERVERDATA_AUTH_RESPONSE (2) with its own id, or id -1 for a wrong
 * password (CS:GO sends an empty RESPONSE_VALUE first; CS2 does not). Commands go out as
 * SERVERDATA_EXECCOMMAND (2) and come back as one or more SERVERDATA_RESPONSE_VALUE (0) packets.
 *
 * The protocol does not say where a long, split answer ends, and CS2 neither mirrors the empty
 * RESPONSE_VALUE end marker CS:GO echoed nor answers a command that prints nothing (setting a cvar,
 * most of MatchZy's commands when they succeed). So after each command the client sends
 * `echo <marker>` with the next id: the console runs commands in order, so once the marker's
 * answer arrives, everything that arrived before it with the command's id is the whole answer
 * (possibly nothing). Should a server not answer the marker, a short quiet period after the
 * command's last packet ends the answer; a server that answers neither times out. One command is
 * in flight at a time per connection.
 */
import net from 'node:net';

export const SERVERDATA_AUTH = 3;
export const SERVERDATA_AUTH_RESPONSE = 2;
export const SERVERDATA_EXECCOMMAND = 2;
export const SERVERDATA_RESPONSE_VALUE = 0;

/** Largest packet (size field) a Source server accepts from a client. */
export const MAX_REQUEST_SIZE = 4096;
/** What the end marker command prints; only its packet id matters. */
export const END_MARKER = 'openpug-rcon-end';
/** Guard against garbage on the wire: no real answer packet comes near this. */
const MAX_RESPONSE_SIZE = 1 << 20;
const HEADER = 4 + 4 + 4;

export type RconErrorCode = 'AUTH_FAILED' | 'TIMEOUT' | 'CONNECTION' | 'PROTOCOL';

export class RconError extends Error {
  constructor(
    readonly code: RconErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RconError';
  }
}

export interface RconPacket {
  id: number;
  type: number;
  body: Buffer;
}

export function encodePacket(id: number, type: number, body: string | Buffer = ''): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const size = 4 + 4 + bytes.length + 2;
  if (size > MAX_REQUEST_SIZE) throw new RconError('PROTOCOL', `packet of ${size} bytes is too long`);
  const packet = Buffer.alloc(4 + size); // zero-filled: the two closing NULs are already there
  packet.writeInt32LE(size, 0);
  packet.writeInt32LE(id, 4);
  packet.writeInt32LE(type, 8);
  bytes.copy(packet, HEADER);
  return packet;
}

/** Cuts a TCP byte stream into packets, whatever the chunking. */
export class PacketDecoder {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): RconPacket[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const packets: RconPacket[] = [];
    while (this.buffer.length >= 4) {
      const size = this.buffer.readInt32LE(0);
      if (size < 10 || size > MAX_RESPONSE_SIZE)
        throw new RconError('PROTOCOL', `invalid packet size ${size}`);
      if (this.buffer.length < 4 + size) break;
      packets.push({
        id: this.buffer.readInt32LE(4),
        type: this.buffer.readInt32LE(8),
        // The body runs up to the two closing NULs.
        body: Buffer.from(this.buffer.subarray(HEADER, 4 + size - 2)),
      });
      this.buffer = this.buffer.subarray(4 + size);
    }
    return packets;
  }
}

export interface RconOptions {
  host: string;
  port: number;
  password: string;
  /** Limit for connecting + authenticating, and for each command's answer. */
  timeoutMs?: number;
  /** Without a mirrored end marker, an answer is complete after this long without more packets. */
  quietMs?: number;
}

interface Pending {
  id: number;
  endId: number;
  chunks: Buffer[];
  resolve(text: string): void;
  reject(err: Error): void;
  timer: NodeJS.Timeout;
  quiet?: NodeJS.Timeout;
}

export class RconClient {
  private readonly decoder = new PacketDecoder();
  private nextId = 1;
  private pending: Pending | null = null;
  private auth: { id: number; resolve(): void; reject(err: Error): void } | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private broken: RconError | null = null;
  private readonly timeoutMs: number;
  private readonly quietMs: number;

  private constructor(
    private readonly socket: net.Socket,
    options: RconOptions,
  ) {
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.quietMs = options.quietMs ?? 250;
    socket.on('data', (chunk) => {
      try {
        for (const packet of this.decoder.push(chunk)) this.onPacket(packet);
      } catch (err) {
        this.fail(err instanceof RconError ? err : new RconError('PROTOCOL', String(err)));
      }
    });
    socket.on('error', (err) => this.fail(new RconError('CONNECTION', err.message)));
    socket.on('close', () => this.fail(new RconError('CONNECTION', 'connection closed by the server')));
  }

  /** Connects and authenticates; rejects with AUTH_FAILED, TIMEOUT or CONNECTION. */
  static async connect(options: RconOptions): Promise<RconClient> {
    const timeoutMs = options.timeoutMs ?? 5_000;
    const socket = net.connect({ host: options.host, port: options.port });
    socket.setNoDelay(true);
    const client = new RconClient(socket, options);
    const timer = setTimeout(
      () => client.fail(new RconError('TIMEOUT', `no RCON login within ${timeoutMs} ms`)),
      timeoutMs,
    );
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
        client.auth = { id: -2, resolve: () => {}, reject };
      });
      await new Promise<void>((resolve, reject) => {
        const id = client.takeId();
        client.auth = { id, resolve, reject };
        socket.write(encodePacket(id, SERVERDATA_AUTH, options.password));
      });
      return client;
    } catch (err) {
      client.close();
      throw err instanceof RconError ? err : new RconError('CONNECTION', (err as Error).message);
    } finally {
      clearTimeout(timer);
      client.auth = null;
    }
  }

  /** Runs one console command and resolves with its whole answer (possibly empty). */
  command(command: string): Promise<string> {
    const run = this.queue.then(() => this.send(command));
    this.queue = run.catch(() => {});
    return run;
  }

  close(): void {
    this.fail(new RconError('CONNECTION', 'connection closed'));
  }

  private takeId(): number {
    const id = this.nextId;
    this.nextId = this.nextId >= 0x7ffffff0 ? 1 : this.nextId + 1;
    return id;
  }

  private send(command: string): Promise<string> {
    if (this.broken) return Promise.reject(this.broken);
    const request = encodePacket(0, SERVERDATA_EXECCOMMAND, command); // validates the length first
    return new Promise<string>((resolve, reject) => {
      const id = this.takeId();
      const endId = this.takeId();
      request.writeInt32LE(id, 4);
      const timer = setTimeout(
        () =>
          this.fail(
            new RconError('TIMEOUT', `no answer to "${command.split(' ')[0]}" within ${this.timeoutMs} ms`),
          ),
        this.timeoutMs,
      );
      this.pending = { id, endId, chunks: [], resolve, reject, timer };
      this.socket.write(
        Buffer.concat([request, encodePacket(endId, SERVERDATA_EXECCOMMAND, `echo ${END_MARKER}`)]),
      );
    });
  }

  private onPacket(packet: RconPacket): void {
    if (this.auth) {
      // CS:GO precedes the auth answer with an empty RESPONSE_VALUE; only the AUTH_RESPONSE counts.
      if (packet.type !== SERVERDATA_AUTH_RESPONSE) return;
      const auth = this.auth;
      this.auth = null;
      if (packet.id === auth.id) auth.resolve();
      else auth.reject(new RconError('AUTH_FAILED', 'RCON password refused'));
      return;
    }
    const p = this.pending;
    if (!p) return;
    if (packet.id === p.id && packet.type === SERVERDATA_RESPONSE_VALUE) {
      p.chunks.push(packet.body);
      if (p.quiet) clearTimeout(p.quiet);
      p.quiet = setTimeout(() => this.finish(p), this.quietMs);
    } else if (packet.id === p.endId) {
      // The marker's answer (whole or its first part): the command before it is done.
      this.finish(p);
    }
    // Anything else is a late answer (of a command given up on, or the rest of a marker): ignored.
  }

  private finish(p: Pending): void {
    if (this.pending !== p) return;
    this.pending = null;
    clearTimeout(p.timer);
    if (p.quiet) clearTimeout(p.quiet);
    p.resolve(Buffer.concat(p.chunks).toString('utf8'));
  }

  /** The connection is unusable from here on: every waiting call rejects with `err`. */
  private fail(err: RconError): void {
    if (!this.broken) this.broken = err;
    const p = this.pending;
    this.pending = null;
    if (p) {
      clearTimeout(p.timer);
      if (p.quiet) clearTimeout(p.quiet);
      p.reject(err);
    }
    const auth = this.auth;
    this.auth = null;
    auth?.reject(err);
    this.socket.destroy();
  }
}

/** Opens a connection, runs `fn` with it and always closes it. */
export async function withRcon<T>(options: RconOptions, fn: (rcon: RconClient) => Promise<T>): Promise<T> {
  const rcon = await RconClient.connect(options);
  try {
    return await fn(rcon);
  } finally {
    rcon.close();
  }
}

/** A console argument in double quotes; the console has no escape for quotes or line breaks. */
export function quoteArg(value: string): string {
  if (/["\r\n\0]/.test(value)) throw new RconError('PROTOCOL', 'argument contains a quote or line break');
  return `"${value}"`;
}
