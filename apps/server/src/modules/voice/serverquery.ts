/**
 * TeamSpeak 3/5 ServerQuery (raw text protocol over TCP, default port 10011).
 *
 * Protocol, as implemented here:
 * - On connect the server greets with a `TS3` line and a welcome line (lines end in "\n\r").
 * - One command at a time: `name key=value key=value -flag\n`. The answer is zero or more data
 *   lines (records separated by `|`, properties by spaces) and always ends with
 *   `error id=<n> msg=<text>`; id 0 is success, 1281 ("database empty result set") an empty list.
 * - Unsolicited `notify…` lines (after `servernotifyregister event=server`) carry events such as
 *   `notifycliententerview` and `notifyclientleftview`; they can arrive between any lines.
 * - Values are escaped: \\ \/ \s (space) \p (|) \a \b \f \n \r \t \v.
 * - Idle connections are dropped after ~5 minutes, so a keepalive command is sent regularly.
 *
 * `TeamSpeakVoiceServer` builds the VoiceServer interface on it: login, use sid, register for
 * server events, track connected clients (clid → unique identifier) and reconnect with backoff.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import {
  PresenceEmitter,
  type VoiceIdentity,
  VoiceIdentityNotConnectedError,
  type VoiceServer,
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

export function formatCommand(
  name: string,
  params: Record<string, string | number | undefined> = {},
  flags: string[] = [],
): string {
  const parts = [name];
  for (const [k, v] of Object.entries(params)) if (v !== undefined) parts.push(`${k}=${tsEscape(String(v))}`);
  for (const f of flags) parts.push(`-${f}`);
  return parts.join(' ');
}

export class ServerQueryError extends Error {
  constructor(
    readonly id: number,
    readonly serverMessage: string,
  ) {
    super(`ServerQuery error ${id}: ${serverMessage}`);
  }
}

interface Pending {
  line: string;
  data: QueryRecord[];
  resolve(records: QueryRecord[]): void;
  reject(err: Error): void;
}

/**
 * One ServerQuery connection. Events: 'notify' (name, record), 'close'.
 */
export class ServerQueryConnection extends EventEmitter {
  private socket: net.Socket | null = null;
  private buffer = '';
  private greeted = false;
  private readonly queue: Pending[] = [];
  private current: Pending | null = null;
  private closed = false;

  constructor(
    private readonly host: string,
    private readonly port: number,
    private readonly timeoutMs = 10_000,
  ) {
    super();
  }

  /** Resolves once the `TS3` greeting arrived. */
  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ host: this.host, port: this.port });
      this.socket = socket;
      socket.setEncoding('utf8');
      socket.setNoDelay(true);
      const timer = setTimeout(() => {
        socket.destroy(new Error('ServerQuery greeting timed out'));
      }, this.timeoutMs);
      const onGreeting = () => {
        clearTimeout(timer);
        resolve();
      };
      this.once('greeted', onGreeting);
      socket.on('data', (chunk: string) => this.onData(chunk));
      socket.on('error', (err) => {
        clearTimeout(timer);
        this.off('greeted', onGreeting);
        if (!this.greeted) reject(err);
      });
      socket.on('close', () => {
        clearTimeout(timer);
        this.closed = true;
        const err = new Error('ServerQuery connection closed');
        if (!this.greeted) reject(err);
        this.current?.reject(err);
        for (const p of this.queue.splice(0)) p.reject(err);
        this.current = null;
        this.emit('close');
      });
    });
  }

  /** Sends one command and resolves with its records (empty for no data or an empty result set). */
  command(
    name: string,
    params?: Record<string, string | number | undefined>,
    flags?: string[],
  ): Promise<QueryRecord[]> {
    if (this.closed || !this.socket) return Promise.reject(new Error('ServerQuery connection closed'));
    return new Promise((resolve, reject) => {
      this.queue.push({ line: formatCommand(name, params, flags), data: [], resolve, reject });
      this.pump();
    });
  }

  close(): void {
    if (!this.socket || this.closed) return;
    this.socket.end('quit\n');
    this.socket.destroySoon?.();
    setTimeout(() => this.socket?.destroy(), 500).unref();
  }

  private pump(): void {
    if (this.current || !this.greeted) return;
    const next = this.queue.shift();
    if (!next) return;
    this.current = next;
    this.socket?.write(`${next.line}\n`);
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
  }

  private onLine(line: string): void {
    if (!this.greeted) {
      // "TS3", then "Welcome to the TeamSpeak 3 ServerQuery interface, …": ready for commands.
      if (line.startsWith('Welcome')) {
        this.greeted = true;
        this.emit('greeted');
        this.pump();
      }
      return;
    }
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
      this.current = null;
      if (id === 0) current.resolve(current.data);
      else if (id === 1281) current.resolve([]);
      else current.reject(new ServerQueryError(id, rec.msg ?? ''));
      this.pump();
      return;
    }
    current.data.push(...parseRecords(line));
  }
}

