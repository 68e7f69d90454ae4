/**
 * TeamSpeak 3/5/6 ServerQuery client, over raw TCP (TS3, port 10011) or SSH (TS3 ≥ 3.3 and TS6,
 * port 10022) — see ./transport.ts. One client, the same text protocol on both:
 *
 * - On connect the server greets with a `TS3` line and a `Welcome to the TeamSpeak [3] ServerQuery
 *   interface…` line (lines end in "\n\r"). Over SSH some servers send a status record and an
 *   `error id=0 msg=ok` after it, so over SSH we wait for a short silence before the first command.
 * - One command at a time: `name key=value key=value -flag\n`. The answer is zero or more data
 *   lines (records separated by `|`, properties by spaces) and always ends with
 *   `error id=<n> msg=<text>`; id 0 is success, 1281 ("database empty result set") an empty list.
 * - Unsolicited `notify…` lines (after `servernotifyregister event=server`) carry events such as
 *   `notifycliententerview` and `notifyclientleftview`; they can arrive between any lines and are
 *   never followed by an `error` line.
 * - Values are escaped: \\ \/ \s (space) \p (|) \a \b \f \n \r \t \v.
 * - Idle connections are dropped after ~5 minutes, so a keepalive command is sent regularly.
 * - Flood protection: by default no more than 10 commands within 3 seconds from one address that
 *   is not on the allow list (query_ip_allowlist.txt); beyond that the server answers
 *   `error id=524 msg=client\sis\sflooding extra_msg=please\swait\s<n>\sseconds` and refuses
 *   that address for those seconds.
 *
 * What this client adds: every command passes one `QueryLimiter` (shared by all connections of a
 * voice server, as the server counts per address) that keeps under the flood limit and waits out a
 * 524; every command has a time-out after which the connection is reset (the command and
 * everything queued behind it fail with a clear error instead of waiting forever).
 *
 * `TeamSpeakVoiceServer` builds the VoiceServer interface on it: login (raw only; the SSH login
 * replaces it), use sid, register for server events, track connected clients (clid → unique
 * identifier, from notifications and a `clientlist` read at most every 2 s) and reconnect.
 */
import { EventEmitter } from 'node:events';
import { HostKeyMismatchError, type QueryTransport, RawTcpTransport, SshTransport } from './transport';
import {
  PresenceEmitter,
  type VoiceChannel,
  VoiceChannelMissingError,
  VoiceChannelNameInUseError,
  type VoiceClientPlace,
  type VoiceIdentity,
  VoiceIdentityNotConnectedError,
  type VoiceServer,
  VoiceServerUnavailableError,
} from './types';

const ESCAPES: Array<[string, string]> = [
  ['\\', '\\\\'],
  ['/', '\\/'],
  [' ', '\\s'],
  ['|', '\\p'],
  ['\x07', '\\a'],
  ['\b', '\\b'],
  ['\f', '\\f'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
  ['\v', '\\v'],
];
const UNESCAPES = new Map(ESCAPES.map(([raw, esc]) => [esc[1], raw]));

export function tsEscape(value: string): string {
  let out = '';
  for (const ch of value) {
    const hit = ESCAPES.find(([raw]) => raw === ch);
    out += hit ? hit[1] : ch;
  }
  return out;
}

export function tsUnescape(value: string): string {
  return value.replace(/\\(.)/g, (m, c: string) => UNESCAPES.get(c) ?? m);
}

export type QueryRecord = Record<string, string>;

/** `a=1 b=x|a=2 b=y` → [{a:'1',b:'x'},{a:'2',b:'y'}]; a bare key has the value ''. */
export function parseRecords(line: string): QueryRecord[] {
  return line.split('|').map((part) => {
    const record: QueryRecord = {};
    for (const token of part.split(' ')) {
      if (!token) continue;
      const eq = token.indexOf('=');
      if (eq === -1) record[token] = '';
      else record[token.slice(0, eq)] = tsUnescape(token.slice(eq + 1));
    }
    return record;
  });
}

export type QueryParams = Record<string, string | number | readonly (string | number)[] | undefined>;

/**
 * `name k=v … -flag`; an array value repeats its key as records joined by `|` (ServerQuery manual, "Command
 * Syntax", e.g. `clientmove cid=3 clid=5|clid=6`).
 */
export function formatCommand(name: string, params: QueryParams = {}, flags: string[] = []): string {
  const parts = [name];
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    const values = Array.isArray(v) ? v : [v];
    parts.push(values.map((one) => `${k}=${tsEscape(String(one))}`).join('|'));
  }
  for (const f of flags) parts.push(`-${f}`);
  return parts.join(' ');
}

