/**
 * A season's details (docs/contract.md §2 season1): anyone reads the dates and the details admins
 * wrote for a language; only admins change them, audited; bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

const NO_TEXTS = { title: '', description: '', prizes: '' };
const read = async (query = '', headers: Record<string, string> = {}) =>
  (await t.app.inject({ url: `/api/seasons/season1${query}`, headers })).json().season;
const put = (token: string, payload: Record<string, unknown>, id = 'season1') =>
  t.app.inject({ method: 'PUT', url: `/api/seasons/${id}`, headers: bearer(token), payload });

describe('season details', () => {
  it('has no details before an admin writes any', async () => {
    expect((await read()).texts).toEqual(NO_TEXTS);
  });

  it('an admin sets the dates and one language; the other keeps its own; the change is audited', async () => {
    const admin = await createTestUser(t.app, { role: 'ADMIN' });
    const before = await read();
    const texts = {
      title: 'Saison 1: Herbstliga',
      description: 'Zehn Wochen, jeden Abend.',
      prizes: 'Platz 1: ein Messer-Skin',
    };
    const dates = { startsAt: '2026-09-01T00:00:00.000Z', endsAt: '2026-12-01T00:00:00.000Z' };
    const res = await put(admin.token, { locale: 'de', ...dates, ...texts });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ _id: 'season1', ...dates, texts });
    expect((await read('?locale=de')).texts).toEqual(texts);
    expect((await read('', { 'accept-language': 'de-DE,de;q=0.9' })).texts).toEqual(texts);
    const en = await read('?locale=en');
    expect(en.texts).toEqual(NO_TEXTS);
    expect(en).toMatchObject(dates);
    const audit = await t.app.inject({
      url: '/api/admin/audit?action=season.update',
      headers: bearer(admin.token),
    });
    expect(audit.json().docs[0]).toMatchObject({
      action: 'season.update',
      targetType: 'page',
      targetId: 'season1:de',
      before: { startsAt: before.startsAt, endsAt: before.endsAt, ...NO_TEXTS },
      after: { ...dates, ...texts },
    });
  });

  it('refuses players, an unknown season, an end before the start and bad input, changing nothing', async () => {
    const player = await createTestUser(t.app);
    const admin = await createTestUser(t.app, { role: 'ADMIN' });
    const before = await read('?locale=en');
    const body = {
      locale: 'en',
      startsAt: '2027-01-01T00:00:00.000Z',
      endsAt: '2027-03-01T00:00:00.000Z',
      title: 'Winter',
      description: '',
      prizes: '',
    };
    const refusal = async (token: string, payload: Record<string, unknown>, id?: string) => {
      const res = await put(token, payload, id);
      return [res.statusCode, res.json()];
    };
    expect((await put(player.token, body)).statusCode).toBe(403);
    expect(await refusal(admin.token, body, 'season9')).toEqual([404, { errors: { msg: 'NOT_FOUND' } }]);
    expect(await refusal(admin.token, { ...body, endsAt: body.startsAt })).toEqual([
      422,
      { errors: { msg: 'SEASON_ENDS_BEFORE_START' } },
    ]);
    expect(await refusal(admin.token, { ...body, startsAt: 'next monday' })).toEqual([
      422,
      { errors: { msg: 'INVALID_INPUT' } },
    ]);
    expect(await refusal(admin.token, { ...body, title: 't'.repeat(101) })).toEqual([
      422,
      { errors: { msg: 'INVALID_INPUT' } },
    ]);
    expect(await read('?locale=en')).toEqual(before);
  });
});
