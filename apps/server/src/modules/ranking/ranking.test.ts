import { randomUUID } from 'node:crypto';
import type { CompetitionStats, Highlight, RankingPage } from '@openpug/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  manualClock,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { matches, matchPlayers, matchRounds, type RoundPlayerStats } from '../matches/schema';
import { seasons } from './schema';

const clock = manualClock();
const DAY = 86_400_000;

interface Seat {
  user: TestUser;
  team: 'teamOne' | 'teamTwo';
  before: number;
  after: number;
  kills?: number;
  deaths?: number;
  damage?: number;
  headshots?: number;
}

async function seedMatch(
  t: TestApp,
  opts: {
    finishedAt: number;
    winner: 'teamOne' | 'teamTwo';
    score: [number, number];
    seats: Seat[];
    rounds?: { winner: 'teamOne' | 'teamTwo'; players: RoundPlayerStats[] }[];
  },
): Promise<string> {
  const id = randomUUID();
  await t.app.ctx.db.insert(matches).values({
    id,
    status: 'finished',
    createdAt: opts.finishedAt - 3_600_000,
    finishedAt: opts.finishedAt,
    teamOneName: 'team_a',
    teamTwoName: 'team_b',
    pickOrder: 'ABBAABBA',
    mapPool: [],
    mapName: 'Mirage',
    scoreOne: opts.score[0],
    scoreTwo: opts.score[1],
    winner: opts.winner,
  });
  await t.app.ctx.db.insert(matchPlayers).values(
    opts.seats.map((s) => ({
      matchId: id,
      userId: s.user.id,
      team: s.team,
      name: s.user.name,
      elo: s.before,
      eloBefore: s.before,
      eloAfter: s.after,
      kills: s.kills ?? 0,
      deaths: s.deaths ?? 0,
      damage: s.damage ?? 0,
      headshots: s.headshots ?? 0,
    })),
  );
  for (const [i, r] of (opts.rounds ?? []).entries()) {
    await t.app.ctx.db.insert(matchRounds).values({
      matchId: id,
      round: i + 1,
      scoreOne: 0,
      scoreTwo: 0,
      winner: r.winner,
      players: r.players,
      createdAt: opts.finishedAt - 1000 + i,
    });
  }
  return id;
}

const line = (userId: string, kills: number, deaths: number, headshots = 0): RoundPlayerStats => ({
  userId,
  kills,
  deaths,
  assists: 0,
  damage: kills * 100,
  headshots,
});