export class ServerQueryError extends Error {
  constructor(
    readonly id: number,
    readonly serverMessage: string,
    readonly extraMessage = '',
  ) {
    super(`ServerQuery error ${id}: ${serverMessage}${extraMessage ? ` (${extraMessage})` : ''}`);
  }
}

/** The server did not finish answering a command in time; the connection was reset. */
export class ServerQueryTimeoutError extends Error {
  constructor(
    readonly command: string,
    readonly timeoutMs: number,
  ) {
    super(`ServerQuery command "${command}" got no answer within ${timeoutMs} ms; connection reset`);
  }
}

/** The server flood-banned this address (error 524) for longer than a caller should wait. */
export class ServerQueryFloodError extends Error {
  constructor(readonly retryInMs: number) {
    super(`ServerQuery flood protection: nothing is sent for another ${Math.ceil(retryInMs / 1000)} s`);
  }
}

export class ServerQueryClosedError extends Error {
  constructor(reason = 'ServerQuery connection closed') {
    super(reason);
  }
}

/** Error 524 "client is flooding": the seconds from `extra_msg=please\swait\s<n>\sseconds`. */
export function floodWaitSeconds(error: { serverMessage: string; extraMessage: string }): number {
  const m = /(\d+)\s*second/i.exec(`${error.extraMessage} ${error.serverMessage}`);
  return m ? Number(m[1]) : 3;
}

export const FLOOD_ERROR_ID = 524;

/**
 * Keeps commands under the server's flood limit: at most `commands` per `windowMs` (sliding), and
 * nothing at all while `hold` (a 524 ban) lasts. `commands: Infinity` when allow-listed.
 */
export class QueryLimiter {
  private sent: number[] = [];
  private holdUntil = 0;

  constructor(
    readonly commands: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** How long the next command has to wait (0 = it may go now). */
  delay(): number {
    const t = this.now();
    let wait = Math.max(0, this.holdUntil - t);
    if (Number.isFinite(this.commands)) {
      this.sent = this.sent.filter((s) => t - s < this.windowMs);
      if (this.sent.length >= this.commands)
        wait = Math.max(wait, this.sent[this.sent.length - this.commands] + this.windowMs - t);
    }
    return wait;
  }

  record(): void {
    if (Number.isFinite(this.commands)) this.sent.push(this.now());
  }

  /** Nothing goes out for `ms`; afterwards the window starts empty (the ban reset the count). */
  hold(ms: number): void {
    this.holdUntil = Math.max(this.holdUntil, this.now() + ms);
    this.sent = [];
  }

  heldFor(): number {
    return Math.max(0, this.holdUntil - this.now());
  }
}

interface Pending {
  name: string;
  line: string;
  data: QueryRecord[];
  attempts: number;
  resolve(records: QueryRecord[]): void;
  reject(err: Error): void;
}

export interface ConnectionOptions {
  /** Greeting and per-command time-out (ms). */
  timeoutMs: number;
  limiter: QueryLimiter;
  /** A 524 wait up to this long is waited out and the command re-sent; longer ones fail at once. */
  maxFloodWaitMs: number;
  /** Over SSH: how long the line must be quiet after the welcome before the first command. */
  settleMs?: number;
  log?: { warn(obj: object, msg: string): void };
}

/**
 * One ServerQuery session over a transport. Events: 'notify' (name, record), 'close'.
 */
export class ServerQueryConnection extends EventEmitter {
  private buffer = '';
  private greeted = false;
  private ready = false;
  private readonly queue: Pending[] = [];
  private current: Pending | null = null;
  private closed = false;
  private commandTimer: NodeJS.Timeout | null = null;
  private pumpTimer: NodeJS.Timeout | null = null;
  private settleTimer: NodeJS.Timeout | null = null;
  private closeReason: Error | null = null;