export interface TeamSpeakOptions {
  host: string;
  port: number;
  username: string;
  password: string;
  sid: number;
  nickname: string;
  keepaliveMs: number;
  /** First reconnect delay; doubles up to 30 s. */
  reconnectMs?: number;
  log?: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    error(obj: object, msg: string): void;
  };
}

interface Client {
  uid: string;
  name: string;
}

export class TeamSpeakVoiceServer implements VoiceServer {
  readonly kind = 'teamspeak' as const;
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

  constructor(private readonly opts: TeamSpeakOptions) {
    this.presence = new PresenceEmitter(opts.log);
    this.reconnectDelay = opts.reconnectMs ?? 1_000;
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

  private async connectOnce(): Promise<void> {
    const conn = new ServerQueryConnection(this.opts.host, this.opts.port);
    try {
      await conn.connect();
      this.conn = conn;
      conn.on('notify', (event: string, record: QueryRecord) => this.onNotify(event, record));
      conn.on('close', () => this.onClosed(conn));
      await conn.command('login', {
        client_login_name: this.opts.username,
        client_login_password: this.opts.password,
      });
      await conn.command('use', { sid: this.opts.sid });
      await conn.command('clientupdate', { client_nickname: this.opts.nickname }).catch(() => undefined);
      await conn.command('servernotifyregister', { event: 'server' });
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
      this.opts.log?.info({ host: this.opts.host }, 'connected to TeamSpeak ServerQuery');
    } catch (err) {
      this.opts.log?.warn({ err }, 'TeamSpeak ServerQuery connection failed');
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
    const delay = this.reconnectDelay;
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

  /** Re-reads the client list and reports the difference as presence events. */
  private async refresh(): Promise<Map<string, Client>> {
    if (!this.conn) throw new Error('TeamSpeak ServerQuery is not connected');
    const rows = await this.conn.command('clientlist', {}, ['uid']);
    const before = this.onlineIdentities();
    const next = new Map<string, Client>();
    for (const r of rows) {
      if (r.client_type !== '0' || !r.clid || !r.client_unique_identifier) continue;
      next.set(r.clid, { uid: r.client_unique_identifier, name: r.client_nickname ?? '' });
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
      this.clients.set(r.clid, { uid: r.client_unique_identifier, name: r.client_nickname ?? '' });
      if (!wasOnline)
        this.presence.emit({ id: r.client_unique_identifier, name: r.client_nickname ?? '', online: true });
    } else if (event === 'notifyclientleftview') {
      const c = r.clid ? this.clients.get(r.clid) : undefined;
      if (!c) return;
      this.clients.delete(r.clid);
      if (!this.onlineIdentities().has(c.uid)) this.presence.emit({ id: c.uid, name: c.name, online: false });
    }
  }

  async listClients(): Promise<VoiceIdentity[]> {
    const clients = await this.refresh();
    const seen = new Map<string, string>();
    for (const c of clients.values()) if (!seen.has(c.uid)) seen.set(c.uid, c.name);
    return [...seen].map(([id, name]) => ({ id, name }));
  }

  async isConnected(id: string): Promise<boolean> {
    return this.onlineIdentities().has(id);
  }

  async sendPrivateMessage(id: string, text: string): Promise<void> {
    const clients = await this.refresh();
    const clids = [...clients].filter(([, c]) => c.uid === id).map(([clid]) => clid);
    if (clids.length === 0 || !this.conn) throw new VoiceIdentityNotConnectedError(id);
    for (const clid of clids) {
      await this.conn.command('sendtextmessage', { targetmode: 1, target: clid, msg: text });
    }
  }

  onPresence(fn: Parameters<VoiceServer['onPresence']>[0]): void {
    this.presence.on(fn);
  }
}
