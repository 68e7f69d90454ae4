/**
 * Test fake of a TeamSpeak server's query interface, over raw TCP (TS3 `query_protocols=raw`,
 * port 10011) and SSH (TS3 ≥ 3.3 `query_protocols=ssh`, TS6 `--query-ssh-enable`, port 10022;
 * an ssh2 Server with an RSA host key generated at test time — no key is ever committed).
 *
 * Sources for what it imitates (cited again beside each reply below):
 * - [Manual] TeamSpeak 3 ServerQuery Manual (doc/serverquery/serverquery.html in the server
 *   package, "last update 6/6/2016"; the PDF editions 2009–2013 have the same sections):
 *   "How to establish a ServerQuery connection", "Command Syntax", "Escaping",
 *   "Whitelisting and Blacklisting", and the command reference (login, use, clientlist,
 *   clientupdate, servernotifyregister, sendtextmessage, whoami, quit, channellist,
 *   channelcreate, channeldelete, clientmove). The command reference is quoted with its usage
 *   lines and examples in benediktschmitt/py-ts3 `ts3/commands.py` (the docstrings).
 * - [Errors] the server's error ids and messages: tsproto-structs `declarations/Errors.csv`
 *   (ReSpeak; also docs.rs tsclientlib `TsError`): 512 invalid clientID, 768 invalid channelID,
 *   770 already member of channel, 771 channel name is already in use, 772 channel not empty,
 *   1538 invalid parameter.
 * - [TS6] teamspeak/teamspeak6-server CONFIG.md, "Server Query" / "Query SSH Options":
 *   `--query-ssh-enable`, `--query-ssh-port [10022]`, `--query-ip-allow-list
 *   [query_ip_allowlist.txt]` ("IPs exempt from query flood protection"); no raw query port.
 * - [3.3.0] TeamSpeak 3 Server 3.3.0 release notes (quoted in benediktschmitt/py-ts3#70): SSH
 *   query; "Bot or admin tools connecting over ssh should not allocate a PTY".
 * - [Community] client libraries that talk to TS3/TS6 over SSH report a status record plus
 *   `error id=0 msg=ok` right after the SSH welcome on some versions (not in the manual), and TS6
 *   greets with "Welcome to the TeamSpeak ServerQuery interface" (no "3").
 *
 * Flood protection ([Manual] "Whitelisting and Blacklisting": "Per default, the TeamSpeak 3
 * Server will not allow more than 10 commands within 3 seconds from the same source"): the
 * commands of every session of this fake count together (one source address); the one over the
 * limit and every command during the ban get `error id=524 msg=client\sis\sflooding
 * extra_msg=please\swait\s<n>\sseconds`, the wording servers send (e.g. logged as "client is
 * flooding (please wait 600 seconds)" in Newcomer1989/TSN-Ranksystem#919).
 */
import { generateKeyPairSync } from 'node:crypto';
import net from 'node:net';
import ssh2 from 'ssh2';
import { parseRecords, tsEscape } from './serverquery';
import { sshFingerprint } from './transport';

export interface FakeClient {
  clid: number;
  uid: string;
  name: string;
  type: 0 | 1;
  /** The channel the client is in. */
  cid: number;
}

export interface FakeChannel {
  cid: number;
  pid: number;
  name: string;
  /** channel_flag_semi_permanent / channel_flag_permanent as created (0 and 0: temporary). */
  semiPermanent: boolean;
  permanent: boolean;
}

/** The virtual server's default channel, where clients enter and where deleted channels' clients go. */
export const FAKE_DEFAULT_CHANNEL = 1;

export interface FakeServerQueryOptions {
  /** Password of `serveradmin` (raw `login` and SSH password auth). */
  password?: string;
  /** Flood limit: commands per `floodTimeMs` from this one source (defaults 10 per 3000 ms). */
  floodCommands?: number;
  floodTimeMs?: number;
  /** How long a flooding source is refused, in seconds (said in extra_msg). */
  banSeconds?: number;
  /** The source is on query_ip_allowlist.txt: no flood limit. */
  allowlisted?: boolean;
  /** SSH: send a status record and `error id=0 msg=ok` after the welcome ([Community]). */
  sshStatusAfterWelcome?: boolean;
  /** Greet like TS6 ("TeamSpeak ServerQuery") instead of TS3 ("TeamSpeak 3 ServerQuery"). */
  ts6?: boolean;
}