  constructor(
    readonly transport: QueryTransport,
    private readonly opts: ConnectionOptions,
  ) {
    super();
  }

  /** Resolves once the greeting arrived (and, over SSH, the line went quiet). */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.reset(new Error(`ServerQuery greeting not received within ${this.opts.timeoutMs} ms`));
      }, this.opts.timeoutMs);
      this.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
      this.transport.on('data', (chunk) => this.onData(chunk));
      this.transport.on('close', () => {
        clearTimeout(timer);
        this.onTransportClosed();
        if (!this.ready) reject(this.closeReason ?? new ServerQueryClosedError());
      });
      this.transport.open().catch((err: Error) => {
        clearTimeout(timer);
        this.closeReason ??= err;
        reject(err);
        this.transport.destroy();
      });
    });
  }

  /** Sends one command and resolves with its records (empty for no data or an empty result set). */
  command(name: string, params?: QueryParams, flags?: string[]): Promise<QueryRecord[]> {
    if (this.closed || this.closeReason)
      return Promise.reject(this.closeReason ?? new ServerQueryClosedError());
    return new Promise((resolve, reject) => {
      this.queue.push({
        name,
        line: formatCommand(name, params, flags),
        data: [],
        attempts: 0,
        resolve,
        reject,
      });
      this.pump();
    });
  }

  /** Says goodbye (`quit`) and closes. */
  close(): void {
    if (this.closed) return;
    if (this.ready) this.transport.write('quit\n');
    this.reset(new ServerQueryClosedError('ServerQuery connection closed by openpug'), 200);
  }

  /** Fails the current and every queued command with `err` and ends the transport. */
  private reset(err: Error, graceMs = 0): void {
    this.closeReason ??= err;
    this.failAll(err);
    if (graceMs > 0) setTimeout(() => this.transport.destroy(), graceMs).unref();
    else this.transport.destroy();
  }

  private failAll(err: Error): void {
    this.clearCommandTimer();
    const current = this.current;
    this.current = null;
    current?.reject(err);
    for (const p of this.queue.splice(0)) p.reject(err);
  }

  private onTransportClosed(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.pumpTimer) clearTimeout(this.pumpTimer);
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.failAll(this.closeReason ?? new ServerQueryClosedError());
    this.emit('close');
  }

  private clearCommandTimer(): void {
    if (this.commandTimer) clearTimeout(this.commandTimer);
    this.commandTimer = null;
  }

  private pump(): void {
    if (this.current || !this.ready || this.closed || this.pumpTimer) return;
    if (this.queue.length === 0) return;
    const wait = this.opts.limiter.delay();
    if (wait > 0) {
      const held = this.opts.limiter.heldFor();
      if (held > this.opts.maxFloodWaitMs) {
        // A long ban: fail now rather than hold HTTP requests for minutes; nothing is sent.
        const err = new ServerQueryFloodError(held);
        for (const p of this.queue.splice(0)) p.reject(err);
        return;
      }
      this.pumpTimer = setTimeout(() => {
        this.pumpTimer = null;
        this.pump();
      }, wait);
      return;
    }
    const next = this.queue.shift() as Pending;
    this.current = next;
    next.data = [];
    next.attempts++;
    this.transport.write(`${next.line}\n`);
    this.commandTimer = setTimeout(() => {
      // After a busy stretch the timer phase comes before the socket is read: let the I/O phase
      // read what already arrived (setImmediate runs after it) before calling the command lost.
      setImmediate(() => {
        if (this.current !== next || this.closed) return;
        this.commandTimer = null;
        this.opts.limiter.record();
        const err = new ServerQueryTimeoutError(next.name, this.opts.timeoutMs);
        this.opts.log?.warn({ command: next.name, timeoutMs: this.opts.timeoutMs }, err.message);
        this.reset(err);
      });
    }, this.opts.timeoutMs);
  }

  private onData(chunk: string): void {
    this.buffer += chunk;
    let nl = this.buffer.indexOf('\n');
    while (nl !== -1) {
      const line = this.buffer.slice(0, nl).replace(/\r/g, '').trim();
      this.buffer = this.buffer.slice(nl + 1);
      if (line) this.onLine(line);
      nl = this.buffer.indexOf('\n');
    }
    if (this.greeted && !this.ready) this.settle();
  }

  /** Over SSH: wait until nothing arrived for `settleMs`, dropping stray post-welcome lines. */
  private settle(): void {
    const settleMs = this.transport.authenticated ? (this.opts.settleMs ?? 150) : 0;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    if (settleMs === 0) {
      this.markReady();
      return;
    }
    this.settleTimer = setTimeout(() => this.markReady(), settleMs);
  }

  private markReady(): void {
    this.settleTimer = null;
    if (this.ready || this.closed) return;
    this.ready = true;
    this.emit('ready');
    this.pump();
  }

  private onLine(line: string): void {
    if (!this.greeted) {
      // "TS3", then "Welcome to the TeamSpeak [3] ServerQuery interface, …".
      if (line.startsWith('Welcome')) this.greeted = true;
      return;
    }
    if (!this.ready) return; // stray lines right after an SSH welcome
    if (line.startsWith('notify')) {
      const space = line.indexOf(' ');
      const event = space === -1 ? line : line.slice(0, space);
      const record = parseRecords(space === -1 ? '' : line.slice(space + 1))[0] ?? {};
      this.emit('notify', event, record);
      return;
    }
    const current = this.current;
    if (!current) return;
    if (line.startsWith('error ')) {
      const rec = parseRecords(line.slice(6))[0] ?? {};
      const id = Number(rec.id);
      // Counted when answered: the server saw it somewhere between sending and now, and the later
      // time keeps the window safe when the link (or this process) was slow to pass it on.
      this.opts.limiter.record();
      this.clearCommandTimer();
      this.current = null;
      if (id === 0) current.resolve(current.data);
      else if (id === 1281) current.resolve([]);
      else if (id === FLOOD_ERROR_ID)
        this.onFlood(current, new ServerQueryError(id, rec.msg ?? '', rec.extra_msg));
      else current.reject(new ServerQueryError(id, rec.msg ?? '', rec.extra_msg));
      this.pump();
      return;
    }
    current.data.push(...parseRecords(line));
  }

  /** 524: send nothing until the ban ends; re-send the command then if that is soon enough. */
  private onFlood(pending: Pending, err: ServerQueryError): void {
    const waitMs = floodWaitSeconds(err) * 1000 + 100;
    this.opts.limiter.hold(waitMs);
    this.opts.log?.warn(
      { command: pending.name, waitMs, serverMessage: err.message },
      'TeamSpeak ServerQuery flood protection hit; holding every command until the ban ends',
    );
    if (waitMs <= this.opts.maxFloodWaitMs && pending.attempts < 3) this.queue.unshift(pending);
    else pending.reject(new ServerQueryFloodError(waitMs));
  }
}

