/**
 * The TeamSpeak ServerQuery client against a local fake (./fake-serverquery.ts) that speaks the
 * ServerQuery text protocol over raw TCP and over SSH (greeting, login, use, clientlist -uid,
 * sendtextmessage, servernotifyregister events, keepalive, escaping, flood protection), and the
 * voice link of the accounts API running on it.
 */
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser } from '../../../test/helpers';
import { users } from '../accounts/schema';
import { FakeServerQuery, type FakeServerQueryOptions } from './fake-serverquery';
import {
  floodWaitSeconds,
  parseRecords,
  ServerQueryError,
  type TeamSpeakOptions,
  TeamSpeakVoiceServer,
  tsEscape,
  tsUnescape,
} from './serverquery';
import { HostKeyMismatchError, sameFingerprint } from './transport';
import {
  VoiceIdentityNotConnectedError,
  type VoicePresenceEvent,
  VoiceServerUnavailableError,
} from './types';

let fake: FakeServerQuery | null = null;
let voice: TeamSpeakVoiceServer | null = null;
afterEach(async () => {
  await voice?.close();
  await fake?.close();
  voice = null;
  fake = null;
});

/** A log that keeps what it was told. */
const memoryLog = () => {
  const lines: Array<{ level: string; obj: object; msg: string }> = [];
  const at = (level: string) => (obj: object, msg: string) => {
    lines.push({ level, obj, msg });
  };
  return { lines, info: at('info'), warn: at('warn'), error: at('error') };
};

const startWith = async (
  options: Partial<TeamSpeakOptions> & { protocol?: 'raw' | 'ssh' } = {},
  fakeOptions: FakeServerQueryOptions = {},
) => {
  fake = new FakeServerQuery(fakeOptions);
  await fake.listen();
  const log = memoryLog();
  voice = new TeamSpeakVoiceServer({
    host: '127.0.0.1',
    port: options.protocol === 'ssh' ? fake.sshPort : fake.rawPort,
    username: 'serveradmin',
    password: 'secret',
    sid: 1,
    nickname: 'openpug bot',
    keepaliveMs: 0,
    reconnectMs: 20,
    log,
    ...options,
  });
  const events: VoicePresenceEvent[] = [];
  voice.onPresence((e) => {
    events.push(e);
  });
  await voice.start();
  return { fake, voice, events, log };
};

const start = (password = 'secret', keepaliveMs = 0) => startWith({ password, keepaliveMs });

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

describe('ServerQuery over SSH', () => {
  it('logs in with the SSH login (no login command), skips stray welcome lines and logs the host key once', async () => {
    const { fake, voice, events, log } = await startWith({ protocol: 'ssh' });
    fake.enter('uid+ssh=', 'Trinity');
    await voice.ready();
    expect(fake.commands.slice(0, 4)).toEqual([
      'use sid=1',
      'clientupdate client_nickname=openpug\\sbot',
      'servernotifyregister event=server',
      'clientlist -uid',
    ]);
    expect(fake.commands.some((c) => c.startsWith('login'))).toBe(false);
    expect(await voice.listClients()).toEqual([{ id: 'uid+ssh=', name: 'Trinity' }]);
    await expect.poll(() => events).toEqual([{ id: 'uid+ssh=', name: 'Trinity', online: true }]);
    const seen = log.lines.filter((l) => l.msg.includes('host key not pinned'));
    expect(seen).toHaveLength(1);
    expect(seen[0].obj).toMatchObject({ fingerprint: fake.hostKeyFingerprint });
    expect(fake.hostKeyFingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    // A reconnect does not log it again.
    fake.dropConnections();
    await expect.poll(() => fake.connections).toBe(2);
    await voice.ready();
    expect(log.lines.filter((l) => l.msg.includes('host key not pinned'))).toHaveLength(1);
  });

  it('greets like TeamSpeak 6 and works without stray lines too', async () => {
    const { fake, voice } = await startWith({ protocol: 'ssh' }, { ts6: true, sshStatusAfterWelcome: false });
    fake.enter('uid-ts6', 'Six');
    await voice.ready();
    expect(await voice.listClients()).toEqual([{ id: 'uid-ts6', name: 'Six' }]);
  });

  it('connects with a pinned host key and refuses a server whose key does not match', async () => {
    fake = new FakeServerQuery();
    await fake.listen();
    const pinned = new TeamSpeakVoiceServer({
      protocol: 'ssh',
      host: '127.0.0.1',
      port: fake.sshPort,
      username: 'serveradmin',
      password: 'secret',
      sid: 1,
      nickname: 'bot',
      keepaliveMs: 0,
      sshHostKey: fake.hostKeyFingerprint.replace(/^SHA256:/, ''),
    });
    await pinned.start();
    await pinned.ready();
    await pinned.close();
    expect(fake.connections).toBe(1);

    const log = memoryLog();
    voice = new TeamSpeakVoiceServer({
      protocol: 'ssh',
      host: '127.0.0.1',
      port: fake.sshPort,
      username: 'serveradmin',
      password: 'secret',
      sid: 1,
      nickname: 'bot',
      keepaliveMs: 0,
      reconnectMs: 20,
      sshHostKey: 'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      log,
    });
    await voice.start();
    await expect.poll(() => fake?.sshHandshakes).toBeGreaterThan(2);
    // The handshake happened, but no query session was ever opened and no password was tried.
    expect(fake.connections).toBe(1);
    const refused = log.lines.find((l) => (l.obj as { err?: unknown }).err instanceof HostKeyMismatchError);
    expect(refused?.level).toBe('error');
    expect((refused?.obj as { err?: Error } | undefined)?.err?.message).toContain(fake.hostKeyFingerprint);
    await expect(voice.listClients()).rejects.toBeInstanceOf(VoiceServerUnavailableError);
  });

  it('compares fingerprints with or without the SHA256: prefix and padding', () => {
    expect(sameFingerprint('SHA256:abc', 'SHA256:abc')).toBe(true);
    expect(sameFingerprint('abc=', 'SHA256:abc')).toBe(true);
    expect(sameFingerprint('SHA256:abd', 'SHA256:abc')).toBe(false);
  });
});

describe('ServerQuery time-outs', () => {
  it('fails a command the server never answers, fails the queued ones too and works again after the reconnect', async () => {
    const { fake, voice } = await startWith({ timeoutMs: 300 });
    const a = fake.enter('uid-t', 'Tank');
    await voice.ready();
    await expect.poll(() => voice.isConnected('uid-t')).toBe(true);
    fake.silent = true;
    const began = Date.now();
    const first = voice.sendPrivateMessage('uid-t', 'one');
    const queued = voice.sendPrivateMessage('uid-t', 'two');
    const err = await first.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VoiceServerUnavailableError);
    expect((err as Error).message).toMatch(/"sendtextmessage" got no answer within 300 ms; connection reset/);
    expect(Date.now() - began).toBeGreaterThanOrEqual(280);
    await expect(queued).rejects.toBeInstanceOf(VoiceServerUnavailableError);
    fake.silent = false;
    await expect.poll(() => fake.connections).toBe(2);
    await voice.ready();
    await voice.sendPrivateMessage('uid-t', 'three');
    expect(fake.messages).toEqual([{ target: a.clid, msg: 'three' }]);
  });
});

