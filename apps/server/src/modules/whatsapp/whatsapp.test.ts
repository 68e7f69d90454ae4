/**
 * WhatsApp linking and toggling through the API (dev outbox provider), every refusal leaving the
 * account unchanged; and against a fake Cloud API that behaves as Meta does (fake-cloud-api.ts):
 * template messages per locale, the authentication template's copy-code button, a free-form text
 * refused only later by a signed `failed` status (the number is paused until linked again), the
 * webhook's handshake and signature checks, and the retry policy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  manualClock,
  type TestApp,
  testConfig,
} from '../../../test/helpers';
import { findUserById } from '../accounts/service';
import { listOutbox } from '../mail/mailer';
import { notificationsSettled } from '../notify/deliver';
import { type FakeCloudApi, startFakeCloudApi } from './fake-cloud-api';
import { createWhatsAppSender, parseRetryAfter, WhatsAppApiError } from './provider';
import { validSignature, WHATSAPP_CODE_TTL_MS } from './routes';
import { failurePausesNumber, sendWhatsApp } from './service';

const clock = manualClock();
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const call = (method: 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token), payload });
const lastCode = async (userId: string) => {
  const [msg] = (await listOutbox(t.app.ctx.db, userId)).filter((m) => m.channel === 'whatsapp');
  return msg?.text.match(/\d{4}/)?.[0] ?? '';
};
const user = async (id: string) => (await findUserById(t.app.ctx.db, id))!;
const otherCode = (code: string) => String((Number(code) + 1) % 10000).padStart(4, '0');

describe('WhatsApp linking', () => {
  it('refuses a number that is not in international format, and sends nothing', async () => {
    const u = await createTestUser(t.app);
    for (const phone of ['01701234567', '+0123456789', '+49 170', 'abc', '']) {
      const res = await call('POST', '/api/profile/linkWhatsApp', u.token, { phone });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors.msg).toBe('PHONE_IS_NOT_VALID');
    }
    expect((await call('POST', '/api/profile/linkWhatsApp', u.token, {})).json().errors.msg).toBe('MISSING');
    expect(await listOutbox(t.app.ctx.db, u.id)).toHaveLength(0);
    expect((await user(u.id)).phone).toBeNull();
  });

  it('links with the code sent over WhatsApp in the user language, then toggles and unlinks', async () => {
    const u = await createTestUser(t.app, { locale: 'de' });
    const res = await call('POST', '/api/profile/linkWhatsApp', u.token, { phone: '+49 170 1234567' });
    expect(res.json()).toEqual({ success: true });
    const [msg] = await listOutbox(t.app.ctx.db, u.id);
    expect(msg).toMatchObject({ channel: 'whatsapp', to: '+491701234567' });
    expect(msg.text).toMatch(/^Dein openpug-Code: \d{4}$/);
    const code = await lastCode(u.id);
    expect(
      (await call('POST', '/api/profile/whatsAppCode', u.token, { phone: '+491701234567', code })).json(),
    ).toEqual({ success: true });
    expect(await user(u.id)).toMatchObject({ phone: '+491701234567', whatsAppEnabled: true });

    const off = await call('PATCH', '/api/profile/whatsAppEnabled', u.token);
    expect(off.json()).toEqual({ whatsAppEnabled: false });
    const on = await call('PATCH', '/api/profile/whatsAppEnabled', u.token, {});
    expect(on.json()).toEqual({ whatsAppEnabled: true });
    const set = await call('PATCH', '/api/profile/whatsAppEnabled', u.token, { whatsAppEnabled: true });
    expect(set.json()).toEqual({ whatsAppEnabled: true });

    expect((await call('POST', '/api/profile/unlinkWhatsApp', u.token)).json()).toEqual({ success: true });
    expect(await user(u.id)).toMatchObject({ phone: null, whatsAppEnabled: false });
  });

  it('refuses toggling while no number is linked', async () => {
    const u = await createTestUser(t.app);
    const res = await call('PATCH', '/api/profile/whatsAppEnabled', u.token);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors.msg).toBe('WHATSAPP_NOT_LINKED');
    expect((await user(u.id)).whatsAppEnabled).toBe(false);
  });

  it('refuses a wrong code, a code for another number, an expired code and a reused code', async () => {
    const u = await createTestUser(t.app);
    const phone = '+4915112345678';
    await call('POST', '/api/profile/linkWhatsApp', u.token, { phone });
    const code = await lastCode(u.id);
    const confirm = (body: object) => call('POST', '/api/profile/whatsAppCode', u.token, body);

    expect((await confirm({ phone, code: otherCode(code) })).json()).toEqual({ success: false });
    expect((await confirm({ phone: '+4915100000000', code })).json()).toEqual({ success: false });
    expect((await confirm({ phone, code: '12' })).json().errors.msg).toBe('INVALID_INPUT');
    expect((await user(u.id)).phone).toBeNull();

    // Expired.
    clock.advance(WHATSAPP_CODE_TTL_MS + 1);
    expect((await confirm({ phone, code })).json()).toEqual({ success: false });
    expect((await user(u.id)).phone).toBeNull();

    // A fresh code works once; the same code again is refused (and changes nothing).
    await call('POST', '/api/profile/linkWhatsApp', u.token, { phone });
    const fresh = await lastCode(u.id);
    expect((await confirm({ phone, code: fresh })).json()).toEqual({ success: true });
    await call('POST', '/api/profile/unlinkWhatsApp', u.token);
    expect((await confirm({ phone, code: fresh })).json()).toEqual({ success: false });
    expect(await user(u.id)).toMatchObject({ phone: null, whatsAppEnabled: false });
  });

  it('locks the code after five wrong tries', async () => {
    const u = await createTestUser(t.app);
    const phone = '+33612345678';
    await call('POST', '/api/profile/linkWhatsApp', u.token, { phone });
    const code = await lastCode(u.id);
    for (let i = 0; i < 5; i++)
      await call('POST', '/api/profile/whatsAppCode', u.token, { phone, code: otherCode(code) });
    expect((await call('POST', '/api/profile/whatsAppCode', u.token, { phone, code })).json()).toEqual({
      success: false,
    });
    expect((await user(u.id)).phone).toBeNull();
  });

  it('needs a session', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/profile/linkWhatsApp',
      payload: { phone: '+491701234567' },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('WhatsApp through the Cloud API (fake Meta)', () => {
  const SECRET = 'app-secret-for-tests';
  const VERIFY = 'verify-token-for-tests';
  let app: TestApp;
  let meta: FakeCloudApi;

  beforeAll(async () => {
    meta = await startFakeCloudApi({
      token: 'tok-1',
      phoneNumberId: '555',
      appSecret: SECRET,
      templates: {
        openpug_game_found: { languages: ['en_US', 'de'], bodyParams: 1 },
        openpug_matched: { languages: ['en_US', 'de'], bodyParams: 1 },
        openpug_code: { languages: ['en_US', 'de'], bodyParams: 1, authentication: true },
      },
      deliver: async (payload, headers) =>
        (await app.app.inject({ method: 'POST', url: '/api/whatsapp/webhook', payload, headers })).statusCode,
    });
    app = await createTestApp({
      env: {
        WHATSAPP_TOKEN: 'tok-1',
        WHATSAPP_PHONE_NUMBER_ID: '555',
        WHATSAPP_API_URL: meta.url,
        WHATSAPP_APP_SECRET: SECRET,
        WHATSAPP_VERIFY_TOKEN: VERIFY,
        NOTIFY_ATTEMPTS: '3',
        NOTIFY_RETRY_MS: '1',
      },
    });
  });
  afterAll(async () => {
    await notificationsSettled(app.app.ctx);
    await app.close();
    await meta.close();
  });

  const ctx = () => app.app.ctx;
  const post = (url: string, token: string, payload?: object) =>
    app.app.inject({ method: 'POST', url, headers: bearer(token), payload });
  const statusOf = async (token: string) =>
    (
      await app.app.inject({ method: 'GET', url: '/api/profile/whatsAppStatus', headers: bearer(token) })
    ).json();
  const sentSince = (from: number) => meta.requests.slice(from);
  const templateOf = (r: { body: Record<string, unknown> }) => r.body.template as Record<string, unknown>;
  let phoneNo = 0;
  const nextPhone = () => `+4917100${String(++phoneNo).padStart(5, '0')}`;
  /** Links a number the way a player does: code by authentication template, then confirm. */
  async function link(u: { token: string }, phone: string): Promise<void> {
    const from = meta.requests.length;
    expect((await post('/api/profile/linkWhatsApp', u.token, { phone })).json()).toEqual({ success: true });
    const [req] = sentSince(from);
    const code = (templateOf(req).components as { parameters: { text: string }[] }[])[0].parameters[0].text;
    expect((await post('/api/profile/whatsAppCode', u.token, { phone, code })).json()).toEqual({
      success: true,
    });
  }
  const phaseStarted = async (playerIds: string[], seconds = 30) => {
    await ctx().bus.emit('queue.phaseStarted', {
      phaseId: `p-${Math.random()}`,
      playerIds,
      deadline: ctx().clock.now() + seconds * 1000,
    });
    await notificationsSettled(ctx());
  };

  it('sends the link code as the authentication template with the copy-code button, per locale', async () => {
    const u = await createTestUser(app.app, { locale: 'de' });
    const phone = nextPhone();
    const from = meta.requests.length;
    await post('/api/profile/linkWhatsApp', u.token, { phone });
    const [req] = sentSince(from);
    expect(req.answered).toBe(200);
    const code = (templateOf(req).components as { parameters: { text: string }[] }[])[0].parameters[0].text;
    expect(code).toMatch(/^\d{4}$/);
    expect(req.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: phone.slice(1),
      type: 'template',
      template: {
        name: 'openpug_code',
        language: { code: 'de' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: code }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
        ],
      },
    });
    const en = await createTestUser(app.app, { locale: 'en' });
    await post('/api/profile/linkWhatsApp', en.token, { phone: nextPhone() });
    expect((templateOf(meta.requests.at(-1)!).language as { code: string }).code).toBe('en_US');

    // Meta reports sent and delivered on the webhook, signed; the app takes both.
    const hooks = meta.webhooks.length;
    await meta.flushStatuses();
    expect(meta.webhooks.slice(hooks).map((w) => w.answered)).toEqual([200, 200, 200, 200]);
    expect((await post('/api/profile/whatsAppCode', u.token, { phone, code })).json()).toEqual({
      success: true,
    });
    expect(await statusOf(u.token)).toEqual({ linked: true, enabled: true, paused: false, failure: null });
  });

  it('sends game found and the match result as templates with their parameters per locale', async () => {
    const de = await createTestUser(app.app, { locale: 'de' });
    const en = await createTestUser(app.app, { locale: 'en' });
    const off = await createTestUser(app.app);
    for (const u of [de, en, off]) await link(u, nextPhone());
    await app.app.inject({
      method: 'PATCH',
      url: '/api/profile/whatsAppEnabled',
      headers: bearer(off.token),
      payload: { whatsAppEnabled: false },
    });
    const deUser = await findUserById(ctx().db, de.id);
    const enUser = await findUserById(ctx().db, en.id);

    let from = meta.requests.length;
    await phaseStarted([de.id, en.id, off.id], 30);
    const found = sentSince(from);
    expect(found).toHaveLength(2);
    const byTo = (phone: string | null | undefined) => found.find((r) => r.body.to === phone?.slice(1));
    expect(templateOf(byTo(deUser?.phone)!)).toEqual({
      name: 'openpug_game_found',
      language: { code: 'de' },
      components: [{ type: 'body', parameters: [{ type: 'text', text: '30' }] }],
    });
    expect(templateOf(byTo(enUser?.phone)!)).toMatchObject({
      name: 'openpug_game_found',
      language: { code: 'en_US' },
    });
    expect(found.every((r) => r.answered === 200)).toBe(true);

    from = meta.requests.length;
    await ctx().bus.emit('queue.matched', { phaseId: 'p', playerIds: [de.id, en.id], matchId: 'm-42' });
    await notificationsSettled(ctx());
    const matched = sentSince(from);
    expect(matched.map((r) => templateOf(r).name)).toEqual(['openpug_matched', 'openpug_matched']);
    expect(templateOf(matched[0]).components).toEqual([
      { type: 'body', parameters: [{ type: 'text', text: `${ctx().config.PUBLIC_URL}/match/m-42` }] },
    ]);
  });

  it('takes a free-form text refusal from the webhook only, pauses WhatsApp and shows it until re-linked', async () => {
    const u = await createTestUser(app.app);
    const phone = nextPhone();
    await link(u, phone);
    await meta.flushStatuses();

    // The Cloud API accepts the text (200, a message id) …
    const id = await sendWhatsApp(ctx(), {
      to: phone,
      userId: u.id,
      kind: 'text',
      locale: 'en',
      params: [],
      text: 'openpug: hello',
    });
    expect(id).toMatch(/^wamid\./);
    expect(meta.requests.at(-1)?.body).toMatchObject({ type: 'text', text: { body: 'openpug: hello' } });
    expect((await statusOf(u.token)).paused).toBe(false);

    // … and refuses it later: a signed failed status with 131047.
    const hooks = meta.webhooks.length;
    await meta.flushStatuses();
    const [hook] = meta.webhooks.slice(hooks);
    expect(hook.answered).toBe(200);
    expect(JSON.stringify(hook.payload)).toContain('"code":131047');
    const status = await statusOf(u.token);
    expect(status).toEqual({
      linked: true,
      enabled: true,
      paused: true,
      failure: { errorCode: 131047, failedAt: expect.any(Number) },
    });

    // Paused: no game-found message goes out.
    let from = meta.requests.length;
    await phaseStarted([u.id]);
    expect(sentSince(from)).toEqual([]);

    // Linking the number again ends the pause.
    await link(u, phone);
    expect((await statusOf(u.token)).paused).toBe(false);
    from = meta.requests.length;
    await phaseStarted([u.id]);
    expect(sentSince(from).map((r) => templateOf(r).name)).toEqual(['openpug_game_found']);

    // Inside the 24-hour window the same text is delivered and nothing pauses.
    meta.openWindow(phone);
    await sendWhatsApp(ctx(), {
      to: phone,
      userId: u.id,
      kind: 'text',
      locale: 'en',
      params: [],
      text: 'hi',
    });
    await meta.flushStatuses();
    expect((await statusOf(u.token)).paused).toBe(false);
  });

  it('pauses on an undeliverable number (131026) but not on a failure of its own making', () => {
    expect(failurePausesNumber(131026)).toBe(true);
    expect(failurePausesNumber(131047)).toBe(true);
    expect(failurePausesNumber(null)).toBe(true);
    for (const ours of [132001, 132000, 131008, 130429, 131056, 190, 131000])
      expect(failurePausesNumber(ours)).toBe(false);
  });

  it('pauses when a template to the number fails with 131026', async () => {
    const u = await createTestUser(app.app);
    const phone = nextPhone();
    await link(u, phone);
    await meta.flushStatuses();
    meta.markUndeliverable(phone);
    await phaseStarted([u.id]);
    await meta.flushStatuses();
    expect(await statusOf(u.token)).toMatchObject({ paused: true, failure: { errorCode: 131026 } });
  });

  describe('the webhook', () => {
    const hook = (payload: string, headers: Record<string, string> = {}) =>
      app.app.inject({
        method: 'POST',
        url: '/api/whatsapp/webhook',
        payload,
        headers: { 'content-type': 'application/json', ...headers },
      });

    it('answers the verification handshake only with the verify token', async () => {
      const get = (q: string) => app.app.inject({ method: 'GET', url: `/api/whatsapp/webhook?${q}` });
      const ok = await get(`hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`);
      expect(ok.statusCode).toBe(200);
      expect(ok.headers['content-type']).toMatch(/^text\/plain/);
      expect(ok.body).toBe('1158201444');
      for (const q of [
        'hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=1',
        `hub.mode=unsubscribe&hub.verify_token=${VERIFY}&hub.challenge=1`,
        'hub.challenge=1',
        '',
      ]) {
        const res = await get(q);
        expect(res.statusCode).toBe(403);
        expect(res.json().errors.msg).toBe('WHATSAPP_VERIFY_TOKEN_INVALID');
      }
    });

    it('refuses a missing or wrong signature with 401 and a catalogue key', async () => {
      const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [] });
      for (const sig of [
        undefined,
        '',
        'sha256=',
        'sha256=zz',
        `sha256=${'0'.repeat(64)}`,
        meta.signature(`${body} `).replace('sha256=', 'sha1='),
        meta.signature(`${body} `),
      ]) {
        const res = await hook(body, sig === undefined ? {} : { 'x-hub-signature-256': sig });
        expect(res.statusCode).toBe(401);
        expect(res.json().errors.msg).toBe('WHATSAPP_SIGNATURE_INVALID');
      }
      const ok = await hook(body, { 'x-hub-signature-256': meta.signature(body) });
      expect(ok.statusCode).toBe(200);
      expect(ok.json()).toEqual({ received: 0 });
      // The signature covers the bytes as sent: the same JSON re-serialised differently is refused.
      const spaced = JSON.stringify(JSON.parse(body), null, 2);
      expect((await hook(spaced, { 'x-hub-signature-256': meta.signature(body) })).statusCode).toBe(401);
      expect((await hook(spaced, { 'x-hub-signature-256': meta.signature(spaced) })).statusCode).toBe(200);
      expect(validSignature(undefined, meta.signature(body), Buffer.from(body))).toBe(false);
    });

    it('refuses a signed body that is not JSON (400) or not a notification, and ignores unknown ids', async () => {
      for (const raw of ['{"entry":', 'not json', '']) {
        const res = await hook(raw, { 'x-hub-signature-256': meta.signature(raw) });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors.msg).toBe('MALFORMED_JSON');
      }
      const wrongShape = JSON.stringify({ entry: 'x' });
      const bad = await hook(wrongShape, { 'x-hub-signature-256': meta.signature(wrongShape) });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors.msg).toBe('INVALID_INPUT');
      const unknown = JSON.stringify({
        entry: [
          {
            changes: [
              { value: { statuses: [{ id: 'wamid.nobody', status: 'failed', errors: [{ code: 131026 }] }] } },
            ],
          },
        ],
      });
      const res = await hook(unknown, {
        'x-hub-signature-256': meta.signature(unknown),
        'content-type': 'application/json; charset=utf-8',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ received: 1 });
    });
  });

  describe('the retry policy', () => {
    async function gameFoundAttempts(refusals: Parameters<FakeCloudApi['failNext']>) {
      const u = await createTestUser(app.app);
      await link(u, nextPhone());
      meta.failNext(...refusals);
      const from = meta.requests.length;
      await phaseStarted([u.id]);
      return sentSince(from);
    }

    it('does not retry a permanent refusal (4xx, or a permanent Meta code)', async () => {
      expect((await gameFoundAttempts([{ status: 400, code: 132001 }])).map((r) => r.answered)).toEqual([
        400,
      ]);
      expect((await gameFoundAttempts([{ status: 403, code: 10 }])).map((r) => r.answered)).toEqual([403]);
      expect((await gameFoundAttempts([{ status: 500, code: 131026 }])).map((r) => r.answered)).toEqual([
        500,
      ]);
    });

    it('waits for Retry-After on 429, and backs off on throttling codes and server errors', async () => {
      const limited = await gameFoundAttempts([{ status: 429, code: 130429, retryAfter: '1' }]);
      expect(limited.map((r) => r.answered)).toEqual([429, 200]);
      expect(limited[1].at - limited[0].at).toBeGreaterThanOrEqual(900);
      // Pair rate limit: HTTP 400, yet worth another try.
      expect((await gameFoundAttempts([{ status: 400, code: 131056 }])).map((r) => r.answered)).toEqual([
        400, 200,
      ]);
      expect((await gameFoundAttempts([{ status: 500 }, { status: 503 }])).map((r) => r.answered)).toEqual([
        500, 503, 200,
      ]);
      // Bounded: NOTIFY_ATTEMPTS tries, then given up.
      expect(
        (await gameFoundAttempts([{ status: 500 }, { status: 502 }, { status: 503 }])).map((r) => r.answered),
      ).toEqual([500, 502, 503]);
    });

    it('classifies refusals and reads Retry-After', () => {
      const e = (status: number, code: number | null) =>
        new WhatsAppApiError(status, code, '', undefined).permanent;
      expect([e(400, 100), e(401, 190), e(404, null), e(400, 131047)]).toEqual([true, true, true, true]);
      expect([e(429, null), e(400, 130429), e(400, 131048), e(500, null), e(503, 131000)]).toEqual([
        false,
        false,
        false,
        false,
        false,
      ]);
      expect(parseRetryAfter('2')).toBe(2000);
      expect(parseRetryAfter(new Date(Date.now() + 5000).toUTCString(), Date.now())).toBeGreaterThan(3000);
      expect(parseRetryAfter('soon')).toBeUndefined();
      expect(parseRetryAfter(null)).toBeUndefined();
    });
  });

  it('is what the app uses when the token and phone-number id are set (else the outbox)', () => {
    expect(createWhatsAppSender(app.app.ctx.config, app.app.ctx.db, Date.now).kind).toBe('cloud-api');
    expect(createWhatsAppSender(testConfig(), app.app.ctx.db, Date.now).kind).toBe('outbox');
  });
});
