/**
 * A fake CS2 dedicated server with MatchZy, as far as openpug talks to one: Source RCON over TCP
 * (own framing, independent of the client under test), password check, `get5_status`, the remote
 * log cvars, `matchzy_loadmatch_url` that really fetches the match config over HTTP with the
 * header it was given and validates it like MatchZy, `get5_endmatch`, and `sendEvent` posting
 * MatchZy events (numeric matchid) to the configured remote log URL with the configured header.
 *
 * `style: 'csgo'` answers login with an empty RESPONSE_VALUE before the AUTH_RESPONSE and mirrors
 * the client's empty RESPONSE_VALUE end marker (followed by the 0x01 trailer); `style: 'cs2'` does
 * neither. `mute` stops answering; `dropOnCommand` closes the connection when a command arrives.
 */
import net from 'node:net';

const AUTH = 3;
const AUTH_RESPONSE = 2;
const EXECCOMMAND = 2;
const RESPONSE_VALUE = 0;
/** Body bytes per answer packet (a packet is at most 4096 bytes with its 10 bytes of framing). */
const CHUNK = 4086;

function frame(id: number, type: number, body: Buffer = Buffer.alloc(0)): Buffer {
  const out = Buffer.alloc(14 + body.length);
  out.writeInt32LE(10 + body.length, 0);
  out.writeInt32LE(id, 4);
  out.writeInt32LE(type, 8);
  body.copy(out, 12);
  return out;
}

/** Splits a console line into arguments the way the Source console does (double quotes group). */
export function consoleArgs(line: string): string[] {
  const args: string[] = [];
  const re = /"([^"]*)"|(\S+)/g;
  for (let m = re.exec(line); m; m = re.exec(line)) args.push(m[1] ?? m[2]);
  return args;
}

export interface ConfigFetch {
  url: string;
  headers: Record<string, string>;
  status: number;
}