export interface TeamSpeakOptions {
  /** `raw` TCP (TS3 port 10011) or `ssh` (TS3 ≥ 3.3 and TS6, port 10022). Default raw. */
  protocol?: 'raw' | 'ssh';
  host: string;
  port: number;
  username: string;
  password: string;
  sid: number;
  nickname: string;
  keepaliveMs: number;
  /** Per-command (and greeting) time-out; default 5000 ms. */
  timeoutMs?: number;
  /** openpug's address is on the server's query_ip_allowlist.txt: no client-side command limit. */
  allowlisted?: boolean;
  /** Client-side limit (default 10 commands per 3 s window, spaced over 3.3 s for jitter). */
  floodCommands?: number;
  floodWindowMs?: number;
  /** SSH only: pinned host-key fingerprint `SHA256:…`. */
  sshHostKey?: string;
  /** `clientlist` is read at most once per this many ms (default 2000). */
  clientListMinIntervalMs?: number;
  /** First reconnect delay; doubles up to 30 s. */
  reconnectMs?: number;
  /** Over SSH: quiet time after the welcome before the first command (default 150 ms). */
  settleMs?: number;
  /** The cid under which match channels are made (TEAMSPEAK_CHANNEL_PARENT); unset: off. */
  channelParent?: number;
  now?: () => number;
  log?: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

interface Client {
  uid: string;
  name: string;
  /** The channel the client is in (clientlist `cid`, the `ctid` of an enter or a move). */
  cid: number;
}

/** TeamSpeak error ids met by the channel commands (tsproto-structs declarations/Errors.csv). */
const INVALID_CLIENT_ID = 512;
const INVALID_CHANNEL_ID = 768;
const ALREADY_MEMBER_OF_CHANNEL = 770;
const CHANNEL_NAME_IN_USE = 771;
const isQueryError = (err: unknown, id: number) => err instanceof ServerQueryError && err.id === id;

export class TeamSpeakVoiceServer implements VoiceServer {
  readonly kind = 'teamspeak' as const;
  /** Shared by every connection: the server counts commands per source address. */
  readonly limiter: QueryLimiter;
  private conn: ServerQueryConnection | null = null;
  /** clid → client, for voice clients (client_type 0) only. */
  private clients = new Map<string, Client>();
  private readonly presence: PresenceEmitter;
  private keepalive: NodeJS.Timeout | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private reconnectDelay: number;
  private stopped = false;
  private readyWaiters: Array<() => void> = [];
  private isReady = false;
  private listFetchedAt = Number.NEGATIVE_INFINITY;
  private listInFlight: Promise<Map<string, Client>> | null = null;
  private hostKeyLogged = false;
  private readonly now: () => number;
  private readonly timeoutMs: number;

