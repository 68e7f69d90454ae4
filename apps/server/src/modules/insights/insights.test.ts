/**
 * Queue insights and draft fairness end to end (docs/contract.md §4): the real queue writes its
 * per-minute history, timed-out picks take the fairest player, the match stores its win
 * probability at live; the fill estimate, the heatmap and the admins' calibration read it back.
 */
import { type MatchState, teamWinProbability } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { fairestPick } from '../matches/fairness';
import { matches } from '../matches/schema';
import { DAY_MS, MINUTE_MS } from './eta';
import { queueMinutes } from './schema';

const T0 = Date.UTC(2026, 10, 21, 12);
const clock = manualClock(T0);
let t: TestApp;
let admin: TestUser;
const sockets: Socket[] = [];

const advance = async (ms: number) => {
  clock.advance(ms);
  await t.app.ctx.jobs.runDue();
};
const get = (url: string, user: TestUser | null) =>
  t.app.inject({ method: 'GET', url, headers: user ? bearer(user.token) : {} });
const history = () => t.app.ctx.db.select().from(queueMinutes).orderBy(queueMinutes.minute);

async function player(elo: number) {
  const user = await createTestUser(t.app, { teamSpeakId: `ts-${Math.random()}`, elo });
  const socket = await connectSocket(t.url, user.token);
  sockets.push(socket);
  const ack = (event: string, payload: unknown) =>
    socket.emitWithAck(event, payload) as Promise<{ ok: boolean; msg?: string; data?: unknown }>;
  return { user, ack };
}

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: { PICK_TIMEOUT_MS: '30000', BAN_TIMEOUT_MS: '30000', SIM_ROUND_MS: '1000', JOBS_POLL_MS: '0' },
  });
  await t.listen();
  admin = await createTestUser(t.app, { role: 'ADMIN' });
});
afterAll(async () => {
  for (const s of sockets) s.disconnect();
  await t.close();
});

describe('queue history, fair auto-pick and the prediction at live', () => {
  const ps: Awaited<ReturnType<typeof player>>[] = [];
  let matchId = '';
  const matchRow = async () => (await t.app.ctx.db.select().from(matches).where(eq(matches.id, matchId)))[0];

  it('says "not enough data" without a history', async () => {
    const res = await get('/api/queue/eta', admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'notEnoughData', days: 0, count: 0 });
    expect((await get('/api/queue/eta', null)).statusCode).toBe(401);
  });

  it('the queue records its peak count and the match start of each minute', async () => {
    // Two strong captains and a pool in which the highest-rated player is not always the fairest.
    for (const elo of [1500, 1400, 1350, 1000, 900, 800, 700, 650, 300, 250]) ps.push(await player(elo));
    for (const p of ps) expect((await p.ack('queue-message', { event: 'join' })).ok).toBe(true);
    for (const p of ps) expect((await p.ack('queue-message', { event: 'ready' })).ok).toBe(true);
    expect(await history()).toEqual([{ minute: T0, peak: 10, matchStarts: 1 }]);
    const [row] = await t.app.ctx.db.select({ id: matches.id }).from(matches);
    matchId = row.id;
  });

  it('every timed-out pick takes the player who keeps the teams fairest, not just the highest-rated', async () => {
    const stateOf = async () =>
      (await ps[0].ack('match-message', { event: 'get-state', data: { matchId } })).data as MatchState;
    let differed = 0;
    for (let s = await stateOf(); s.status === 'playerveto'; s = await stateOf()) {
      const turn = s.turn as 'teamOne' | 'teamTwo';
      const other = turn === 'teamOne' ? 'teamTwo' : 'teamOne';
      const expected = fairestPick(
        s[turn].players.map((p) => p.elo),
        s[other].players.map((p) => p.elo),
        s.pool,
      );
      const highest = s.pool[0]; // the pool comes sorted by Elo, highest first
      if (expected?._id !== highest._id) differed++;
      await advance(30_000);
      const after = await stateOf();
      expect(after[turn].players.map((p) => p._id)).toContain(expected?._id);
    }
    expect(differed).toBeGreaterThan(0);
  });

  it("stores team one's win probability when the match goes live, once", async () => {
    for (let i = 0; i < 6; i++) await advance(30_000); // the bans time out
    const before = await matchRow();
    expect(before.status).toBe('active');
    expect(before.winProbability).toBeNull();
    // Allocation, then the simulator's steps until going_live.
    for (let i = 0; i < 10 && (await matchRow()).liveAt === null; i++) await advance(1_000);
    const state = (await ps[0].ack('match-message', { event: 'get-state', data: { matchId } }))
      .data as MatchState;
    const live = await matchRow();
    expect(live.liveAt).not.toBeNull();
    const expected = teamWinProbability(
      state.teamOne.players.map((p) => p.elo),
      state.teamTwo.players.map((p) => p.elo),
    );
    expect(live.winProbability).toBeCloseTo(expected, 12);
    expect(Math.abs(expected - 0.5)).toBeLessThan(0.1);
  });
});