/** An error reply [id, msg], or null for `error id=0 msg=ok`. */
type Reply = [number, string] | null;

interface Writer {
  write(text: string): void;
  end(): void;
}

let hostKey: { privatePem: string; fingerprint: string } | null = null;

/** One RSA host key per test process, generated on first use (TeamSpeak uses ssh_host_rsa_key). */
export function testHostKey(): { privatePem: string; fingerprint: string } {
  if (!hostKey) {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const parsed = ssh2.utils.parseKey(privateKey);
    if (parsed instanceof Error) throw parsed;
    const key = Array.isArray(parsed) ? parsed[0] : parsed;
    hostKey = { privatePem: privateKey, fingerprint: sshFingerprint(key.getPublicSSH()) };
  }
  return hostKey;
}

export class FakeServerQuery {
  readonly commands: string[] = [];
  readonly messages: Array<{ target: number; msg: string }> = [];
  /** Every successful clientmove: the target channel and the clients moved by it. */
  readonly moves: Array<{ cid: number; clids: number[] }> = [];
  readonly clients: FakeClient[] = [
    { clid: 1, uid: 'serveradmin', name: 'serveradmin', type: 1, cid: FAKE_DEFAULT_CHANNEL },
  ];
  readonly channels: FakeChannel[] = [
    { cid: FAKE_DEFAULT_CHANNEL, pid: 0, name: 'Default Channel', semiPermanent: false, permanent: true },
  ];
  /** Query sessions opened (raw connections plus SSH shells). */
  connections = 0;
  /** SSH connections that reached the handshake (even if the client then refused the host key). */
  sshHandshakes = 0;
  /** 524 answers sent, and commands that arrived while the source was banned. */
  floodErrors = 0;
  commandsWhileBanned = 0;
  /** While true the server reads commands but never answers (a hung server). */
  silent = false;
  rawPort = 0;
  sshPort = 0;
  readonly hostKeyFingerprint: string;
  private readonly raw: net.Server;
  private readonly ssh: ssh2.Server;
  private readonly writers = new Set<Writer>();
  private readonly subscribed = new Set<Writer>();
  /** Sessions registered with `servernotifyregister event=channel id=0` (every channel's events). */
  private readonly channelSubscribed = new Set<Writer>();
  private readonly sockets = new Set<net.Socket>();
  private readonly sshClients = new Set<ssh2.Connection>();
  private received: number[] = [];
  private bannedUntil = 0;
  private nextClid = 10;
  private nextCid = 2;
  private readonly password: string;