  constructor(private readonly opts: TeamSpeakOptions) {
    this.presence = new PresenceEmitter(opts.log);
    this.reconnectDelay = opts.reconnectMs ?? 1_000;
    this.now = opts.now ?? Date.now;
    this.timeoutMs = opts.timeoutMs ?? 5_000;
    this.limiter = new QueryLimiter(
      opts.allowlisted ? Number.POSITIVE_INFINITY : (opts.floodCommands ?? 10),
      opts.floodWindowMs ?? 3_300,
      this.now,
    );
  }

  /** Starts connecting in the background; a down TeamSpeak server never stops the app. */
  async start(): Promise<void> {
    this.stopped = false;
    void this.connectOnce();
  }

  /** Resolves when logged in and subscribed (for tests and health checks). */
  ready(): Promise<void> {
    if (this.isReady) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.keepalive) clearInterval(this.keepalive);
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.conn?.close();
    this.conn = null;
  }

  private transport(): QueryTransport {
    const { opts } = this;
    if (opts.protocol === 'ssh')
      return new SshTransport({
        host: opts.host,
        port: opts.port,
        username: opts.username,
        password: opts.password,
        hostKey: opts.sshHostKey,
        connectTimeoutMs: this.timeoutMs,
        onUnpinnedHostKey: (fingerprint) => {
          if (this.hostKeyLogged) return;
          this.hostKeyLogged = true;
          opts.log?.warn(
            { host: opts.host, fingerprint },
            'TeamSpeak SSH host key not pinned; set TEAMSPEAK_SSH_HOST_KEY to this fingerprint to pin it',
          );
        },
      });
    return new RawTcpTransport(opts.host, opts.port, this.timeoutMs);
  }

