/**
 * The TeamSpeak ServerQuery client against a local fake that speaks the ServerQuery text
 * protocol (greeting, login, use, clientlist -uid, sendtextmessage, servernotifyregister events,
 * keepalive, escaping), and the voice link of the accounts API running on it.
 */
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser } from '../../../test/helpers';
import { users } from '../accounts/schema';
import { parseRecords, TeamSpeakVoiceServer, tsEscape, tsUnescape } from './serverquery';
import { VoiceIdentityNotConnectedError, type VoicePresenceEvent } from './types';

interface FakeClient {
  clid: number;
  uid: string;
  name: string;
  type: 0 | 1;
}

/** A fake TeamSpeak server's query interface. */
class FakeServerQuery {
  readonly server: net.Server;
  readonly commands: string[] = [];
  readonly messages: Array<{ target: number; msg: string }> = [];
  readonly clients: FakeClient[] = [{ clid: 1, uid: 'serveradmin', name: 'serveradmin', type: 1 }];
  connections = 0;
  private nextClid = 10;
  private readonly subscribed = new Set<net.Socket>();
  private readonly sockets = new Set<net.Socket>();
  port = 0;

  constructor(private readonly password = 'secret') {
    this.server = net.createServer((socket) => this.onConnection(socket));
  }

  async listen(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }

  dropConnections(): void {
    for (const s of this.sockets) s.destroy();
  }

  enter(uid: string, name: string): FakeClient {
    const c: FakeClient = { clid: this.nextClid++, uid, name, type: 0 };
    this.clients.push(c);
    this.notify(
      `notifycliententerview cfid=0 ctid=1 reasonid=0 clid=${c.clid} client_unique_identifier=${tsEscape(uid)} client_nickname=${tsEscape(name)} client_input_muted=0 client_type=0`,
    );
    return c;
  }

  leave(clid: number): void {
    const i = this.clients.findIndex((c) => c.clid === clid);
    if (i >= 0) this.clients.splice(i, 1);
    this.notify(`notifyclientleftview cfid=1 ctid=0 reasonid=8 reasonmsg=leaving clid=${clid}`);
  }

  private notify(line: string): void {
    for (const s of this.subscribed) s.write(`${line}\n\r`);
  }

  private onConnection(socket: net.Socket): void {
    this.connections++;
    this.sockets.add(socket);
    socket.on('close', () => {
      this.sockets.delete(socket);
      this.subscribed.delete(socket);
    });
    socket.on('error', () => undefined);
    let loggedIn = false;
    let selected = false;
    let buffer = '';
    // The greeting arrives in two chunks, like on a slow link.
    socket.write(
      'TS3\n\rWelcome to the TeamSpeak 3 ServerQuery interface, type "help" for a list of commands ',
    );
    setTimeout(() => socket.write('and "help <command>" for information on a specific command.\n\r'), 5);
    const ok = () => socket.write('error id=0 msg=ok\n\r');
    const fail = (id: number, msg: string) => socket.write(`error id=${id} msg=${tsEscape(msg)}\n\r`);
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let nl = buffer.indexOf('\n');
      while (nl !== -1) {
        const line = buffer.slice(0, nl).replace(/\r$/, '');
        buffer = buffer.slice(nl + 1);
        nl = buffer.indexOf('\n');
        this.commands.push(line);
        const [cmd, ...rest] = line.split(' ');
        const args = parseRecords(rest.filter((r) => !r.startsWith('-')).join(' '))[0] ?? {};
        if (cmd === 'quit') {
          socket.end();
          return;
        }
        if (cmd === 'login') {
          if (args.client_login_name === 'serveradmin' && args.client_login_password === this.password) {
            loggedIn = true;
            ok();
          } else fail(520, 'invalid loginname or password');
          continue;
        }
        if (!loggedIn) {
          fail(518, 'not logged in');
          continue;
        }
        if (cmd === 'use') {
          selected = args.sid === '1';
          if (selected) ok();
          else fail(1024, 'invalid serverID');
          continue;
        }
        if (!selected && cmd !== 'whoami') {
          fail(1024, 'invalid serverID');
          continue;
        }
        switch (cmd) {
          case 'whoami':
            socket.write('virtualserver_status=online virtualserver_id=1 client_id=1\n\r');
            ok();
            break;
          case 'clientupdate':
            ok();
            break;
          case 'servernotifyregister':
            this.subscribed.add(socket);
            ok();
            break;
          case 'clientlist': {
            const withUid = rest.includes('-uid');
            const records = this.clients.map(
              (c) =>
                `clid=${c.clid} cid=1 client_database_id=${c.clid} client_nickname=${tsEscape(c.name)} client_type=${c.type}${
                  withUid ? ` client_unique_identifier=${tsEscape(c.uid)}` : ''
                }`,
            );
            // Data split across two writes to exercise buffering.
            const data = records.join('|');
            socket.write(data.slice(0, 7));
            socket.write(`${data.slice(7)}\n\r`);
            ok();
            break;
          }
          case 'sendtextmessage':
            if (args.targetmode !== '1' || !this.clients.some((c) => String(c.clid) === args.target)) {
              fail(512, 'invalid clientID');
            } else {
              this.messages.push({ target: Number(args.target), msg: args.msg });
              ok();
            }
            break;
          default:
            fail(256, 'command not found');
        }
      }
    });
  }
}