  constructor(private readonly opts: FakeServerQueryOptions = {}) {
    this.password = opts.password ?? 'secret';
    const key = testHostKey();
    this.hostKeyFingerprint = key.fingerprint;
    this.raw = net.createServer((socket) => this.onRaw(socket));
    this.ssh = new ssh2.Server({ hostKeys: [key.privatePem] }, (client) => this.onSsh(client));
  }

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.raw.listen(0, '127.0.0.1', r));
    this.rawPort = (this.raw.address() as net.AddressInfo).port;
    await new Promise<void>((r) => this.ssh.listen(0, '127.0.0.1', r));
    this.sshPort = (this.ssh.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    this.dropConnections();
    await new Promise<void>((r) => this.raw.close(() => r()));
    await new Promise<void>((r) => this.ssh.close(() => r()));
  }

  dropConnections(): void {
    for (const s of this.sockets) s.destroy();
    for (const c of this.sshClients) c.end();
  }

  /** A voice client connects: `notifycliententerview` to every subscribed session. */
  /** A permanent channel made by the server's owner (e.g. the parent of match channels). */
  addChannel(name: string, pid = 0): FakeChannel {
    const ch: FakeChannel = { cid: this.nextCid++, pid, name, semiPermanent: false, permanent: true };
    this.channels.push(ch);
    return ch;
  }

  /** The voice client switches channel by itself. */
  switchChannel(clid: number, cid: number): void {
    const c = this.clients.find((x) => x.clid === clid);
    if (!c) return;
    c.cid = cid;
    this.notifyMoved(c, 0);
  }

  /**
   * [Community] a client changing channel is told to sessions registered for channel events as
   * `notifyclientmoved ctid=765 reasonid=0 clid=1` (a query session's log in pastebin.com/ddF8Zyud:
   * `servernotifyregister event=channel id=0`, then `clientmove clid=4 cid=765` answered by
   * `notifyclientmoved ctid=765 reasonid=0 clid=4` before its `error id=0`). reasonid 1 (moved by
   * someone else, with invokerid) is what the client library enums name; not checked here.
   */
  private notifyMoved(c: FakeClient, reasonid: 0 | 1): void {
    const invoker = reasonid === 1 ? ' invokerid=1 invokername=serveradmin invokeruid=serveradmin' : '';
    for (const w of this.channelSubscribed)
      w.write(`notifyclientmoved ctid=${c.cid} reasonid=${reasonid}${invoker} clid=${c.clid}\n\r`);
  }

  enter(uid: string, name: string): FakeClient {
    const c: FakeClient = { clid: this.nextClid++, uid, name, type: 0, cid: FAKE_DEFAULT_CHANNEL };
    this.clients.push(c);
    // [Manual] servernotifyregister: events arrive as `notify<event>` lines, unasked and without
    // an `error` line; the fields are those of clientinfo plus cfid/ctid/reasonid.
    this.notify(
      `notifycliententerview cfid=0 ctid=1 reasonid=0 clid=${c.clid} client_unique_identifier=${tsEscape(uid)} client_nickname=${tsEscape(name)} client_input_muted=0 client_type=0`,
    );
    return c;
  }

  leave(clid: number): void {
    const i = this.clients.findIndex((c) => c.clid === clid);
    if (i >= 0) this.clients.splice(i, 1);
    // [Manual] servernotifyregister: `notifyclientleftview` carries only the clid and the reason.
    this.notify(`notifyclientleftview cfid=1 ctid=0 reasonid=8 reasonmsg=leaving clid=${clid}`);
  }

  private notify(line: string): void {
    for (const w of this.subscribed) w.write(`${line}\n\r`);
  }

  private onRaw(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.on('error', () => undefined);
    const writer: Writer = { write: (t) => socket.write(t), end: () => socket.end() };
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.forget(writer);
    });
    // [Manual] "How to establish a ServerQuery connection": port 10011 (TCP), greeted with a
    // TS3 prompt. It arrives in two chunks here, like on a slow link.
    const rest = this.session(writer, false);
    socket.write(`TS3\n\r${this.welcome().slice(0, 40)}`);
    setTimeout(() => socket.write(`${this.welcome().slice(40)}\n\r`), 5);
    socket.on('data', (chunk) => rest(chunk.toString('utf8')));
  }

  private onSsh(client: ssh2.Connection): void {
    this.sshHandshakes++;
    this.sshClients.add(client);
    client.on('error', () => undefined);
    client.on('close', () => this.sshClients.delete(client));
    // [3.3.0] the SSH login is the query login: user serveradmin, its query password.
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && ctx.username === 'serveradmin' && ctx.password === this.password)
        ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        session.on('pty', (ok) => ok?.());
        session.on('shell', (ok) => {
          const stream = ok();
          const writer: Writer = { write: (t) => stream.write(t), end: () => stream.end() };
          stream.on('close', () => this.forget(writer));
          const rest = this.session(writer, true);
          // Over SSH the same TS3 prompt and welcome as on the raw port ([3.3.0]: the good old query).
          stream.write(`TS3\n\r${this.welcome()}\n\r`);
          if (this.opts.sshStatusAfterWelcome ?? true)
            stream.write(
              'virtualserver_status=unknown virtualserver_id=0 client_id=0\n\rerror id=0 msg=ok\n\r',
            );
          stream.on('data', (chunk: Buffer) => rest(chunk.toString('utf8')));
        });
      });
    });
  }

  private welcome(): string {
    const product = this.opts.ts6 ? 'TeamSpeak' : 'TeamSpeak 3';
    return `Welcome to the ${product} ServerQuery interface, type "help" for a list of commands and "help <command>" for information on a specific command.`;
  }

  private forget(writer: Writer): void {
    this.writers.delete(writer);
    this.subscribed.delete(writer);
    this.channelSubscribed.delete(writer);
  }

  /** [Manual] flood protection, counted over every session (one source address). */
  private floodCheck(now: number): number | null {
    if (this.opts.allowlisted) return null;
    if (now < this.bannedUntil) {
      this.commandsWhileBanned++;
      return Math.ceil((this.bannedUntil - now) / 1000);
    }
    const window = this.opts.floodTimeMs ?? 3_000;
    this.received = this.received.filter((t) => now - t < window);
    this.received.push(now);
    if (this.received.length > (this.opts.floodCommands ?? 10)) {
      const seconds = this.opts.banSeconds ?? 1;
      this.bannedUntil = now + seconds * 1000;
      this.received = [];
      return seconds;
    }
    return null;
  }

  /**
   * [Manual] channelcreate channel_name={channelName} [channel_properties…] → `cid=16`. The parent
   * is `cpid` (0 or absent: top level); [Errors] 768 for a parent that does not exist, 771 when a
   * sibling has the name (names are unique per parent). Without channel_flag_permanent or
   * channel_flag_semi_permanent the channel is temporary.
   */
  private channelCreate(args: Record<string, string>, w: Writer): Reply {
    const pid = Number(args.cpid ?? 0);
    if (!args.channel_name) return [1538, 'invalid parameter'];
    if (pid !== 0 && !this.channels.some((ch) => ch.cid === pid)) return [768, 'invalid channelID'];
    if (this.channels.some((ch) => ch.pid === pid && ch.name === args.channel_name))
      return [771, 'channel name is already in use'];
    const ch: FakeChannel = {
      cid: this.nextCid++,
      pid,
      name: args.channel_name,
      semiPermanent: args.channel_flag_semi_permanent === '1',
      permanent: args.channel_flag_permanent === '1',
    };
    this.channels.push(ch);
    w.write(`cid=${ch.cid}\n\r`);
    return null;
  }

  /**
   * [Manual] channeldelete cid={channelID} force={1|0}: "If force is set to 1, the channel will be
   * deleted even if there are clients within" (they are moved to the default channel); [Errors] 768
   * for an unknown cid, 772 "channel not empty" without force. Sub-channels go with it.
   */
  private channelDelete(args: Record<string, string>): Reply {
    const cid = Number(args.cid);
    if (!this.channels.some((ch) => ch.cid === cid)) return [768, 'invalid channelID'];
    const gone = new Set([cid]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const ch of this.channels)
        if (gone.has(ch.pid) && !gone.has(ch.cid)) {
          gone.add(ch.cid);
          grew = true;
        }
    }
    const inside = this.clients.filter((c) => gone.has(c.cid));
    if (inside.length > 0 && args.force !== '1') return [772, 'channel not empty'];
    for (const c of inside) {
      c.cid = FAKE_DEFAULT_CHANNEL;
      this.notifyMoved(c, 1);
    }
    this.channels.splice(0, this.channels.length, ...this.channels.filter((ch) => !gone.has(ch.cid)));
    return null;
  }

  /**
   * [Manual] clientmove cid={channelID} [cpw=…] clid={clientID}… (`clientmove cid=3 clid=5|clid=6`):
   * [Errors] 768 for an unknown channel, 512 for an unknown clid, 770 when the one client moved is
   * in that channel already. Not checked against a real server: whether one unknown clid among
   * several fails the whole command; here it does, and nobody is moved.
   */
  private clientMove(records: Array<Record<string, string>>): Reply {
    const cid = Number(records[0]?.cid);
    if (!this.channels.some((ch) => ch.cid === cid)) return [768, 'invalid channelID'];
    const targets = records.map((r) => this.clients.find((c) => String(c.clid) === r.clid));
    if (targets.length === 0 || targets.some((c) => c === undefined)) return [512, 'invalid clientID'];
    const found = targets as FakeClient[];
    if (found.length === 1 && found[0].cid === cid) return [770, 'already member of channel'];
    for (const c of found) {
      c.cid = cid;
      this.notifyMoved(c, 1);
    }
    this.moves.push({ cid, clids: found.map((c) => c.clid) });
    return null;
  }

  /** A query session on `w`; returns the function that takes incoming text. */
  private session(w: Writer, viaSsh: boolean): (text: string) => void {
    this.connections++;
    this.writers.add(w);
    let loggedIn = viaSsh;
    let selected = false;
    let buffer = '';
    // [Manual] "Command Syntax": every command ends with `error id=<n> msg=<text>`, id 0 = ok;
    // replies end in "\n\r".
    const ok = () => w.write('error id=0 msg=ok\n\r');
    // [Manual] "Escaping": \\ \/ \s \p \a \b \f \n \r \t \v in parameters and replies.
    const fail = (id: number, msg: string, extra?: string) =>
      w.write(`error id=${id} msg=${tsEscape(msg)}${extra ? ` extra_msg=${tsEscape(extra)}` : ''}\n\r`);
    const reply = (r: Reply) => (r ? fail(r[0], r[1]) : ok());
    const handle = (line: string) => {
      this.commands.push(line);
      const [cmd, ...rest] = line.split(' ');
      if (cmd === 'quit') {
        w.end();
        return;
      }
      if (this.silent) return;
      const banned = this.floodCheck(Date.now());
      if (banned !== null) {
        // [Manual] "Whitelisting and Blacklisting" (10 commands / 3 s, allow list exempt); the
        // reply is id 524 "client is flooding" with the wait in extra_msg, as servers send it.
        this.floodErrors++;
        fail(524, 'client is flooding', `please wait ${banned} seconds`);
        return;
      }
      const records = parseRecords(rest.filter((r) => !r.startsWith('-')).join(' '));
      const args = records[0] ?? {};
      if (cmd === 'login') {
        // [Manual] login client_login_name=… client_login_password=…; 520 on bad credentials.
        if (args.client_login_name === 'serveradmin' && args.client_login_password === this.password) {
          loggedIn = true;
          ok();
        } else fail(520, 'invalid loginname or password');
        return;
      }
      if (!loggedIn) {
        fail(518, 'not logged in');
        return;
      }
      if (cmd === 'use') {
        // [Manual] use sid=…; 1024 "invalid serverID".
        selected = args.sid === '1';
        if (selected) ok();
        else fail(1024, 'invalid serverID');
        return;
      }
      if (!selected && cmd !== 'whoami') {
        fail(1024, 'invalid serverID');
        return;
      }
      switch (cmd) {
        case 'whoami':
          // [Manual] whoami: one record about the query session itself.
          w.write('virtualserver_status=online virtualserver_id=1 client_id=1\n\r');
          ok();
          break;
        case 'clientupdate':
          ok();
          break;
        case 'servernotifyregister':
          // [Manual] servernotifyregister event={server|channel|…} [id={channelID}]: channel events
          // with id=0 cover every channel.
          if (args.event === 'channel') this.channelSubscribed.add(w);
          else this.subscribed.add(w);
          ok();
          break;
        case 'clientlist': {
          // [Manual] clientlist [-uid …]: records joined by `|`; query clients have client_type=1.
          const withUid = rest.includes('-uid');
          const data = this.clients
            .map(
              (c) =>
                `clid=${c.clid} cid=${c.cid} client_database_id=${c.clid} client_nickname=${tsEscape(c.name)} client_type=${c.type}${
                  withUid ? ` client_unique_identifier=${tsEscape(c.uid)}` : ''
                }`,
            )
            .join('|');
          // Data split across two writes to exercise buffering.
          w.write(data.slice(0, 7));
          w.write(`${data.slice(7)}\n\r`);
          ok();
          break;
        }
        case 'sendtextmessage':
          // [Manual] sendtextmessage targetmode=1 target=<clid> msg=…; 512 "invalid clientID".
          if (args.targetmode !== '1' || !this.clients.some((c) => String(c.clid) === args.target)) {
            fail(512, 'invalid clientID');
          } else {
            this.messages.push({ target: Number(args.target), msg: args.msg });
            ok();
          }
          break;
        case 'channellist':
          // [Manual] channellist: `cid=15 pid=0 channel_order=0 channel_name=Default\sChannel
          // … total_clients=2|cid=16 …`.
          w.write(
            `${this.channels
              .map(
                (ch) =>
                  `cid=${ch.cid} pid=${ch.pid} channel_order=0 channel_name=${tsEscape(ch.name)} total_clients=${
                    this.clients.filter((c) => c.cid === ch.cid).length
                  }`,
              )
              .join('|')}\n\r`,
          );
          ok();
          break;
        case 'channelcreate':
          reply(this.channelCreate(args, w));
          break;
        case 'channeldelete':
          reply(this.channelDelete(args));
          break;
        case 'clientmove':
          reply(this.clientMove(records));
          break;
        default:
          fail(256, 'command not found');
      }
    };
    return (text) => {
      buffer += text;
      let nl = buffer.indexOf('\n');
      while (nl !== -1) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
        if (line) handle(line);
      }
    };
  }
}