  private async connectOnce(): Promise<void> {
    const conn = new ServerQueryConnection(this.transport(), {
      timeoutMs: this.timeoutMs,
      limiter: this.limiter,
      maxFloodWaitMs: this.timeoutMs,
      settleMs: this.opts.settleMs,
      log: this.opts.log,
    });
    try {
      await conn.connect();
      this.conn = conn;
      conn.on('notify', (event: string, record: QueryRecord) => this.onNotify(event, record));
      conn.on('close', () => this.onClosed(conn));
      // Over SSH the session is already logged in as the SSH user.
      if (!conn.transport.authenticated)
        await conn.command('login', {
          client_login_name: this.opts.username,
          client_login_password: this.opts.password,
        });
      await conn.command('use', { sid: this.opts.sid });
      await conn.command('clientupdate', { client_nickname: this.opts.nickname }).catch(() => undefined);
      await conn.command('servernotifyregister', { event: 'server' });
      // Match channels: every channel's events, so the cache follows clients changing channel.
      if (this.opts.channelParent !== undefined)
        await conn.command('servernotifyregister', { event: 'channel', id: 0 });
      // A new session starts from an empty view: read it now (still through the limiter).
      await this.refresh();
      this.reconnectDelay = this.opts.reconnectMs ?? 1_000;
      if (this.keepalive) clearInterval(this.keepalive);
      if (this.opts.keepaliveMs > 0) {
        this.keepalive = setInterval(() => {
          conn.command('whoami').catch(() => undefined);
        }, this.opts.keepaliveMs);
        this.keepalive.unref();
      }
      this.isReady = true;
      for (const w of this.readyWaiters.splice(0)) w();
      this.opts.log?.info(
        { host: this.opts.host, protocol: conn.transport.protocol },
        'connected to TeamSpeak ServerQuery',
      );
    } catch (err) {
      if (err instanceof HostKeyMismatchError)
        this.opts.log?.error({ err }, 'TeamSpeak SSH host key mismatch: not connecting');
      else this.opts.log?.warn({ err }, 'TeamSpeak ServerQuery connection failed');
      conn.close();
      if (this.conn === conn) this.conn = null;
      this.scheduleReconnect();
    }
  }

