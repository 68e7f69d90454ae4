/**
 * Mobile queue app: one-time login links (bound to the user, used once, short-lived, never the
 * session token), push subscriptions, and Web Push signing/encryption against a local fake push
 * service that verifies the VAPID JWT and decrypts the payload.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  nextEvent,
  openTestDatabase,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { pushSubscriptions } from '../../db/schema';
import { withRetries } from '../notify/deliver';
import { COUNT_BROADCAST_MS, joinQueue, leaveQueue } from '../queue/service';
import { startFakePushService } from './fake-push';
import { MOBILE_LINK_TTL_MS } from './links';
import { loadVapidKeys, sendPush, vapidKeys, vapidSubject } from './push';
import { vapidKeyPair } from './schema';

const clock = manualClock();
let t: TestApp;
let push: Awaited<ReturnType<typeof startFakePushService>>;

beforeAll(async () => {
  push = await startFakePushService();
  // The fake push service is plain http on loopback, which only OUTBOUND_ALLOW lets through.
  const fake = new URL(push.url);
  t = await createTestApp({ clock, env: { PUBLIC_URL: 'https://pug.example', OUTBOUND_ALLOW: fake.host } });
});
afterAll(async () => {
  // The queue's coalesced count broadcast reads the database shortly after a change.
  await new Promise((r) => setTimeout(r, COUNT_BROADCAST_MS * 3));
  await t.close();
  await push.close();
});

const link = async (u: TestUser) =>
  (await t.app.inject({ method: 'POST', url: '/api/mobile/link', headers: bearer(u.token) })).json() as {
    url: string;
    expiresAt: number;
  };
const params = (url: string) => Object.fromEntries(new URL(url).searchParams) as { u: string; t: string };
const exchange = (body: object) =>
  t.app.inject({ method: 'POST', url: '/api/mobile/exchange', payload: body });

describe('one-time mobile login links', () => {
  it('signs the phone in once, as the user the link was made for', async () => {
    const u = await createTestUser(t.app);
    const { url, expiresAt } = await link(u);
    expect(url.startsWith('https://pug.example/m?')).toBe(true);
    expect(expiresAt).toBe(clock.now() + MOBILE_LINK_TTL_MS);
    const p = params(url);
    expect(p.u).toBe(u.id);
    expect(url).not.toContain(u.token);

    const res = await exchange(p);
    expect(res.statusCode).toBe(200);
    const session = res.json();
    expect(session.user._id).toBe(u.id);
    expect(session.token).toEqual(expect.any(String));
    const me = await t.app.inject({ method: 'GET', url: '/api/profile', headers: bearer(session.token) });
    expect(me.statusCode).toBe(200);
    expect(JSON.stringify(me.json())).toContain(u.id);

    const again = await exchange(p);
    expect(again.statusCode).toBe(404);
    expect(again.json().errors.msg).toBe('NOT_FOUND_OR_ALREADY_USED');
  });

  it('works with GET too, and refuses another user id, an expired link and bad input', async () => {
    const u = await createTestUser(t.app);
    const other = await createTestUser(t.app);
    const p = params((await link(u)).url);
    expect((await exchange({ u: other.id, t: p.t })).statusCode).toBe(404);
    const get = await t.app.inject({ method: 'GET', url: `/api/mobile/exchange?u=${p.u}&t=${p.t}` });
    expect(get.statusCode).toBe(200);
    expect(get.json().user._id).toBe(u.id);

    const late = params((await link(u)).url);
    clock.advance(MOBILE_LINK_TTL_MS + 1);
    expect((await exchange(late)).json().errors.msg).toBe('NOT_FOUND_OR_ALREADY_USED');
    expect((await exchange({ u: u.id })).json().errors.msg).toBe('MISSING');
    expect((await exchange({ u: u.id, t: 'short' })).json().errors.msg).toBe('INVALID_INPUT');
    expect((await t.app.inject({ method: 'POST', url: '/api/mobile/link' })).statusCode).toBe(401);
  });
});

describe('Web Push', () => {
  it('generates VAPID keys once, in the database, and every instance signs with them', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/push/vapid' });
    const { publicKey } = res.json();
    expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
    const [row] = await t.app.ctx.db.select().from(vapidKeyPair);
    expect(row.publicKey).toBe(publicKey);
    // Another instance (another DATA_DIR, same database) reads the same keys.
    const other = { ...t.app.ctx.config, dataDir: mkdtempSync(path.join(os.tmpdir(), 'openpug-vapid-')) };
    expect((await loadVapidKeys(other, t.app.ctx.db)).publicKey).toBe(publicKey);
    expect(existsSync(path.join(other.dataDir, 'vapid.json'))).toBe(false);
  });

  it("takes over an older version's DATA_DIR/vapid.json once, so its subscriptions keep working", async () => {
    const database = await openTestDatabase();
    try {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'openpug-vapid-old-'));
      const old = { publicKey: 'BOLD-public', privateKey: 'old-private' };
      writeFileSync(path.join(dataDir, 'vapid.json'), JSON.stringify(old));
      const config = { ...t.app.ctx.config, dataDir };
      expect(await loadVapidKeys(config, database.db)).toEqual(old);
      const [row] = await database.db.select().from(vapidKeyPair);
      expect(row).toMatchObject(old);
    } finally {
      await database.dispose();
    }
  });

  it('uses a VAPID subject push services accept: PUBLIC_URL when https, else mailto at its host', () => {
    const config = t.app.ctx.config;
    expect(vapidSubject({ ...config, VAPID_SUBJECT: undefined, PUBLIC_URL: 'https://pug.example' })).toBe(
      'https://pug.example',
    );
    expect(vapidSubject({ ...config, VAPID_SUBJECT: undefined, PUBLIC_URL: 'http://localhost:3000' })).toBe(
      'mailto:admin@localhost',
    );
    expect(vapidSubject({ ...config, VAPID_SUBJECT: 'mailto:ops@pug.example' })).toBe(
      'mailto:ops@pug.example',
    );
  });

  it('signs with VAPID and encrypts the payload so the browser can read it', async () => {
    const browser = push.browser();
    const keys = vapidKeys(t.app.ctx);
    await sendPush(
      t.app.ctx.config,
      keys,
      { endpoint: browser.endpoint, p256dh: browser.keys.p256dh, auth: browser.keys.auth },
      { type: 'game-found', title: 'Game found!' },
      30,
    );
    const got = push.received.at(-1)!;
    expect(got.encoding).toBe('aes128gcm');
    expect(got.ttl).toBe('30');
    expect(got.urgency).toBe('high');
    expect(got.vapid).toMatchObject({
      ok: true,
      aud: push.url,
      sub: 'https://pug.example',
      k: keys.publicKey,
    });
    expect(got.payload).toEqual({ type: 'game-found', title: 'Game found!' });
  });

  it('follows the push service: 429 waits its Retry-After, another 4xx is not retried', async () => {
    const answers: number[] = [];
    const script = { statuses: [429, 201], retryAfter: '1' };
    const service = await startFakePushService({
      status: () => {
        const next = script.statuses.shift() ?? 201;
        answers.push(next);
        return next;
      },
      retryAfter: () => (answers.at(-1) === 429 ? script.retryAfter : undefined),
    });
    try {
      const browser = service.browser();
      const sub = { endpoint: browser.endpoint, p256dh: browser.keys.p256dh, auth: browser.keys.auth };
      const config = { ...t.app.ctx.config, OUTBOUND_ALLOW: [new URL(service.url).host] };
      const send = () => sendPush(config, vapidKeys(t.app.ctx), sub, { type: 'game-found' }, 30);
      const started = Date.now();
      expect(await withRetries(t.app.ctx, 'push test', send, { warn: () => {} })).toBe(true);
      expect(answers).toEqual([429, 201]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(900); // Retry-After: 1 (seconds)
      script.statuses = [400, 201];
      answers.length = 0;
      expect(await withRetries(t.app.ctx, 'push test', send, { warn: () => {} })).toBe(false);
      expect(answers).toEqual([400]);
    } finally {
      await service.close();
    }
  });

  it('stores, replaces and removes subscriptions of the caller; refuses bad ones', async () => {
    const u = await createTestUser(t.app);
    const browser = push.browser();
    const sub = (method: 'POST' | 'DELETE', payload: object, token = u.token) =>
      t.app.inject({ method, url: '/api/push/subscriptions', headers: bearer(token), payload });
    expect((await sub('POST', { endpoint: browser.endpoint, keys: browser.keys })).json()).toEqual({
      success: true,
    });
    expect((await sub('POST', { endpoint: browser.endpoint, keys: browser.keys })).json()).toEqual({
      success: true,
    });
    // The same endpoint from another account does not take the subscription over.
    const intruder = await createTestUser(t.app);
    const taken = await sub('POST', { endpoint: browser.endpoint, keys: browser.keys }, intruder.token);
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ errors: { msg: 'PUSH_ENDPOINT_TAKEN' } });
    const bad = await sub('POST', { endpoint: 'not a url', keys: browser.keys });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.msg).toBe('INVALID_INPUT');
    const rows = async () =>
      (await t.app.ctx.db.select().from(pushSubscriptions)).filter((r) => r.userId === u.id);
    // The server would POST to the endpoint: private and plain-http ones are refused.
    for (const endpoint of [
      'http://127.0.0.1:6379/',
      'http://10.0.0.1/x',
      'http://169.254.169.254/latest/meta-data/',
      'https://[::ffff:7f00:1]/push',
    ]) {
      const refused = await sub('POST', { endpoint, keys: browser.keys });
      expect(refused.statusCode, endpoint).toBe(422);
      expect(refused.json()).toEqual({ errors: { msg: 'PUSH_ENDPOINT_NOT_PUBLIC' } });
    }
    expect(await rows()).toHaveLength(1);
    // Someone else cannot remove it.
    const other = await createTestUser(t.app);
    await sub('DELETE', { endpoint: browser.endpoint }, other.token);
    expect(await rows()).toHaveLength(1);
    await sub('DELETE', { endpoint: browser.endpoint });
    expect(await rows()).toHaveLength(0);
  });
});

describe('queue sync across devices', () => {
  it('tells every socket of the user when they join or leave the queue elsewhere (their status)', async () => {
    const url = await t.listen();
    const u = await createTestUser(t.app, { teamSpeakId: 'ts-sync-1' });
    const desktop = await connectSocket(url, u.token);
    try {
      type Update = { status?: { inQueue: boolean } };
      const joined = nextEvent<Update>(desktop, 'privateUserUpdate');
      await joinQueue(t.app.ctx, u.id);
      expect((await joined).status?.inQueue).toBe(true);
      const left = nextEvent<Update>(desktop, 'privateUserUpdate');
      await leaveQueue(t.app.ctx, u.id);
      expect((await left).status?.inQueue).toBe(false);
    } finally {
      desktop.disconnect();
    }
  });
});