describe('ServerQuery flood protection', () => {
  it('reads the wait from error 524', () => {
    const err = new ServerQueryError(524, 'client is flooding', 'please wait 600 seconds');
    expect(floodWaitSeconds(err)).toBe(600);
    expect(
      parseRecords('id=524 msg=client\\sis\\sflooding extra_msg=please\\swait\\s2\\sseconds')[0],
    ).toEqual({
      id: '524',
      msg: 'client is flooding',
      extra_msg: 'please wait 2 seconds',
    });
  });

  it('sends nothing while banned after a 524 and re-sends the refused command when the ban ends', async () => {
    // The server allows fewer commands than the client expects (an admin lowered the limit).
    const { fake, voice } = await startWith({}, { floodCommands: 3, banSeconds: 1 });
    const began = Date.now();
    fake.enter('uid-f', 'Flood');
    await voice.ready();
    expect(fake.floodErrors).toBe(1);
    expect(fake.commandsWhileBanned).toBe(0);
    expect(Date.now() - began).toBeGreaterThanOrEqual(1_000);
    expect(fake.commands.filter((c) => c === 'servernotifyregister event=server')).toHaveLength(2);
    expect(await voice.listClients()).toEqual([{ id: 'uid-f', name: 'Flood' }]);
  });

  it('fails at once, sending nothing, while a long ban lasts', async () => {
    const { fake, voice } = await startWith({}, { floodCommands: 6, banSeconds: 600 });
    fake.enter('uid-g', 'Ghost');
    await voice.ready();
    await expect.poll(() => voice.isConnected('uid-g')).toBe(true);
    await voice.sendPrivateMessage('uid-g', 'sixth command');
    const err = await voice.sendPrivateMessage('uid-g', 'seventh command').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(VoiceServerUnavailableError);
    expect((err as Error).message).toMatch(/flood protection: nothing is sent for another 60\d s/);
    const sent = fake.commands.length;
    await expect(voice.sendPrivateMessage('uid-g', 'eighth')).rejects.toBeInstanceOf(
      VoiceServerUnavailableError,
    );
    expect(fake.commands.length).toBe(sent);
    expect(fake.floodErrors).toBe(1);
    expect(fake.commandsWhileBanned).toBe(0);
    expect(voice.limiter.heldFor()).toBeGreaterThan(590_000);
  });

  it('reads clientlist at most once per 2 s whatever the traffic', async () => {
    const { fake, voice } = await startWith();
    fake.enter('uid-c', 'Cache');
    await voice.ready();
    const lists = () => fake.commands.filter((c) => c === 'clientlist -uid').length;
    const results = await Promise.all(Array.from({ length: 50 }, () => voice.listClients()));
    expect(results.every((r) => r.length === 1)).toBe(true);
    expect(lists()).toBe(1);
    // Someone not in the cached view: one fresh read at the next allowed moment, shared by all.
    const began = Date.now();
    await Promise.all(
      Array.from({ length: 5 }, () =>
        expect(voice.sendPrivateMessage('nobody', 'x')).rejects.toBeInstanceOf(
          VoiceIdentityNotConnectedError,
        ),
      ),
    );
    expect(lists()).toBe(2);
    expect(Date.now() - began).toBeLessThan(2_500);
  });

  it('skips the client-side limit when allow-listed', async () => {
    const { fake, voice } = await startWith({ allowlisted: true }, { allowlisted: true });
    fake.enter('uid-a', 'Allowed');
    await voice.ready();
    await expect.poll(() => voice.isConnected('uid-a')).toBe(true);
    const began = Date.now();
    await Promise.all(Array.from({ length: 30 }, (_, i) => voice.sendPrivateMessage('uid-a', `m${i}`)));
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(fake.messages).toHaveLength(30);
  });
});

