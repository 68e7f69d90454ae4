/**
 * Linked accounts: the voice-server link (simulated voice server, codes through the dev outbox,
 * presence → status.patch) and Steam (OpenID 2.0 against a local fake provider and the dev
 * identity provider; signed tickets for login and linking).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  nextEvent,
  type TestApp,
} from '../../../test/helpers';
import { users, voiceLinkCodes } from './schema';

const clock = manualClock();
let t: TestApp;

// --- A fake Steam: OpenID provider (check_authentication) and Web API (GetPlayerSummaries) ---
let fake: Server;
let fakeUrl = '';
let providerSaysValid = true;
const checkRequests: URLSearchParams[] = [];

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let b = '';
    req.on('data', (c) => {
      b += c;
    });
    req.on('end', () => resolve(b));
  });

beforeAll(async () => {
  fake = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'POST' && url.pathname === '/openid/login') {
      const params = new URLSearchParams(await readBody(req));
      checkRequests.push(params);
      const ok =
        providerSaysValid &&
        params.get('openid.mode') === 'check_authentication' &&
        params.get('openid.sig') === 'good-sig';
      res.setHeader('content-type', 'text/plain');
      res.end(`ns:http://specs.openid.net/auth/2.0\nis_valid:${ok ? 'true' : 'false'}\n`);
      return;
    }
    if (url.pathname === '/ISteamUser/GetPlayerSummaries/v0002/') {
      const id = url.searchParams.get('steamids');
      res.setHeader('content-type', 'application/json');
      res.end(
        JSON.stringify({
          response: {
            players: [{ steamid: id, personaname: 'Fake', avatarfull: `https://avatars.example/${id}.jpg` }],
          },
        }),
      );
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  t = await createTestApp({
    clock,
    env: {
      PUBLIC_URL: 'https://pug.example',
      STEAM_OPENID_URL: `${fakeUrl}/openid/login`,
      STEAM_API_KEY: 'k',
      STEAM_API_URL: fakeUrl,
    },
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((r) => fake?.close(() => r()));
});

const row = async (id: string) => (await t.app.ctx.db.select().from(users).where(eq(users.id, id)))[0];
const post = (url: string, token: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: bearer(token), payload });
const voiceOutbox = async (to: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(to)}` })).json()
    .docs as Array<{
    channel: string;
    text: string;
  }>;
const connectIdentity = async (name: string) =>
  (await t.app.inject({ method: 'POST', url: '/api/dev/voice/identities', payload: { name } })).json() as {
    id: string;
    name: string;
  };
const codeFor = async (identity: string) => {
  const [msg] = await voiceOutbox(identity);
  expect(msg.channel).toBe('voice');
  const m = /\b(\d{4})\b/.exec(msg.text);
  if (!m) throw new Error(`no code in ${msg.text}`);
  return m[1];
};
const otherCode = (code: string) => String((Number(code) + 1) % 10000).padStart(4, '0');

describe('voice-server link', () => {
  it('lists connected identities, sends a code, links on the right code and tracks presence', async () => {
    const user = await createTestUser(t.app);
    const patches: unknown[] = [];
    t.app.ctx.bus.on('status.patch', (p) => {
      if (p.userId === user.id) patches.push(p.patch);
    });
    const identity = await connectIdentity('Neo');
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/profile/teamSpeakUsers',
      headers: bearer(user.token),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toContainEqual({ id: identity.id, name: 'Neo' });

    const link = await post('/api/profile/linkTeamSpeak', user.token, { teamSpeakId: identity.id });
    expect(link.statusCode).toBe(200);
    expect(link.json()).toEqual({ success: true });
    const code = await codeFor(identity.id);

    const wrong = await post('/api/profile/teamSpeakCode', user.token, {
      teamSpeakId: identity.id,
      code: otherCode(code),
    });
    expect(wrong.json()).toEqual({ success: false });
    expect((await row(user.id)).teamSpeakId).toBeNull();

    const url = await t.listen();
    const socket = await connectSocket(url, user.token);
    try {
      const update = nextEvent(socket, 'privateUserUpdate');
      const ok = await post('/api/profile/teamSpeakCode', user.token, { teamSpeakId: identity.id, code });
      expect(ok.json()).toEqual({ success: true });
      expect(await update).toEqual({ teamSpeakId: identity.id, teamSpeakName: 'Neo' });
    } finally {
      socket.disconnect();
    }
    expect((await row(user.id)).teamSpeakId).toBe(identity.id);
    expect(patches).toEqual([{ teamSpeak: true }]);
    const profile = await t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(user.token) });
    expect(profile.json()).toMatchObject({ teamSpeakId: identity.id, teamSpeakName: 'Neo' });
    // A linked identity is no longer offered to anyone.
    const other = await createTestUser(t.app);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/profile/teamSpeakUsers',
      headers: bearer(other.token),
    });
    expect(listed.json().map((i: { id: string }) => i.id)).not.toContain(identity.id);
    // ... nor can it be linked by someone else.
    const steal = await post('/api/profile/linkTeamSpeak', other.token, { teamSpeakId: identity.id });
    expect(steal.statusCode).toBe(409);
    expect(steal.json()).toEqual({ errors: { msg: 'TEAMSPEAK_ALREADY_LINKED' } });

    // Presence: leaving and coming back on the voice server.
    const gone = await t.app.inject({
      method: 'DELETE',
      url: `/api/dev/voice/identities/${encodeURIComponent(identity.id)}`,
    });
    expect(gone.statusCode).toBe(200);
    await expect.poll(() => patches).toEqual([{ teamSpeak: true }, { teamSpeak: false }]);

    const unlink = await post('/api/profile/unlinkTeamSpeak', user.token);
    expect(unlink.json()).toEqual({ success: true });
    expect(await row(user.id)).toMatchObject({ teamSpeakId: null, teamSpeakName: null });
  });

  it('refuses unknown identities and bad input, changing nothing', async () => {
    const user = await createTestUser(t.app);
    const before = await row(user.id);
    const notConnected = await post('/api/profile/linkTeamSpeak', user.token, { teamSpeakId: 'nobody=' });
    expect(notConnected.statusCode).toBe(404);
    expect(notConnected.json()).toEqual({ errors: { msg: 'NOT_FOUND' } });
    expect((await post('/api/profile/linkTeamSpeak', user.token, {})).json()).toEqual({
      errors: { msg: 'MISSING' },
    });
    const identity = await connectIdentity('Trinity');
    expect(
      (
        await post('/api/profile/teamSpeakCode', user.token, { teamSpeakId: identity.id, code: '12a4' })
      ).json(),
    ).toEqual({ errors: { msg: 'INVALID_INPUT' } });
    // A code without a pending link.
    expect(
      (
        await post('/api/profile/teamSpeakCode', user.token, { teamSpeakId: identity.id, code: '1234' })
      ).json(),
    ).toEqual({ success: false });
    expect(await row(user.id)).toEqual(before);
  });

  it('a code only fits the identity it was sent to', async () => {
    const user = await createTestUser(t.app);
    const a = await connectIdentity('A');
    const b = await connectIdentity('B');
    await post('/api/profile/linkTeamSpeak', user.token, { teamSpeakId: a.id });
    const code = await codeFor(a.id);
    expect(
      (await post('/api/profile/teamSpeakCode', user.token, { teamSpeakId: b.id, code })).json(),
    ).toEqual({
      success: false,
    });
    expect((await row(user.id)).teamSpeakId).toBeNull();
  });

  it('codes expire after 10 minutes', async () => {
    const user = await createTestUser(t.app, { locale: 'de' });
    const identity = await connectIdentity('Late');
    await post('/api/profile/linkTeamSpeak', user.token, { teamSpeakId: identity.id });
    const [msg] = await voiceOutbox(identity.id);
    expect(msg.text).toMatch(/Bestätigungscode/);
    const code = await codeFor(identity.id);
    clock.advance(10 * 60_000 + 1);
    const res = await post('/api/profile/teamSpeakCode', user.token, { teamSpeakId: identity.id, code });
    expect(res.json()).toEqual({ success: false });
    expect((await row(user.id)).teamSpeakId).toBeNull();
  });

  it('after 5 wrong attempts even the right code is refused; a new code works', async () => {
    const user = await createTestUser(t.app);
    const identity = await connectIdentity('Guesser');
    await post('/api/profile/linkTeamSpeak', user.token, { teamSpeakId: identity.id });
    const code = await codeFor(identity.id);
    for (let i = 0; i < 5; i++) {
      const r = await post('/api/profile/teamSpeakCode', user.token, {
        teamSpeakId: identity.id,
        code: otherCode(code),
      });
      expect(r.json()).toEqual({ success: false });
    }
    expect(
      (await t.app.ctx.db.select().from(voiceLinkCodes).where(eq(voiceLinkCodes.userId, user.id)))[0]
        .attempts,
    ).toBe(5);
    const right = await post('/api/profile/teamSpeakCode', user.token, { teamSpeakId: identity.id, code });
    expect(right.json()).toEqual({ success: false });
    expect((await row(user.id)).teamSpeakId).toBeNull();

    await post('/api/profile/linkTeamSpeak', user.token, { teamSpeakId: identity.id });
    const fresh = await codeFor(identity.id);
    expect(
      (
        await post('/api/profile/teamSpeakCode', user.token, { teamSpeakId: identity.id, code: fresh })
      ).json(),
    ).toEqual({
      success: true,
    });
  });
});

// --- Steam ---

const ID64 = '76561197960287930';
const positiveAssertion = (overrides: Record<string, string> = {}) => {
  const claimed = `${fakeUrl}/openid/id/${ID64}`;
  return {
    'openid.ns': 'http://specs.openid.net/auth/2.0',
    'openid.mode': 'id_res',
    'openid.op_endpoint': `${fakeUrl}/openid/login`,
    'openid.claimed_id': claimed,
    'openid.identity': claimed,
    'openid.return_to': 'https://pug.example/api/steam/return',
    'openid.response_nonce': `${new Date(clock.now()).toISOString().slice(0, 19)}Z${Math.random().toString(36).slice(2)}`,
    'openid.assoc_handle': '1234567890',
    'openid.signed': 'signed,op_endpoint,claimed_id,identity,return_to,response_nonce,assoc_handle',
    'openid.sig': 'good-sig',
    ...overrides,
  };
};
const openIdReturn = (params: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: `/api/steam/return?${new URLSearchParams(params)}` });
const ticketIn = (html: string) => {
  const m = /"steamId":"([^"]+)"/.exec(html);
  return m ? m[1] : null;
};

describe('Steam OpenID', () => {
  it('GET /api/steam redirects to the provider with our return_to and realm', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/steam' });
    expect(res.statusCode).toBe(302);
    const location = new URL(res.headers.location as string);
    expect(`${location.origin}${location.pathname}`).toBe(`${fakeUrl}/openid/login`);
    expect(location.searchParams.get('openid.mode')).toBe('checkid_setup');
    expect(location.searchParams.get('openid.return_to')).toBe('https://pug.example/api/steam/return');
    expect(location.searchParams.get('openid.realm')).toBe('https://pug.example/');
    expect(location.searchParams.get('openid.claimed_id')).toBe(
      'http://specs.openid.net/auth/2.0/identifier_select',
    );
  });

  it('verifies the assertion with the provider and posts a signed ticket to the own origin', async () => {
    checkRequests.length = 0;
    const params = positiveAssertion();
    const res = await openIdReturn(params);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(checkRequests).toHaveLength(1);
    expect(checkRequests[0].get('openid.mode')).toBe('check_authentication');
    expect(checkRequests[0].get('openid.claimed_id')).toBe(params['openid.claimed_id']);
    expect(res.body).toContain('window.opener.postMessage(message, "https://pug.example")');
    const ticket = ticketIn(res.body);
    expect(ticket).toBeTruthy();
    expect(ticket).not.toContain(ID64);
    // Replaying the same assertion is refused.
    const replay = await openIdReturn(params);
    expect(replay.statusCode).toBe(400);
    expect(ticketIn(replay.body)).toBeNull();
  });

  it('refuses a replay on another instance too, and of two racing copies lets exactly one through', async () => {
    const other = await createTestApp({
      clock,
      database: t.database,
      env: {
        PUBLIC_URL: 'https://pug.example',
        STEAM_OPENID_URL: `${fakeUrl}/openid/login`,
        STEAM_API_KEY: 'k',
        STEAM_API_URL: fakeUrl,
      },
    });
    try {
      const params = positiveAssertion();
      expect((await openIdReturn(params)).statusCode).toBe(200);
      const elsewhere = await other.app.inject({
        method: 'GET',
        url: `/api/steam/return?${new URLSearchParams(params)}`,
      });
      expect(elsewhere.statusCode).toBe(400);
      expect(ticketIn(elsewhere.body)).toBeNull();

      const raced = positiveAssertion();
      const answers = await Promise.all([
        openIdReturn(raced),
        other.app.inject({ method: 'GET', url: `/api/steam/return?${new URLSearchParams(raced)}` }),
      ]);
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    } finally {
      await other.app.close();
    }
  });

  it('refuses a forged assertion that the provider rejects, and never asks about a foreign endpoint', async () => {
    checkRequests.length = 0;
    const forged = await openIdReturn(positiveAssertion({ 'openid.sig': 'forged' }));
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('"error":"BAD_TOKEN"');
    expect(ticketIn(forged.body)).toBeNull();
    expect(checkRequests).toHaveLength(1);

    providerSaysValid = false;
    try {
      const rejected = await openIdReturn(positiveAssertion());
      expect(rejected.statusCode).toBe(400);
    } finally {
      providerSaysValid = true;
    }

    checkRequests.length = 0;
    const refusals: Record<string, string>[] = [
      { 'openid.op_endpoint': 'https://evil.example/openid/login' },
      { 'openid.return_to': 'https://evil.example/api/steam/return' },
      { 'openid.claimed_id': 'https://evil.example/openid/id/76561197960287930' },
      { 'openid.mode': 'cancel' },
      { 'openid.response_nonce': '2001-01-01T00:00:00Zold' },
      { 'openid.signed': 'op_endpoint,claimed_id' },
    ];
    for (const bad of refusals) {
      const res = await openIdReturn(positiveAssertion(bad));
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect(checkRequests).toHaveLength(0);
  });

  it('logs in (creating the account once) with the ticket; tampered and expired tickets are refused', async () => {
    const ticket = ticketIn((await openIdReturn(positiveAssertion())).body) as string;
    const count = async () => (await t.app.ctx.db.select().from(users)).length;
    const before = await count();

    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/steam/login',
      payload: { steamId: `${ticket.slice(0, -2)}xx` },
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
    const bare = await t.app.inject({ method: 'POST', url: '/api/steam/login', payload: { steamId: ID64 } });
    expect(bare.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
    const session = await createTestUser(t.app);
    const wrongKind = await t.app.inject({
      method: 'POST',
      url: '/api/steam/login',
      payload: { steamId: session.token },
    });
    expect(wrongKind.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
    expect(await count()).toBe(before + 1); // only the session user above

    const res = await t.app.inject({ method: 'POST', url: '/api/steam/login', payload: { steamId: ticket } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      token: expect.any(String),
      matrix: expect.anything(), // filled by the chat module (setMatrixSessionProvider)
      user: {
        name: null,
        steamId: ID64,
        csgoId: 'STEAM_0:0:11101',
        steamUrl: `https://steamcommunity.com/profiles/${ID64}`,
        avatar: `https://avatars.example/${ID64}.jpg`,
      },
    });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/steam/login',
      payload: { steamId: ticket },
    });
    expect(again.json().user._id).toBe(res.json().user._id);
    expect(await count()).toBe(before + 2);

    clock.advance(5 * 60_000 + 1000);
    const expired = await t.app.inject({
      method: 'POST',
      url: '/api/steam/login',
      payload: { steamId: ticket },
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
  });

  it('links Steam to the logged-in account; an id linked elsewhere is STEAM_ALREADY_EXIST', async () => {
    const id64 = '76561198000000001';
    const claimed = `${fakeUrl}/openid/id/${id64}`;
    const ticket = ticketIn(
      (await openIdReturn(positiveAssertion({ 'openid.claimed_id': claimed, 'openid.identity': claimed })))
        .body,
    ) as string;
    const owner = await createTestUser(t.app);
    const linked = await post('/api/steam', owner.token, { steamId: ticket });
    expect(linked.statusCode).toBe(200);
    expect(linked.json()).toMatchObject({
      _id: owner.id,
      steamId: id64,
      steamUrl: `https://steamcommunity.com/profiles/${id64}`,
    });

    const other = await createTestUser(t.app);
    const before = await row(other.id);
    const taken = await post('/api/steam', other.token, { steamId: ticket });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ errors: { msg: 'STEAM_ALREADY_EXIST' } });
    const bad = await post('/api/steam', other.token, { steamId: 'garbage' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ errors: { msg: 'BAD_TOKEN' } });
    expect(await row(other.id)).toEqual(before);
  });
});

describe('dev identity provider', () => {
  it('stands in for Steam through the same OpenID return handler', async () => {
    const { createServer: netServer } = await import('node:net');
    const port = await new Promise<number>((resolve) => {
      const s = netServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const base = `http://127.0.0.1:${port}`;
    const dev = await createTestApp({ env: { PUBLIC_URL: base } });
    try {
      await dev.app.listen({ port, host: '127.0.0.1' });
      const start = await fetch(`${base}/api/steam`, { redirect: 'manual' });
      expect(start.status).toBe(302);
      const providerPage = start.headers.get('location') as string;
      expect(providerPage.startsWith(`${base}/api/dev/openid/login?`)).toBe(true);
      const page = await (await fetch(providerPage)).text();
      expect(page).toContain('Dev identity');
      const approve = new URL(`${base}/api/dev/openid/approve`);
      approve.searchParams.set('return_to', `${base}/api/steam/return`);
      approve.searchParams.set('steamId', '76561198000000042');
      const assertion = await fetch(approve, { redirect: 'manual' });
      expect(assertion.status).toBe(302);
      const back = new URL(assertion.headers.get('location') as string);
      expect(`${back.origin}${back.pathname}`).toBe(`${base}/api/steam/return`);

      // Tampering with the signed claimed id makes the provider say is_valid:false. (A nonce is
      // used up before the provider is asked, so the forgery gets an assertion of its own.)
      const other = await fetch(approve, { redirect: 'manual' });
      const forged = new URL(other.headers.get('location') as string);
      const claimed = (forged.searchParams.get('openid.claimed_id') as string).replace(
        /\d{17}$/,
        '76561198000000099',
      );
      forged.searchParams.set('openid.claimed_id', claimed);
      forged.searchParams.set('openid.identity', claimed);
      const refused = await fetch(forged);
      expect(refused.status).toBe(400);

      const ret = await fetch(back);
      expect(ret.status).toBe(200);
      const html = await ret.text();
      expect(html).toContain(`window.opener.postMessage(message, "${base}")`);
      const ticket = ticketIn(html) as string;
      const login = await fetch(`${base}/api/steam/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ steamId: ticket }),
      });
      expect(login.status).toBe(200);
      expect(((await login.json()) as { user: { steamId: string } }).user.steamId).toBe('76561198000000042');
      // The same assertion cannot be used twice.
      expect((await fetch(back)).status).toBe(400);
    } finally {
      await dev.close();
    }
  });
});
