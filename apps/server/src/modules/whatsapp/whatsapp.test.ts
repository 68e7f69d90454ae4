/**
 * WhatsApp linking and toggling through the API (dev outbox provider), every refusal leaving the
 * account unchanged, and the Cloud API sender against a local fake that checks the requests.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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
import { CloudApiSender, createWhatsAppSender } from './provider';
import { WHATSAPP_CODE_TTL_MS } from './routes';

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

describe('WhatsApp Cloud API sender', () => {
  let server: Server;
  let base = '';
  const seen: {
    method?: string;
    url?: string;
    auth?: string;
    type?: string;
    body: { text?: { body?: string } } & Record<string, unknown>;
  }[] = [];
  let status = 200;

  beforeAll(async () => {
    server = createServer(async (req: IncomingMessage, res) => {
      let raw = '';
      for await (const chunk of req) raw += chunk;
      seen.push({
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body: JSON.parse(raw),
      });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(
        status === 200 ? JSON.stringify({ messages: [{ id: 'wamid.1' }] }) : '{"error":{"code":131026}}',
      );
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('posts a text message to /{phoneNumberId}/messages with the bearer token', async () => {
    const sender = new CloudApiSender(base, '1234567890', 'secret-token');
    await sender.send({ to: '+491701234567', text: 'openpug: game found!' });
    expect(seen.at(-1)).toEqual({
      method: 'POST',
      url: '/v21.0/1234567890/messages',
      auth: 'Bearer secret-token',
      type: 'application/json',
      body: {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: '491701234567',
        type: 'text',
        text: { preview_url: false, body: 'openpug: game found!' },
      },
    });
  });

  it('rejects when the API refuses the message', async () => {
    status = 400;
    const sender = new CloudApiSender(base, '1234567890', 'secret-token');
    await expect(sender.send({ to: '+491701234567', text: 'x' })).rejects.toThrow(/400/);
    status = 200;
  });

  it('is what the app uses when the token and phone-number id are set (else the outbox)', async () => {
    const config = testConfig({
      WHATSAPP_TOKEN: 'tok-1',
      WHATSAPP_PHONE_NUMBER_ID: '555',
      WHATSAPP_API_URL: base,
    });
    const sender = createWhatsAppSender(config, t.app.ctx.db, () => clock.now());
    expect(sender.kind).toBe('cloud-api');
    await sender.send({ to: '+491701234567', text: 'Your openpug code: 1234' });
    expect(seen.at(-1)).toMatchObject({ url: '/v21.0/555/messages', auth: 'Bearer tok-1' });
    expect(seen.at(-1)?.body.text?.body).toBe('Your openpug code: 1234');
    expect(createWhatsAppSender(testConfig(), t.app.ctx.db, () => clock.now()).kind).toBe('outbox');
  });
});