let fake: FakeServerQuery | null = null;
let voice: TeamSpeakVoiceServer | null = null;
afterEach(async () => {
  await voice?.close();
  await fake?.close();
  voice = null;
  fake = null;
});

const start = async (password = 'secret', keepaliveMs = 0) => {
  fake = new FakeServerQuery();
  await fake.listen();
  voice = new TeamSpeakVoiceServer({
    host: '127.0.0.1',
    port: fake.port,
    username: 'serveradmin',
    password,
    sid: 1,
    nickname: 'openpug bot',
    keepaliveMs,
    reconnectMs: 20,
  });
  const events: VoicePresenceEvent[] = [];
  voice.onPresence((e) => {
    events.push(e);
  });
  await voice.start();
  return { fake, voice, events };
};

describe('ServerQuery escaping', () => {
  it('escapes and unescapes every special character', () => {
    const raw = 'a b|c/d\\e\nf\tg\rh\x07\b\f\v';
    expect(tsEscape(raw)).toBe('a\\sb\\pc\\/d\\\\e\\nf\\tg\\rh\\a\\b\\f\\v');
    expect(tsUnescape(tsEscape(raw))).toBe(raw);
    expect(parseRecords('clid=1 client_nickname=Mr\\sSmith|clid=2 client_nickname=a\\pb -flag')).toEqual([
      { clid: '1', client_nickname: 'Mr Smith' },
      { clid: '2', client_nickname: 'a|b', '-flag': '' },
    ]);
  });
});

describe('TeamSpeak voice server over ServerQuery', () => {
  it('logs in, selects the server, registers for events and lists voice clients only', async () => {
    const { fake, voice, events } = await start();
    fake.enter('uid+one=', 'Mr Smith');
    await voice.ready();
    expect(fake.commands.slice(0, 5)).toEqual([
      'login client_login_name=serveradmin client_login_password=secret',
      'use sid=1',
      'clientupdate client_nickname=openpug\\sbot',
      'servernotifyregister event=server',
      'clientlist -uid',
    ]);
    expect(await voice.listClients()).toEqual([{ id: 'uid+one=', name: 'Mr Smith' }]);
    expect(await voice.isConnected('uid+one=')).toBe(true);
    expect(await voice.isConnected('serveradmin')).toBe(false);
    expect(events).toEqual([{ id: 'uid+one=', name: 'Mr Smith', online: true }]);
  });

  it('sends private messages with targetmode=1 to every client of the identity', async () => {
    const { fake, voice } = await start();
    await voice.ready();
    const a = fake.enter('uid/two', 'Two');
    const b = fake.enter('uid/two', 'Two (2)');
    await voice.sendPrivateMessage('uid/two', 'Your code is: 1234 | ok');
    expect(fake.messages).toEqual([
      { target: a.clid, msg: 'Your code is: 1234 | ok' },
      { target: b.clid, msg: 'Your code is: 1234 | ok' },
    ]);
    expect(fake.commands).toContain(
      `sendtextmessage targetmode=1 target=${a.clid} msg=Your\\scode\\sis:\\s1234\\s\\p\\sok`,
    );
    await expect(voice.sendPrivateMessage('nobody', 'hi')).rejects.toBeInstanceOf(
      VoiceIdentityNotConnectedError,
    );
  });

  it('reports identities entering and leaving from server notifications', async () => {
    const { fake, voice, events } = await start();
    await voice.ready();
    const first = fake.enter('uid-3', 'Three');
    const second = fake.enter('uid-3', 'Three again');
    await expect.poll(() => events.length).toBe(1);
    fake.leave(first.clid);
    fake.leave(second.clid);
    await expect
      .poll(() => events)
      .toEqual([
        { id: 'uid-3', name: 'Three', online: true },
        { id: 'uid-3', name: 'Three again', online: false },
      ]);
    expect(await voice.isConnected('uid-3')).toBe(false);
  });

  it('keeps the connection alive and reconnects after a drop', async () => {
    const { fake, voice, events } = await start('secret', 20);
    fake.enter('uid-4', 'Four');
    await voice.ready();
    await expect.poll(() => fake.commands.filter((c) => c === 'whoami').length).toBeGreaterThan(0);
    fake.dropConnections();
    await expect.poll(() => events.map((e) => e.online)).toEqual([true, false, true]);
    expect(fake.connections).toBe(2);
    expect(await voice.listClients()).toEqual([{ id: 'uid-4', name: 'Four' }]);
  });

  it('keeps retrying with a wrong password and never throws at start', async () => {
    const { fake, voice } = await start('wrong');
    await expect.poll(() => fake.connections).toBeGreaterThan(1);
    expect(fake.commands.filter((c) => c.startsWith('login'))[0]).toBe(
      'login client_login_name=serveradmin client_login_password=wrong',
    );
    await expect(voice.listClients()).rejects.toThrow();
  });
});