describe.each(['raw', 'ssh'] as const)('voice link through ServerQuery over %s', (protocol) => {
  const appWith = async (fq: FakeServerQuery, extra: Record<string, string> = {}) =>
    createTestApp({
      env: {
        TEAMSPEAK_HOST: '127.0.0.1',
        TEAMSPEAK_QUERY_PROTOCOL: protocol,
        TEAMSPEAK_QUERY_PORT: String(protocol === 'ssh' ? fq.sshPort : fq.rawPort),
        TEAMSPEAK_PASSWORD: 'pw',
        ...(protocol === 'ssh' ? { TEAMSPEAK_SSH_HOST_KEY: fq.hostKeyFingerprint } : {}),
        ...extra,
      },
    });

  it('links an identity with the code the bot sent over TeamSpeak, and tracks its presence', async () => {
    const fq = new FakeServerQuery({ password: 'pw' });
    fake = fq;
    await fq.listen();
    const t = await appWith(fq);
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
      await expect.poll(() => t.app.ctx.voice.isConnected('ts-identity=')).toBe(true);
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
      expect(fq.commands.some((c) => c.startsWith('login'))).toBe(protocol === 'raw');
      expect(fq.floodErrors).toBe(0);
    } finally {
      await t.close();
    }
  });

  if (protocol === 'ssh')
    it('serves 30 players opening the link dialog at once within the flood limit', async () => {
      const fq = new FakeServerQuery({ password: 'pw' });
      fake = fq;
      await fq.listen();
      const t = await appWith(fq);
      try {
        await t.app.ready();
        await (t.app.ctx.voice as TeamSpeakVoiceServer).ready();
        const players = await Promise.all(
          Array.from({ length: 30 }, async (_, i) => ({
            user: await createTestUser(t.app),
            client: fq.enter(`ts-${i}=`, `Player ${i}`),
          })),
        );
        await expect.poll(() => t.app.ctx.voice.isConnected('ts-29=')).toBe(true);
        const began = Date.now();
        const results = await Promise.all(
          players.map(async ({ user }, i) => {
            const list = await t.app.inject({
              method: 'GET',
              url: '/api/profile/teamSpeakUsers',
              headers: bearer(user.token),
            });
            const link = await t.app.inject({
              method: 'POST',
              url: '/api/profile/linkTeamSpeak',
              headers: bearer(user.token),
              payload: { teamSpeakId: `ts-${i}=` },
            });
            return { list: list.statusCode, count: list.json().length, link: link.json() };
          }),
        );
        const elapsed = Date.now() - began;
        expect(results.every((r) => r.list === 200 && r.count >= 1)).toBe(true);
        expect(results.every((r) => r.link.success === true)).toBe(true);
        expect(fq.floodErrors).toBe(0);
        expect(fq.messages.map((m) => m.target).sort()).toEqual(players.map((p) => p.client.clid).sort());
        // 30 dialogs, yet clientlist was read at most once per 2 s.
        const lists = fq.commands.filter((c) => c === 'clientlist -uid').length;
        expect(lists).toBeLessThanOrEqual(1 + Math.ceil(elapsed / 2_000));
      } finally {
        await t.close();
      }
    });
});

describe('voice server unavailable', () => {
  it('answers 503 VOICE_SERVER_UNAVAILABLE at once while ServerQuery is not connected', async () => {
    fake = new FakeServerQuery({ password: 'pw' });
    await fake.listen();
    const port = fake.sshPort;
    await fake.close();
    fake = null;
    const t = await createTestApp({
      env: {
        TEAMSPEAK_HOST: '127.0.0.1',
        TEAMSPEAK_QUERY_PROTOCOL: 'ssh',
        TEAMSPEAK_QUERY_PORT: String(port),
      },
    });
    try {
      await t.app.ready();
      const user = await createTestUser(t.app);
      const list = await t.app.inject({
        method: 'GET',
        url: '/api/profile/teamSpeakUsers',
        headers: bearer(user.token),
      });
      expect(list.statusCode).toBe(503);
      expect(list.json()).toEqual({ errors: { msg: 'VOICE_SERVER_UNAVAILABLE' } });
    } finally {
      await t.close();
    }
  });
});
