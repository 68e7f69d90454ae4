// biome-ignore-all lint/suspicious/noExplicitAny: JSON answers are inspected loosely.
/**
 * Player reports: filing (every field checked, not yourself, only a shared match, at most
 * REPORTS_PER_HOUR an hour), the admins' queue with both players' context, resolving with each
 * action (a mute or ban is a sanction of the moderation module, audited), what the reporter and the
 * warned player see, and that players cannot use the admin routes.
 */
import { REPORTS_PER_HOUR } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  manualClock,
  seedMatch,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { sessionGenerationOf } from '../accounts/service';
import { matches } from '../matches/schema';
import { reports } from './schema';

const HOUR = 3_600_000;
const clock = manualClock();
let t: TestApp;
let admin: TestUser;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { JOBS_POLL_MS: '0' } });
  admin = await createTestUser(t.app, { role: 'ADMIN', name: 'the-admin' });
});
afterAll(() => t?.close());

/** A token issued now (after a ban, at the account's new session generation). */
const auth = async (u: TestUser) =>
  bearer((await t.app.ctx.tokens.sign(u.id, (await sessionGenerationOf(t.app.ctx.db, u.id)) ?? 0)).token);
const report = async (by: TestUser, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/reports', headers: await auth(by), payload });
const mine = async (u: TestUser) =>
  (await t.app.inject({ method: 'GET', url: '/api/reports/mine', headers: await auth(u) })).json();
const queue = async (query = '', by = admin) =>
  t.app.inject({ method: 'GET', url: `/api/admin/reports${query}`, headers: await auth(by) });
const resolve = async (id: string, payload: object, by = admin) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/reports/${id}/resolve`,
    headers: await auth(by),
    payload,
  });
const audit = async (query: string) =>
  (await t.app.inject({ method: 'GET', url: `/api/admin/audit${query}`, headers: await auth(admin) })).json();
const refusal = (res: { statusCode: number; json(): any }) => [res.statusCode, res.json().errors?.msg];
const storedBy = async (u: TestUser) =>
  t.app.ctx.db.select().from(reports).where(eq(reports.reporterId, u.id));

/** A finished match of the players (the first half won), newest by `at`. */
async function finishedMatch(players: TestUser[], at: number): Promise<string> {
  const id = await seedMatch(t.app, 'finished', players);
  await t.app.ctx.db
    .update(matches)
    .set({ winner: 'teamOne', scoreOne: 13, scoreTwo: 7, finishedAt: at, mapName: 'Mirage' })
    .where(eq(matches.id, id));
  return id;
}

describe('filing a report', () => {
  it('stores a valid report and answers it as the reporter sees it', async () => {
    const [a, b] = [await createTestUser(t.app), await createTestUser(t.app, { name: 'rude-one' })];
    const res = await report(a, { reportedId: b.id, category: 'toxicity', text: '  insults in voice  ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({
      _id: expect.any(String),
      createdAt: clock.now(),
      category: 'toxicity',
      text: 'insults in voice',
      matchId: null,
      reported: { _id: b.id, name: 'rude-one' },
      status: 'open',
      resolvedAt: null,
      outcome: null,
    });
    // The text is optional.
    expect((await report(a, { reportedId: b.id, category: 'other' })).statusCode).toBe(201);
  });

  it('checks every field; a refused report stores nothing', async () => {
    const [a, b] = [await createTestUser(t.app), await createTestUser(t.app)];
    const cases: [object, number, string][] = [
      [{ category: 'cheating' }, 422, 'MISSING'],
      [{ reportedId: 'nope', category: 'cheating' }, 422, 'ID_MALFORMED'],
      [{ reportedId: b.id }, 422, 'INVALID_INPUT'],
      [{ reportedId: b.id, category: 'spam' }, 422, 'INVALID_INPUT'],
      [{ reportedId: b.id, category: 'cheating', text: 'x'.repeat(1001) }, 422, 'INVALID_INPUT'],
      [{ reportedId: b.id, category: 'cheating', text: 42 }, 422, 'INVALID_INPUT'],
      [{ reportedId: b.id, category: 'cheating', matchId: 'x' }, 422, 'ID_MALFORMED'],
      [
        { reportedId: '00000000-0000-4000-8000-000000000000', category: 'cheating' },
        404,
        'USER_DOES_NOT_EXIST',
      ],
    ];
    for (const [payload, status, key] of cases) {
      const res = await report(a, payload);
      expect([payload, ...refusal(res)]).toEqual([payload, status, key]);
    }
    expect(
      (await report(a, { reportedId: b.id, category: 'cheating', text: 'x'.repeat(1000) })).statusCode,
    ).toBe(201);
    expect(await storedBy(a)).toHaveLength(1);
    // Signed out: 401.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/reports',
          payload: { reportedId: b.id, category: 'other' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('refuses reporting yourself', async () => {
    const a = await createTestUser(t.app);
    expect(refusal(await report(a, { reportedId: a.id, category: 'griefing' }))).toEqual([
      400,
      'CANNOT_REPORT_YOURSELF',
    ]);
    expect(await storedBy(a)).toEqual([]);
  });

  it('links only a match both players played in', async () => {
    const [a, b, c] = [await createTestUser(t.app), await createTestUser(t.app), await createTestUser(t.app)];
    const withoutB = await seedMatch(t.app, 'finished', [a, c]);
    const together = await seedMatch(t.app, 'active', [a, b, c]);
    const notShared = await report(a, { reportedId: b.id, category: 'no_show', matchId: withoutB });
    expect(refusal(notShared)).toEqual([400, 'REPORT_MATCH_NOT_SHARED']);
    const unknown = await report(a, {
      reportedId: b.id,
      category: 'no_show',
      matchId: '00000000-0000-4000-8000-000000000000',
    });
    expect(refusal(unknown)).toEqual([400, 'REPORT_MATCH_NOT_SHARED']);
    expect(await storedBy(a)).toEqual([]);
    const ok = await report(a, { reportedId: b.id, category: 'no_show', matchId: together });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().matchId).toBe(together);
  });

  it(`allows ${REPORTS_PER_HOUR} reports within an hour, then refuses until the oldest is an hour old`, async () => {
    const a = await createTestUser(t.app);
    const others = await Promise.all(Array.from({ length: 3 }, () => createTestUser(t.app)));
    const first = clock.now();
    for (let i = 0; i < REPORTS_PER_HOUR; i++) {
      expect((await report(a, { reportedId: others[i % 3].id, category: 'other' })).statusCode).toBe(201);
      clock.advance(60_000);
    }
    expect(refusal(await report(a, { reportedId: others[0].id, category: 'other' }))).toEqual([
      429,
      'TOO_MANY_REQUESTS',
    ]);
    expect(await storedBy(a)).toHaveLength(REPORTS_PER_HOUR);
    // Others are not affected.
    expect((await report(others[0], { reportedId: a.id, category: 'other' })).statusCode).toBe(201);
    clock.set(first + HOUR);
    expect((await report(a, { reportedId: others[0].id, category: 'other' })).statusCode).toBe(201);
  });
});

describe('the admins’ queue', () => {
  it('lists open reports first with both players’ context', async () => {
    const reporter = await createTestUser(t.app, { name: 'reporter' });
    const reported = await createTestUser(t.app, { name: 'suspect' });
    const team = await Promise.all(Array.from({ length: 8 }, () => createTestUser(t.app)));
    // reporter on teamOne (won), suspect on teamTwo (lost).
    const matchId = await finishedMatch([reporter, reported, ...team], clock.now() - 1000);
    const earlier = (
      await report(team[0], { reportedId: reported.id, category: 'cheating', text: 'wallhack' })
    ).json();
    await resolve(earlier._id, { action: 'dismiss', note: 'no proof' });
    clock.advance(1000);
    const sanction = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${reported.id}/sanctions`,
      headers: await auth(admin),
      payload: { kind: 'mute', minutes: 10, reason: 'spam' },
    });
    expect(sanction.statusCode).toBe(201);
    const byReporter = (await report(reporter, { reportedId: team[1].id, category: 'griefing' })).json();
    clock.advance(1000);
    const current = (
      await report(reporter, { reportedId: reported.id, category: 'cheating', text: 'aimbot', matchId })
    ).json();

    const res = await queue('?limit=50');
    expect(res.statusCode).toBe(200);
    const page = res.json();
    const statuses = page.docs.map((d: any) => d.status);
    expect(statuses.indexOf('resolved')).toBeGreaterThan(statuses.lastIndexOf('open'));
    const doc = page.docs.find((d: any) => d._id === current._id);
    expect(doc).toMatchObject({
      category: 'cheating',
      text: 'aimbot',
      matchId,
      status: 'open',
      resolution: null,
      reporter: {
        _id: reporter.id,
        name: 'reporter',
        recentMatches: [{ matchId, result: 'W', score: [13, 7], map: 'Mirage' }],
        reportsAgainst: [],
        reportsBy: [
          { _id: byReporter._id, category: 'griefing', status: 'open', other: { _id: team[1].id } },
        ],
        sanctions: [],
      },
      reported: {
        _id: reported.id,
        name: 'suspect',
        recentMatches: [{ matchId, result: 'L', score: [7, 13] }],
        reportsAgainst: [
          { _id: earlier._id, status: 'resolved', action: 'dismiss', other: { _id: team[0].id } },
        ],
        reportsBy: [],
        sanctions: [{ kind: 'mute', reason: 'spam', active: true }],
      },
    });
    // Open only, paged.
    const open = (await queue('?status=open&limit=1')).json();
    expect(open.docs).toHaveLength(1);
    expect(open.docs[0].status).toBe('open');
    expect(open.totalDocs).toBeGreaterThanOrEqual(2);
    expect((await queue('?status=nope')).statusCode).toBe(422);
  });
});