describe('voice link through ServerQuery', () => {
  it('links an identity with the code the bot sent over TeamSpeak, and tracks its presence', async () => {
    const fq = new FakeServerQuery('pw');
    fake = fq;
    await fq.listen();
    const t = await createTestApp({
      env: { TEAMSPEAK_HOST: '127.0.0.1', TEAMSPEAK_QUERY_PORT: String(fq.port), TEAMSPEAK_PASSWORD: 'pw' },
    });
    try {
      await t.app.ready();
      expect(t.app.ctx.voice.kind).toBe('teamspeak');
      await (t.app.ctx.voice as TeamSpeakVoiceServer).ready();
      const client = fq.enter('ts-identity=', 'Morpheus');
      const user = await createTestUser(t.app);
      const patches: unknown[] = [];
      t.app.ctx.bus.on('status.patch', (p) => {
        if (p.userId === user.id) patches.push(p.patch);
      });
      const list = await t.app.inject({
        method: 'GET',
        url: '/api/profile/teamSpeakUsers',
        headers: bearer(user.token),
      });
      expect(list.json()).toEqual([{ id: 'ts-identity=', name: 'Morpheus' }]);
      const link = await t.app.inject({
        method: 'POST',
        url: '/api/profile/linkTeamSpeak',
        headers: bearer(user.token),
        payload: { teamSpeakId: 'ts-identity=' },
      });
      expect(link.json()).toEqual({ success: true });
      expect(fq.messages).toHaveLength(1);
      expect(fq.messages[0].target).toBe(client.clid);
      const code = /\b(\d{4})\b/.exec(fq.messages[0].msg)?.[1] as string;
      // The simulated outbox is not used with a real voice server.
      const out = await t.app.inject({ method: 'GET', url: '/api/dev/outbox?to=ts-identity%3D' });
      expect(out.json().docs).toEqual([]);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/profile/teamSpeakCode',
        headers: bearer(user.token),
        payload: { teamSpeakId: 'ts-identity=', code },
      });
      expect(res.json()).toEqual({ success: true });
      expect((await t.app.ctx.db.select().from(users).where(eq(users.id, user.id)))[0].teamSpeakId).toBe(
        'ts-identity=',
      );
      fq.leave(client.clid);
      await expect.poll(() => patches).toEqual([{ teamSpeak: true }, { teamSpeak: false }]);
      // The dev route for simulated identities refuses with a real voice server.
      const dev = await t.app.inject({
        method: 'POST',
        url: '/api/dev/voice/identities',
        payload: { name: 'x' },
      });
      expect(dev.statusCode).toBe(400);
    } finally {
      await t.close();
    }
  });
});
