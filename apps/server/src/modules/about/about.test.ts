/**
 * The About page's API (docs/contract.md §2 /about): anyone reads the texts of a language with
 * this deployment's rules; only admins replace them, audited; bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { ELO_WIN: '15', ELO_LOSS: '9', PLACEMENT_MATCHES: '3' } });
});
afterAll(() => t?.close());

const read = async (query = '', headers: Record<string, string> = {}) =>
  (await t.app.inject({ url: `/api/about${query}`, headers })).json();

describe('about', () => {
  it('answers empty texts and the configured rules before an admin writes anything', async () => {
    expect(await read()).toEqual({
      texts: { community: '', rules: '', contact: '' },
      facts: { eloStart: 200, eloWin: 15, eloLoss: 9, placementMatches: 3, acceptSeconds: 30 },
      version: expect.any(String),
    });
  });

  it('an admin replaces one language; the other keeps its own; the change is audited', async () => {
    const admin = await createTestUser(t.app, { role: 'ADMIN' });
    const texts = {
      community: 'Ten-player pugs every night.',
      rules: 'No cheating.',
      contact: 'help@example.test',
    };
    const res = await t.app.inject({
      method: 'PUT',
      url: '/api/about',
      headers: bearer(admin.token),
      payload: { locale: 'de', ...texts },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().texts).toEqual(texts);
    expect((await read('?locale=de')).texts).toEqual(texts);
    expect((await read('', { 'accept-language': 'de-DE' })).texts).toEqual(texts);
    expect((await read('?locale=en')).texts).toEqual({ community: '', rules: '', contact: '' });
    const audit = await t.app.inject({
      url: '/api/admin/audit?action=about.update',
      headers: bearer(admin.token),
    });
    expect(audit.json().docs[0]).toMatchObject({
      action: 'about.update',
      targetType: 'page',
      targetId: 'about:de',
      after: texts,
    });
  });

  it('refuses players and bad input, changing nothing', async () => {
    const player = await createTestUser(t.app);
    const admin = await createTestUser(t.app, { role: 'ADMIN' });
    const body = { locale: 'en', community: 'x', rules: 'y', contact: 'z' };
    const asPlayer = await t.app.inject({
      method: 'PUT',
      url: '/api/about',
      headers: bearer(player.token),
      payload: body,
    });
    expect(asPlayer.statusCode).toBe(403);
    const tooLong = await t.app.inject({
      method: 'PUT',
      url: '/api/about',
      headers: bearer(admin.token),
      payload: { ...body, rules: 'r'.repeat(4001) },
    });
    expect([tooLong.statusCode, tooLong.json()]).toEqual([422, { errors: { msg: 'INVALID_INPUT' } }]);
    expect((await read('?locale=en')).texts).toEqual({ community: '', rules: '', contact: '' });
  });
});