describe('leaderboard, stats, highlights and seasons', () => {
  let t: TestApp;
  let top: TestUser;
  let tieOld: TestUser;
  let tieNew: TestUser;
  let low: TestUser;
  let matchA: string;

  beforeAll(async () => {
    t = await createTestApp({ clock });
    await t.app.ready();
    top = await createTestUser(t.app, { name: 'Zed', elo: 260, createdAt: new Date(clock.now() - 9 * DAY) });
    tieNew = await createTestUser(t.app, {
      name: 'Bravo',
      elo: 230,
      createdAt: new Date(clock.now() - 1 * DAY),
    });
    tieOld = await createTestUser(t.app, {
      name: 'alpha',
      elo: 230,
      createdAt: new Date(clock.now() - 5 * DAY),
    });
    low = await createTestUser(t.app, {
      name: 'Charlie',
      elo: 180,
      createdAt: new Date(clock.now() - 3 * DAY),
    });

    // Two finished matches inside season1 (seeded at start: now → +3 months): Zed wins both.
    matchA = await seedMatch(t, {
      finishedAt: clock.now() + DAY,
      winner: 'teamOne',
      score: [13, 7],
      seats: [
        {
          user: top,
          team: 'teamOne',
          before: 236,
          after: 248,
          kills: 25,
          deaths: 10,
          damage: 3000,
          headshots: 10,
        },
        { user: tieNew, team: 'teamOne', before: 218, after: 230, kills: 5, deaths: 15, damage: 800 },
        { user: low, team: 'teamTwo', before: 190, after: 180, kills: 10, deaths: 20, damage: 1200 },
      ],
      rounds: [
        // Ace by Zed.
        { winner: 'teamOne', players: [line(top.id, 5, 0, 3), line(tieNew.id, 0, 1), line(low.id, 0, 1)] },
        // Clutch by Zed: teammate died, Zed survived and won the round with 2 kills.
        { winner: 'teamOne', players: [line(top.id, 2, 0), line(tieNew.id, 0, 1), line(low.id, 1, 1)] },
        // 4k by Charlie in a lost-for-teamOne round.
        { winner: 'teamTwo', players: [line(top.id, 0, 1), line(tieNew.id, 1, 1), line(low.id, 4, 0)] },
      ],
    });
    await seedMatch(t, {
      finishedAt: clock.now() + 2 * DAY,
      winner: 'teamTwo',
      score: [5, 13],
      seats: [
        {
          user: top,
          team: 'teamTwo',
          before: 248,
          after: 260,
          kills: 15,
          deaths: 10,
          damage: 1600,
          headshots: 5,
        },
        { user: low, team: 'teamOne', before: 180, after: 170, kills: 8, deaths: 12, damage: 900 },
      ],
    });
  });
  afterAll(() => t.close());

  const ranking = async (query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `/api/users/ranking${query}` });
    expect(res.statusCode).toBe(200);
    return res.json() as RankingPage;
  };

  it('ranks by Elo with a stable tie order (older account first), visible logged out', async () => {
    const page = await ranking();
    expect(page.totalDocs).toBe(4);
    expect(page.docs.map((d) => [d.rank, d.name, d.stats.elo])).toEqual([
      [1, 'Zed', 260],
      [2, 'alpha', 230],
      [3, 'Bravo', 230],
      [4, 'Charlie', 180],
    ]);
    expect(page.docs[0]).toMatchObject({ wins: 2, losses: 0, winRate: 1 });
    expect(page.docs[3]).toMatchObject({ wins: 0, losses: 2, winRate: 0 });
    expect(page.docs[1]).toMatchObject({ wins: 0, losses: 0, winRate: 0 });
  });

  it('keeps ranks through paging, sorting and the name filter', async () => {
    const second = await ranking('?page=2&limit=2');
    expect(second.docs.map((d) => [d.rank, d.name])).toEqual([
      [3, 'Bravo'],
      [4, 'Charlie'],
    ]);
    const byName = await ranking('?sort=name&order=1');
    expect(byName.docs.map((d) => [d.name, d.rank])).toEqual([
      ['alpha', 2],
      ['Bravo', 3],
      ['Charlie', 4],
      ['Zed', 1],
    ]);
    const filtered = await ranking('?filter=ch');
    expect(filtered).toMatchObject({ totalDocs: 1, docs: [{ name: 'Charlie', rank: 4 }] });
    const bad = await t.app.inject({ method: 'GET', url: '/api/users/ranking?sort=password' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toEqual({ errors: { msg: 'ERROR_WITH_FILTER' } });
  });

  it('computes stats from the stored matches', async () => {
    const res = await t.app.inject({ method: 'GET', url: `/api/users/${top.id}/stats` });
    expect(res.statusCode).toBe(200);
    const s = res.json() as CompetitionStats;
    expect(s).toMatchObject({
      matches: 2,
      wins: 2,
      losses: 0,
      winRate: 1,
      kills: 40,
      deaths: 20,
      kd: 2,
      rounds: 38,
      adr: 121.1, // 4600 / 38
      hsRate: 0.38, // 15 / 40
      lastResults: ['W', 'W'],
    });
    expect(s.eloHistory.map((p) => p.elo)).toEqual([236, 248, 260]);
    const none = await t.app.inject({ method: 'GET', url: `/api/users/${tieOld.id}/stats` });
    expect(none.json()).toMatchObject({ matches: 0, kd: 0, adr: 0, hsRate: 0, eloHistory: [] });
    expect((await t.app.inject({ method: 'GET', url: '/api/users/nope/stats' })).json()).toEqual({
      errors: { msg: 'ID_MALFORMED' },
    });
    expect((await t.app.inject({ method: 'GET', url: `/api/users/${randomUUID()}/stats` })).statusCode).toBe(
      404,
    );
  });

  it('finds aces, 4k rounds and clutches, each with its match', async () => {
    const mine = (await t.app.inject({ method: 'GET', url: `/api/users/${top.id}/highlights` })).json() as {
      docs: Highlight[];
    };
    expect(mine.docs.map((h) => [h.kind, h.round, h.matchId]).sort()).toEqual(
      [
        ['ace', 1, matchA],
        ['clutch', 1, matchA],
        ['clutch', 2, matchA],
      ].sort(),
    );
    const charlie = (
      await t.app.inject({ method: 'GET', url: `/api/users/${low.id}/highlights` })
    ).json() as {
      docs: Highlight[];
    };
    expect(charlie.docs.map((h) => h.kind)).toEqual(['4k']);
    expect(charlie.docs[0]).toMatchObject({ mapName: 'Mirage', kills: 4 });
  });

  it('season1 exists from the first start; standings count the window and freeze after the end', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/seasons/season1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.season).toMatchObject({
      _id: 'season1',
      frozen: false,
      startsAt: new Date(clock.now()).toISOString(),
    });
    expect(new Date(body.season.endsAt).getUTCMonth()).toBe((new Date(clock.now()).getUTCMonth() + 3) % 12);
    expect(
      body.standings.map((s: { name: string; eloGained: number; matches: number }) => [
        s.name,
        s.eloGained,
        s.matches,
      ]),
    ).toEqual([
      ['Zed', 24, 2],
      ['Bravo', 12, 1],
      ['Charlie', -20, 2],
    ]);

    // After the end: a match finishing later does not change the standings.
    const [season] = await t.app.ctx.db.select().from(seasons);
    clock.set(season.endsAt + DAY);
    await seedMatch(t, {
      finishedAt: season.endsAt + DAY / 2,
      winner: 'teamOne',
      score: [13, 0],
      seats: [{ user: low, team: 'teamOne', before: 170, after: 300 }],
    });
    const after = (await t.app.inject({ method: 'GET', url: '/api/seasons/season1' })).json();
    expect(after.season.frozen).toBe(true);
    expect(after.standings).toEqual(body.standings);
    expect((await t.app.inject({ method: 'GET', url: '/api/seasons/season9' })).statusCode).toBe(404);
  });

  it('does not need a login for the leaderboard, stats, highlights or season', async () => {
    for (const url of [
      '/api/users/ranking',
      `/api/users/${low.id}/stats`,
      `/api/users/${low.id}/highlights`,
      '/api/seasons/season1',
    ]) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(top.token) })).statusCode).toBe(200);
    }
  });
});