describe('fill estimate and heatmap', () => {
  const NOW = T0 + 7 * DAY_MS;

  it('estimates from the starts at this hour on earlier days, with its basis; the queue count shortens it', async () => {
    clock.set(NOW);
    admin = await createTestUser(t.app, { role: 'ADMIN' }); // a session of the new day
    // Two starts in the window of each of the last six days (the history reaches back to T0, so
    // the seventh day's window is not covered), one start outside any window.
    const rows = [];
    for (let k = 1; k <= 6; k++) {
      rows.push({ minute: NOW - k * DAY_MS + 5 * MINUTE_MS, peak: 10, matchStarts: 1 });
      rows.push({ minute: NOW - k * DAY_MS - 20 * MINUTE_MS, peak: 10, matchStarts: 1 });
    }
    rows.push({ minute: NOW - 2 * DAY_MS + 3 * 60 * MINUTE_MS, peak: 10, matchStarts: 1 });
    await t.app.ctx.db.insert(queueMinutes).values(rows);
    // 12 starts in 6 days × 60 min = 120 players in 360 min: 10 missing players take 30 min.
    expect((await get('/api/queue/eta', admin)).json()).toEqual({
      status: 'estimate',
      minutes: 30,
      days: 6,
      count: 0,
    });
    const someone = await player(200);
    expect((await someone.ack('queue-message', { event: 'join' })).ok).toBe(true);
    expect((await get('/api/queue/eta', admin)).json()).toEqual({
      status: 'estimate',
      minutes: 27,
      days: 6,
      count: 1,
    });
    expect((await someone.ack('queue-message', { event: 'leave' })).ok).toBe(true);
  });

  it("counts the last 28 days of match starts by weekday and hour in the player's time zone", async () => {
    const res = await get('/api/queue/heatmap?tz=Europe/Berlin', admin);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(14);
    expect(body.cells).toHaveLength(7);
    // The real match: Saturday 2026-11-21 12:00 UTC = 13:00 in Berlin (CET). The seeded starts on
    // Sunday 22nd: 12:05 UTC = 13:05 and 11:40 UTC = 12:40 there.
    const [sat, sun] = [5, 6];
    expect(body.cells[sat][13]).toBe(1);
    expect(body.cells[sat][12]).toBe(0);
    expect(body.cells[sun][13]).toBe(1);
    expect(body.cells[sun][12]).toBe(1);
    const utc = (await get('/api/queue/heatmap?tz=UTC', admin)).json();
    expect(utc.cells[sat][12]).toBe(1);
    expect(utc.cells[sun][11]).toBe(1);
  });

  it('refuses an unknown time zone and a missing one with 422, without a session 401', async () => {
    for (const q of ['?tz=Mars/Base', '', '?tz='])
      expect((await get(`/api/queue/heatmap${q}`, admin)).json()).toMatchObject({
        errors: { msg: expect.any(String) },
      });
    const bad = await get('/api/queue/heatmap?tz=Mars/Base', admin);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ errors: { msg: 'TIME_ZONE_INVALID' } });
    expect((await get('/api/queue/heatmap?tz=UTC', null)).statusCode).toBe(401);
  });

  it('drops minutes older than 8 weeks as new ones are written', async () => {
    await t.app.ctx.db.insert(queueMinutes).values({ minute: NOW - 60 * DAY_MS, peak: 3, matchStarts: 1 });
    clock.advance(11 * MINUTE_MS);
    const someone = await player(200);
    expect((await someone.ack('queue-message', { event: 'join' })).ok).toBe(true);
    const minutes = (await history()).map((r) => r.minute);
    expect(minutes).not.toContain(NOW - 60 * DAY_MS);
    expect(minutes).toContain(clock.now() - (clock.now() % MINUTE_MS));
  });
});

describe('calibration (admins)', () => {
  it('is for admins only', async () => {
    const user = await createTestUser(t.app, {});
    expect((await get('/api/admin/calibration', user)).statusCode).toBe(403);
    expect((await get('/api/admin/calibration', null)).statusCode).toBe(401);
  });

  it('says "not enough" below 30 matches, then gives the Brier score and the reliability bins', async () => {
    const early = (await get('/api/admin/calibration', admin)).json();
    expect(early).toEqual({ matches: 0, minMatches: 30, brier: null, bins: [] });
    // 40 finished matches: 20 predicted 0.7 (14 won by team one), 20 predicted 0.35 (7 won), one
    // draw and one without prediction that do not count.
    const base = {
      status: 'finished' as const,
      createdAt: clock.now(),
      teamOneName: 'a',
      teamTwoName: 'b',
      pickOrder: 'ABBAABBA',
      mapPool: [],
    };
    const rows: (typeof matches.$inferInsert)[] = [];
    for (let i = 0; i < 20; i++) {
      rows.push({ ...base, id: `cal-a-${i}`, winProbability: 0.7, winner: i < 14 ? 'teamOne' : 'teamTwo' });
      rows.push({ ...base, id: `cal-b-${i}`, winProbability: 0.35, winner: i < 7 ? 'teamOne' : 'teamTwo' });
    }
    rows.push({ ...base, id: 'cal-draw', winProbability: 0.5, winner: 'draw' });
    rows.push({ ...base, id: 'cal-none', winProbability: null, winner: 'teamOne' });
    await t.app.ctx.db.insert(matches).values(rows);
    const res = (await get('/api/admin/calibration', admin)).json();
    expect(res.matches).toBe(40);
    const brier = (14 * 0.3 ** 2 + 6 * 0.7 ** 2 + 7 * 0.65 ** 2 + 13 * 0.35 ** 2) / 40;
    expect(res.brier).toBeCloseTo(brier, 12);
    expect(res.minMatches).toBe(30);
    const rounded = res.bins.map((b: Record<string, number>) =>
      Object.fromEntries(Object.entries(b).map(([k, v]) => [k, Math.round(v * 1e9) / 1e9])),
    );
    expect(rounded).toEqual([
      { from: 0.3, to: 0.4, count: 20, predicted: 0.35, observed: 0.35 },
      { from: 0.7, to: 0.8, count: 20, predicted: 0.7, observed: 0.7 },
    ]);
  });
});