export class FakeCs2Server {
  readonly commands: string[] = [];
  readonly cvars = new Map<string, string>();
  readonly configFetches: ConfigFetch[] = [];
  logins = 0;
  failedLogins = 0;
  gamestate = 'none';
  matchid = '';
  /** The match config MatchZy accepted last. */
  config: Record<string, unknown> | null = null;
  mute = false;
  dropOnCommand = false;
  /** Answers `matchzy_loadmatch_url` without loading anything (a broken plugin, a lost request). */
  ignoreLoad = false;
  /** Extra text `cvarlist` prints (tests a long, multi-packet answer). */
  cvarlistText = '';
  port = 0;
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  constructor(
    private readonly password: string,
    private readonly style: 'csgo' | 'cs2' = 'csgo',
  ) {
    this.server = net.createServer((socket) => this.onConnection(socket));
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  async listen(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  /** Posts a MatchZy event to the remote log URL with the remote log header, as MatchZy does. */
  async sendEvent(event: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
    const url = this.cvars.get('matchzy_remote_log_url');
    if (!url) throw new Error('matchzy_remote_log_url is not set');
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const key = this.cvars.get('matchzy_remote_log_header_key');
    if (key) headers[key] = this.cvars.get('matchzy_remote_log_header_value') ?? '';
    // MatchZy's own state moves with the game: live from going_live, post-game once the map is over.
    if (event.event === 'going_live') this.gamestate = 'live';
    if (event.event === 'map_result' || event.event === 'series_end') this.gamestate = 'post_game';
    const res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ matchid: Number(this.matchid), ...event }),
    });
    return { status: res.status, body: await res.json() };
  }

  private onConnection(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
    let authed = false;
    let buffer = Buffer.alloc(0);
    // Packets are handled one after another, like the server's console: a slow command (the
    // config fetch) delays the answers behind it.
    let chain: Promise<void> = Promise.resolve();
    const write = (b: Buffer) => {
      if (!socket.destroyed) socket.write(b);
    };
    const handle = async (id: number, type: number, body: string) => {
      if (this.mute) return;
      if (type === AUTH) {
        if (this.style === 'csgo') write(frame(id, RESPONSE_VALUE));
        authed = body === this.password;
        if (authed) this.logins++;
        else this.failedLogins++;
        write(frame(authed ? id : -1, AUTH_RESPONSE));
        return;
      }
      if (!authed) return;
      if (type === RESPONSE_VALUE) {
        if (this.style === 'csgo') {
          write(frame(id, RESPONSE_VALUE));
          write(frame(id, RESPONSE_VALUE, Buffer.from([0, 0, 0, 1, 0, 0, 0, 0])));
        }
        return;
      }
      if (type !== EXECCOMMAND) return;
      this.commands.push(body);
      if (this.dropOnCommand) {
        socket.destroy();
        return;
      }
      const answer = Buffer.from(await this.execute(body), 'utf8');
      if (answer.length === 0) write(frame(id, RESPONSE_VALUE));
      for (let i = 0; i < answer.length; i += CHUNK)
        write(frame(id, RESPONSE_VALUE, answer.subarray(i, i + CHUNK)));
    };
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4) {
        const size = buffer.readInt32LE(0);
        if (buffer.length < 4 + size) break;
        const id = buffer.readInt32LE(4);
        const type = buffer.readInt32LE(8);
        const body = buffer.toString('utf8', 12, 4 + size - 2);
        buffer = buffer.subarray(4 + size);
        chain = chain.then(() => handle(id, type, body));
      }
    });
  }

  private async execute(line: string): Promise<string> {
    const [cmd, ...args] = consoleArgs(line);
    switch (cmd) {
      case 'echo':
        return `${args.join(' ')}\n`;
      case 'cvarlist':
        return this.cvarlistText;
      case 'get5_status':
        return `${JSON.stringify({ plugin_version: '0.15.0', gamestate: this.gamestate, matchid: this.matchid })}\n`;
      case 'matchzy_remote_log_url':
      case 'matchzy_remote_log_header_key':
      case 'matchzy_remote_log_header_value':
        if (args.length > 0) this.cvars.set(cmd, args[0]);
        return args.length > 0 ? '' : `${cmd} = "${this.cvars.get(cmd) ?? ''}"\n`;
      case 'get5_endmatch':
      case 'css_endmatch':
        this.gamestate = 'none';
        this.matchid = '';
        this.config = null;
        return '';
      case 'matchzy_loadmatch_url':
        return this.loadMatchFromUrl(args);
      default:
        return `Unknown command: ${cmd}\n`;
    }
  }

  /** What MatchZy's LoadMatchFromURL does: refuse while a match is set up, fetch, validate, load. */
  private async loadMatchFromUrl(args: string[]): Promise<string> {
    if (this.ignoreLoad) return '';
    if (this.gamestate !== 'none')
      return `A match is already setup with id: ${this.matchid}, cannot load a new match!\n`;
    const [url, headerName, headerValue] = args;
    const headers: Record<string, string> = {};
    if (args.length >= 3 && headerName) headers[headerName] = headerValue;
    const res = await fetch(url, { headers });
    this.configFetches.push({ url, headers, status: res.status });
    if (!res.ok) return `HTTP request failed with status code: ${res.status}\n`;
    const config = (await res.json()) as Record<string, unknown>;
    for (const field of ['maplist', 'team1', 'team2', 'num_maps'])
      if (config[field] === undefined) return `Missing mandatory field: ${field}\n`;
    // MatchZy parses matchid as an int.
    const matchid = config.matchid;
    if (typeof matchid !== 'number' || !Number.isInteger(matchid) || matchid < 0 || matchid > 2 ** 31 - 1)
      return 'matchid should be an integer!\n';
    for (const team of ['team1', 'team2'])
      if (typeof (config[team] as { players?: unknown }).players !== 'object')
        return `${team} should have 'players' JSON!\n`;
    // MatchZy applies the config's cvars before warm-up, so its events go where the config says.
    for (const [name, value] of Object.entries((config.cvars ?? {}) as Record<string, string>))
      this.cvars.set(name, value);
    this.config = config;
    this.matchid = String(config.matchid);
    this.gamestate = 'warmup';
    return '';
  }
}