describe('resolving', () => {
  async function fresh(category = 'toxicity') {
    const reporter = await createTestUser(t.app, { name: `r-${Math.random().toString(36).slice(2, 8)}` });
    const reported = await createTestUser(t.app, { name: `s-${Math.random().toString(36).slice(2, 8)}` });
    const filed = (await report(reporter, { reportedId: reported.id, category })).json();
    return { reporter, reported, id: filed._id as string };
  }
  const moderationOf = async (u: TestUser) =>
    (await t.app.inject({ method: 'GET', url: '/api/moderation/me', headers: await auth(u) })).json();
  const auditOf = async (reportedId: string, action = 'report.resolve') =>
    (await audit(`?action=${action}&target=${reportedId}`)).docs;

  it('dismiss: no sanction, audited; the reporter sees "no action"', async () => {
    const { reporter, reported, id } = await fresh();
    const res = await resolve(id, { action: 'dismiss', note: 'banter between friends' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'resolved',
      resolution: {
        action: 'dismiss',
        note: 'banter between friends',
        message: null,
        sanctionId: null,
        at: clock.now(),
        by: { _id: admin.id, name: 'the-admin' },
      },
    });
    expect(await moderationOf(reported)).toEqual({ ban: null, mute: null });
    expect(await auditOf(reported.id)).toEqual([
      expect.objectContaining({
        actor: { _id: admin.id, name: 'the-admin' },
        targetType: 'user',
        targetId: reported.id,
        reason: 'banter between friends',
        before: { report: expect.objectContaining({ id, status: 'open', action: null }) },
        after: { report: expect.objectContaining({ id, status: 'resolved', action: 'dismiss' }) },
      }),
    ]);
    const seen = await mine(reporter);
    expect(seen.docs[0]).toEqual({
      _id: id,
      createdAt: expect.any(Number),
      category: 'toxicity',
      text: '',
      matchId: null,
      reported: { _id: reported.id, name: reported.name },
      status: 'resolved',
      resolvedAt: clock.now(),
      outcome: 'no_action',
    });
    // Once only.
    expect(refusal(await resolve(id, { action: 'ban', note: 'x', message: 'y' }))).toEqual([
      409,
      'REPORT_ALREADY_RESOLVED',
    ]);
    expect(await auditOf(reported.id)).toHaveLength(1);
  });

  it('warn: the reported player gets the message; the reporter sees "action taken" and nothing private', async () => {
    const { reporter, reported, id } = await fresh();
    expect(refusal(await resolve(id, { action: 'warn', note: 'first time' }))).toEqual([422, 'MISSING']);
    const res = await resolve(id, {
      action: 'warn',
      note: 'first time',
      message: 'Keep the voice chat civil.',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().resolution).toMatchObject({ action: 'warn', message: 'Keep the voice chat civil.' });
    expect((await mine(reported)).warnings).toEqual([
      { _id: id, at: clock.now(), message: 'Keep the voice chat civil.' },
    ]);
    const seen = await mine(reporter);
    expect(seen.docs[0].outcome).toBe('action_taken');
    expect(Object.keys(seen.docs[0].reported).sort()).toEqual(['_id', 'name']);
    expect(JSON.stringify(seen)).not.toContain('first time');
    expect(JSON.stringify(seen)).not.toContain('civil');
    expect(seen.warnings).toEqual([]);
    expect(await auditOf(reported.id)).toHaveLength(1);
  });

  it('mute: a timed sanction through the moderation module, audited twice', async () => {
    const { reporter, reported, id } = await fresh();
    const res = await resolve(id, { action: 'mute', note: 'slurs', message: 'Muted for slurs', minutes: 60 });
    expect(res.statusCode).toBe(200);
    const sanctionId = res.json().resolution.sanctionId;
    expect(sanctionId).toEqual(expect.any(String));
    expect(await moderationOf(reported)).toEqual({
      ban: null,
      mute: { reason: 'Muted for slurs', endsAt: clock.now() + HOUR },
    });
    expect((await auditOf(reported.id, 'sanction.create'))[0]).toMatchObject({
      reason: 'Muted for slurs',
      after: { sanction: { id: sanctionId, kind: 'mute' } },
    });
    expect((await auditOf(reported.id))[0].after.report).toMatchObject({ action: 'mute', sanctionId });
    expect((await mine(reporter)).docs[0].outcome).toBe('action_taken');
  });

  it('ban: permanent without minutes; refused input changes nothing', async () => {
    const { reported, id } = await fresh('cheating');
    expect(refusal(await resolve(id, { action: 'ban', note: '  ', message: 'x' }))).toEqual([422, 'MISSING']);
    expect(refusal(await resolve(id, { action: 'kick', note: 'x', message: 'x' }))[0]).toBe(422);
    expect(refusal(await resolve(id, { action: 'ban', note: 'x', message: 'x', minutes: 0 }))[0]).toBe(422);
    expect(await moderationOf(reported)).toEqual({ ban: null, mute: null });
    const res = await resolve(id, { action: 'ban', note: 'demo reviewed', message: 'Cheating' });
    expect(res.statusCode).toBe(200);
    expect(await moderationOf(reported)).toEqual({ ban: { reason: 'Cheating', endsAt: null }, mute: null });
    expect(res.json().reported.sanctions).toEqual([expect.objectContaining({ kind: 'ban', active: true })]);
    expect(await auditOf(reported.id, 'sanction.create')).toHaveLength(1);
    expect(await auditOf(reported.id)).toHaveLength(1);
  });

  it('unknown report: 404', async () => {
    const res = await resolve('00000000-0000-4000-8000-000000000000', { action: 'dismiss', note: 'x' });
    expect(res.statusCode).toBe(404);
  });
});

describe('who may', () => {
  it('players get 403 on the admin routes and nothing changes', async () => {
    const [a, b] = [await createTestUser(t.app), await createTestUser(t.app)];
    const filed = (await report(a, { reportedId: b.id, category: 'other' })).json();
    expect(refusal(await queue('', a))).toEqual([403, 'UNAUTHORIZED']);
    expect(refusal(await resolve(filed._id, { action: 'dismiss', note: 'x' }, b))).toEqual([
      403,
      'UNAUTHORIZED',
    ]);
    expect((await mine(a)).docs[0].status).toBe('open');
    expect((await t.app.inject({ method: 'GET', url: '/api/reports/mine' })).statusCode).toBe(401);
  });
});
