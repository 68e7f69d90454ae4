/**
 * Upload limits (docs/contract.md §7, §8): the embedded homeserver's media upload takes only the
 * chat's media types (CHAT_UPLOAD_TYPES) up to MATRIX_MAX_UPLOAD_BYTES, refusing others with the
 * Matrix spec's answers (403 M_FORBIDDEN for a type, 413 M_TOO_LARGE for a size) and storing
 * nothing; the product API takes no uploads at all (JSON only, at most 1 MiB).
 */
import { CHAT_UPLOAD_TYPES } from '@openpug/shared';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mxMedia } from '../src/homeserver/schema';
import { matrixSessionFor } from '../src/modules/chat/service';
import { bearer, createTestApp, createTestUser, type TestApp } from './helpers';

const LIMIT = 4096;
let t: TestApp;
let token: string;
let player: string;

const upload = (type: string | undefined, payload: Buffer, accessToken = token) =>
  t.app.inject({
    method: 'POST',
    url: '/_matrix/media/v3/upload?filename=file',
    headers: { authorization: `Bearer ${accessToken}`, ...(type ? { 'content-type': type } : {}) },
    payload,
  });
const stored = async () => (await t.app.ctx.db.select({ n: count() }).from(mxMedia))[0].n;

beforeAll(async () => {
  t = await createTestApp({ env: { MATRIX_MAX_UPLOAD_BYTES: String(LIMIT) } });
  const user = await createTestUser(t.app);
  player = user.token;
  token = (await matrixSessionFor(t.app.ctx, user.id)).accessToken;
});
afterAll(() => t.close());

describe('chat media uploads', () => {
  it('accepts every type the chat sends, up to the limit', async () => {
    for (const type of CHAT_UPLOAD_TYPES) {
      const res = await upload(type, Buffer.alloc(LIMIT, 1));
      expect(res.statusCode, `${type}: ${res.body}`).toBe(200);
      expect(res.json().content_uri).toMatch(/^mxc:\/\//);
    }
    // Parameters and letter case of the media type do not matter.
    expect((await upload('Text/Plain; charset=utf-8', Buffer.from('gg'))).statusCode).toBe(200);
    expect(await stored()).toBe(CHAT_UPLOAD_TYPES.length + 1);
  });

  it('refuses a type a browser would render or run with 403 M_FORBIDDEN, and stores nothing', async () => {
    const before = await stored();
    for (const type of [
      'text/html',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/xml',
      'application/javascript',
      'text/javascript',
      'application/x-msdownload',
      'multipart/form-data; boundary=x',
    ]) {
      const res = await upload(type, Buffer.from('<script>alert(1)</script>'));
      expect(res.statusCode, type).toBe(403);
      expect(res.json().errcode, type).toBe('M_FORBIDDEN');
    }
    expect(await stored()).toBe(before);
  });

  it('refuses a body over the limit with 413 M_TOO_LARGE, and stores nothing', async () => {
    const before = await stored();
    const res = await upload('image/png', Buffer.alloc(LIMIT + 1, 1));
    expect(res.statusCode).toBe(413);
    expect(res.json().errcode).toBe('M_TOO_LARGE');
    const config = await t.app.inject({
      url: '/_matrix/client/v1/media/config',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(config.json()['m.upload.size']).toBe(LIMIT);
    expect(await stored()).toBe(before);
  });

  it('refuses an upload without a chat session (401), whatever the type', async () => {
    const res = await upload('image/png', Buffer.alloc(10, 1), 'not-a-token');
    expect(res.statusCode).toBe(401);
    expect(res.json().errcode).toBe('M_UNKNOWN_TOKEN');
  });
});

describe('the product API', () => {
  it('takes no file uploads: a multipart or image body is 415 INVALID_INPUT', async () => {
    for (const type of ['multipart/form-data; boundary=x', 'image/png', 'application/octet-stream']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/api/profile',
        headers: { ...bearer(player), 'content-type': type },
        payload: Buffer.from('--x\r\n\r\nabc\r\n--x--'),
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json()).toEqual({ errors: { msg: 'INVALID_INPUT' } });
    }
  });

  it('refuses a JSON body over 1 MiB with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/profile',
      headers: { ...bearer(player), 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ errors: { msg: 'PAYLOAD_TOO_LARGE' } });
  });
});