  private onClosed(conn: ServerQueryConnection): void {
    if (this.conn !== conn) return;
    this.conn = null;
    this.isReady = false;
    if (this.keepalive) clearInterval(this.keepalive);
    // Nobody can be seen any more: report everyone as gone; the next refresh reports them back.
    const before = this.onlineIdentities();
    this.clients.clear();
    for (const [uid, name] of before) this.presence.emit({ id: uid, name, online: false });
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    // Never knock while a flood ban lasts: connecting again does not lift it.
    const delay = Math.max(this.reconnectDelay, this.limiter.heldFor());
    this.reconnectDelay = Math.min(this.reconnectDelay * 2, 30_000);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.stopped) void this.connectOnce();
    }, delay);
    this.reconnectTimer.unref();
  }

  private onlineIdentities(): Map<string, string> {
    const m = new Map<string, string>();
    for (const c of this.clients.values()) m.set(c.uid, c.name);
    return m;
  }

  /**
   * The connected clients: the cached map (kept current by notifications) when the last
   * `clientlist` is younger than the minimum interval, else one `clientlist` shared by every caller.
   * `fresh` asks for a new read, waiting for the next allowed moment if needed.
   */
  private clientMap(fresh: boolean): Promise<Map<string, Client>> {
    if (this.listInFlight) return this.listInFlight;
    if (!this.conn)
      return Promise.reject(new ServerQueryClosedError('TeamSpeak ServerQuery is not connected'));
    const minInterval = this.opts.clientListMinIntervalMs ?? 2_000;
    const age = this.now() - this.listFetchedAt;
    if (!fresh && age < minInterval && this.isReady) return Promise.resolve(this.clients);
    const wait = Math.max(0, minInterval - age);
    const run = async () => {
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      return this.refresh();
    };
    const p = run().finally(() => {
      if (this.listInFlight === p) this.listInFlight = null;
    });
    this.listInFlight = p;
    return p;
  }

  /** Re-reads the client list and reports the difference as presence events. */
  private async refresh(): Promise<Map<string, Client>> {
    const conn = this.conn;
    if (!conn) throw new ServerQueryClosedError('TeamSpeak ServerQuery is not connected');
    this.listFetchedAt = this.now();
    const rows = await conn.command('clientlist', {}, ['uid']);
    const before = this.onlineIdentities();
    const next = new Map<string, Client>();
    for (const r of rows) {
      if (r.client_type !== '0' || !r.clid || !r.client_unique_identifier) continue;
      next.set(r.clid, {
        uid: r.client_unique_identifier,
        name: r.client_nickname ?? '',
        cid: Number(r.cid ?? 0),
      });
    }
    this.clients = next;
    const after = this.onlineIdentities();
    for (const [uid, name] of after)
      if (!before.has(uid)) this.presence.emit({ id: uid, name, online: true });
    for (const [uid, name] of before)
      if (!after.has(uid)) this.presence.emit({ id: uid, name, online: false });
    return next;
  }

  private onNotify(event: string, r: QueryRecord): void {
    if (event === 'notifycliententerview') {
      if (r.client_type !== '0' || !r.clid || !r.client_unique_identifier) return;
      const wasOnline = this.onlineIdentities().has(r.client_unique_identifier);
      this.clients.set(r.clid, {
        uid: r.client_unique_identifier,
        name: r.client_nickname ?? '',
        cid: Number(r.ctid ?? 0),
      });
      if (!wasOnline)
        this.presence.emit({ id: r.client_unique_identifier, name: r.client_nickname ?? '', online: true });
    } else if (event === 'notifyclientmoved') {
      // Sent with channel events (registered when match channels are on).
      const c = r.clid ? this.clients.get(r.clid) : undefined;
      if (c && r.ctid) c.cid = Number(r.ctid);
    } else if (event === 'notifyclientleftview') {
      const c = r.clid ? this.clients.get(r.clid) : undefined;
      if (!c) return;
      this.clients.delete(r.clid);
      if (!this.onlineIdentities().has(c.uid)) this.presence.emit({ id: c.uid, name: c.name, online: false });
    }
  }

  private unavailable(err: unknown): never {
    if (
      err instanceof VoiceIdentityNotConnectedError ||
      err instanceof VoiceServerUnavailableError ||
      err instanceof VoiceChannelMissingError ||
      err instanceof VoiceChannelNameInUseError
    )
      throw err;
    throw new VoiceServerUnavailableError(err instanceof Error ? err.message : String(err), { cause: err });
  }

  async listClients(): Promise<VoiceIdentity[]> {
    const clients = await this.clientMap(false).catch((err) => this.unavailable(err));
    const seen = new Map<string, string>();
    for (const c of clients.values()) if (!seen.has(c.uid)) seen.set(c.uid, c.name);
    return [...seen].map(([id, name]) => ({ id, name }));
  }

  async isConnected(id: string): Promise<boolean> {
    return this.onlineIdentities().has(id);
  }

  async sendPrivateMessage(id: string, text: string): Promise<void> {
    try {
      const clidsOf = (clients: Map<string, Client>) =>
        [...clients].filter(([, c]) => c.uid === id).map(([clid]) => clid);
      let clids = clidsOf(await this.clientMap(false));
      // Not in the cached view: one fresh read (at the next allowed moment) before giving up.
      if (clids.length === 0) clids = clidsOf(await this.clientMap(true));
      const conn = this.conn;
      if (clids.length === 0 || !conn) throw new VoiceIdentityNotConnectedError(id);
      let delivered = 0;
      for (const clid of clids) {
        try {
          await conn.command('sendtextmessage', { targetmode: 1, target: clid, msg: text });
          delivered++;
        } catch (err) {
          // 512 "invalid clientID": that client left in the meantime.
          if (!(err instanceof ServerQueryError && err.id === 512)) throw err;
        }
      }
      if (delivered === 0) throw new VoiceIdentityNotConnectedError(id);
    } catch (err) {
      this.unavailable(err);
    }
  }

  onPresence(fn: Parameters<VoiceServer['onPresence']>[0]): void {
    this.presence.on(fn);
  }

  matchChannelParent(): number | null {
    return this.opts.channelParent ?? null;
  }

  private connection(): ServerQueryConnection {
    if (!this.conn) throw new ServerQueryClosedError('TeamSpeak ServerQuery is not connected');
    return this.conn;
  }

  async listChannels(): Promise<VoiceChannel[]> {
    try {
      // ServerQuery manual, channellist: `cid=… pid=… channel_order=… channel_name=… total_clients=…|…`.
      const rows = await this.connection().command('channellist');
      return rows.map((r) => ({
        id: Number(r.cid),
        parentId: Number(r.pid ?? 0),
        name: r.channel_name ?? '',
      }));
    } catch (err) {
      return this.unavailable(err);
    }
  }

  async createChannel(name: string, parentId: number): Promise<number> {
    try {
      // ServerQuery manual, channelcreate channel_name=… [channel_properties…] answers `cid=<new id>`.
      // Semi-permanent: it stays while empty (a temporary one would go with its last client) and is
      // gone after a server restart, so a forgotten one does not outlive the TeamSpeak process.
      const [row] = await this.connection().command('channelcreate', {
        channel_name: name,
        cpid: parentId,
        channel_flag_semi_permanent: 1,
      });
      const cid = Number(row?.cid);
      if (!Number.isInteger(cid) || cid <= 0)
        throw new Error(`channelcreate answered no cid: ${JSON.stringify(row)}`);
      return cid;
    } catch (err) {
      if (isQueryError(err, CHANNEL_NAME_IN_USE)) throw new VoiceChannelNameInUseError(name);
      if (isQueryError(err, INVALID_CHANNEL_ID)) throw new VoiceChannelMissingError(parentId);
      return this.unavailable(err);
    }
  }

  async deleteChannel(channelId: number): Promise<void> {
    try {
      // ServerQuery manual, channeldelete cid=… force=1: deleted even with clients in it.
      await this.connection().command('channeldelete', { cid: channelId, force: 1 });
    } catch (err) {
      if (isQueryError(err, INVALID_CHANNEL_ID)) return; // gone already (a server restart)
      this.unavailable(err);
    }
  }

  async clientPlaces(): Promise<VoiceClientPlace[]> {
    const clients = await this.clientMap(false).catch((err) => this.unavailable(err));
    return [...clients].map(([clid, c]) => ({ clientId: Number(clid), identityId: c.uid, channelId: c.cid }));
  }

  async moveClients(clientIds: number[], channelId: number): Promise<void> {
    if (clientIds.length === 0) return;
    try {
      const conn = this.connection();
      try {
        // ServerQuery manual, clientmove cid=… clid=…|clid=…: one command for them all.
        await conn.command('clientmove', { cid: channelId, clid: clientIds });
      } catch (err) {
        // One of them left meanwhile (512): the others one by one, skipping who is gone or there.
        if (!isQueryError(err, INVALID_CLIENT_ID) || clientIds.length === 1) throw err;
        for (const clid of clientIds)
          await conn.command('clientmove', { cid: channelId, clid }).catch((one) => {
            if (!isQueryError(one, INVALID_CLIENT_ID) && !isQueryError(one, ALREADY_MEMBER_OF_CHANNEL))
              throw one;
          });
      }
      for (const clid of clientIds) {
        const c = this.clients.get(String(clid));
        if (c) c.cid = channelId;
      }
    } catch (err) {
      if (isQueryError(err, INVALID_CHANNEL_ID)) throw new VoiceChannelMissingError(channelId);
      if (isQueryError(err, INVALID_CLIENT_ID) || isQueryError(err, ALREADY_MEMBER_OF_CHANNEL)) return;
      this.unavailable(err);
    }
  }
}
