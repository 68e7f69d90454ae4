import { randomUUID } from 'node:crypto';
import type { DirectoryUser } from '@openpug/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createTestApp, createTestUser, type TestApp, type TestUser } from '../../../test/helpers';
import { matches, matchPlayers } from '../../db/schema';

describe('users: the player directory and the public user card', () => {
  let t: TestApp;
  let viewer: TestUser;
  let admin: TestUser;
  const ids: Record<string, string> = {};
  const list = async (query: string, as: TestUser = viewer) => {
    const res = await t.app.inject({ url: `/api/users${query}`, headers: bearer(as.token) });
    return { status: res.statusCode, body: res.json() };
  };
  const names = (docs: DirectoryUser[]) => docs.map((d) => d.name);

  beforeAll(async () => {
    t = await createTestApp();
    const people: Array<[string, number]> = [
      ['anna', 300],
      ['Annabel', 260],
      ['bert', 200],
      ['Carla', 410],
      ['50%_off', 150],
    ];
    for (const [i, [name, elo]] of people.entries()) {
      const u = await createTestUser(t.app, {
        name,
        elo,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
        steamUrl: `https://steamcommunity.com/id/${name}`,
      });
      ids[name] = u.id;
    }
    viewer = await createTestUser(t.app, {
      name: 'viewer',
      elo: 100,
      createdAt: new Date(Date.UTC(2026, 1, 1)),
    });
    admin = await createTestUser(t.app, {
      name: 'zed-admin',
      elo: 90,
      role: 'ADMIN',
      createdAt: new Date(Date.UTC(2026, 1, 2)),
    });
  });
  afterAll(() => t.close());

  it('lists every player for logged-in users, sorted, paged and filtered by name', async () => {
    const anon = await t.app.inject('/api/users');
    expect([anon.statusCode, anon.json()]).toEqual([401, { errors: { msg: 'UNAUTHORIZED' } }]);

    const all = await list('');
    expect(all.status).toBe(200);
    expect(all.body.totalDocs).toBe(7);
    expect(names(all.body.docs)).toEqual([
      '50%_off',
      'anna',
      'Annabel',
      'bert',
      'Carla',
      'viewer',
      'zed-admin',
    ]);
    const carla = all.body.docs.find((d: DirectoryUser) => d.name === 'Carla');
    expect(carla).toEqual({
      _id: ids.Carla,
      name: 'Carla',
      avatar: null,
      steamUrl: 'https://steamcommunity.com/id/Carla',
      matrixId: expect.any(String),
      stats: { elo: 410 },
      rank: 1,
      status: expect.objectContaining({ online: false }),
      createdAt: new Date(Date.UTC(2026, 0, 4)).toISOString(),
    });
    expect(carla).not.toHaveProperty('email');

    const byElo = await list('?sort=elo&order=-1&limit=3');
    expect(names(byElo.body.docs)).toEqual(['Carla', 'anna', 'Annabel']);
    expect(byElo.body.docs.map((d: DirectoryUser) => d.rank)).toEqual([1, 2, 3]);
    expect(byElo.body.totalDocs).toBe(7);
    const page2 = await list('?sort=elo&order=-1&limit=3&page=2');
    expect(names(page2.body.docs)).toEqual(['bert', '50%_off', 'viewer']);
    const newest = await list('?sort=createdAt&order=-1&limit=1');
    expect(names(newest.body.docs)).toEqual(['zed-admin']);

    const filtered = await list('?filter=ANN');
    expect(names(filtered.body.docs)).toEqual(['anna', 'Annabel']);
    expect(filtered.body.totalDocs).toBe(2);
    // Wildcards are matched literally.
    expect(names((await list(`?filter=${encodeURIComponent('%_')}`)).body.docs)).toEqual(['50%_off']);
    expect((await list('?filter=nobody')).body).toEqual({ docs: [], totalDocs: 0 });
    expect((await list('?page=9')).body).toEqual({ docs: [], totalDocs: 7 });
  });

  it('shows e-mail, role and verified to admins only', async () => {
    const res = await list('?filter=bert', admin);
    expect(res.body.docs[0]).toMatchObject({
      name: 'bert',
      email: expect.stringContaining('@'),
      role: 'USER',
      verified: true,
    });
    expect((await list('?filter=bert')).body.docs[0]).not.toHaveProperty('role');
  });

  it('refuses bad list queries with a key', async () => {
    for (const [query, key] of [
      ['?sort=email', 'ERROR_WITH_FILTER'],
      ['?limit=1000', 'INVALID_INPUT'],
      ['?page=0', 'INVALID_INPUT'],
      ['?order=2', 'INVALID_INPUT'],
    ]) {
      const res = await list(query);
      expect([res.status, res.body]).toEqual([422, { errors: { msg: key } }]);
    }
  });

  it('shows the public card to anyone, with rank by Elo and live status', async () => {
    const res = await t.app.inject(`/api/users/${ids.anna}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      _id: ids.anna,
      name: 'anna',
      avatar: null,
      steamUrl: 'https://steamcommunity.com/id/anna',
      matrixId: expect.stringMatching(new RegExp(`^@${ids.anna}:`)),
      banner: 'ezpug',
      recentResults: [],
      // No accept phase, match or offence yet: no reliability score ("New" on the card).
      reliability: null,
      stats: { elo: 300 },
      rank: 2,
      status: {
        online: false,
        inArena: false,
        inQueue: false,
        teamSpeak: false,
        lastSeen: null,
        teamOne: false,
        match: { active: false, matchId: null, status: null, map: null, score: { teamOne: 0, teamTwo: 0 } },
      },
    });
    expect((await t.app.inject(`/api/users/${viewer.id}`)).json().rank).toBe(6);
    const malformed = await t.app.inject('/api/users/12345');
    expect([malformed.statusCode, malformed.json()]).toEqual([400, { errors: { msg: 'ID_MALFORMED' } }]);
    const unknown = await t.app.inject(`/api/users/${randomUUID()}`);
    expect([unknown.statusCode, unknown.json()]).toEqual([404, { errors: { msg: 'NOT_FOUND' } }]);
  });

  it('shows the last five finished results on the card, newest first', async () => {
    // Six finished matches for bert (oldest first): W L W W L W; the oldest drops off.
    const outcomes = ['W', 'L', 'W', 'W', 'L', 'W'];
    for (const [i, outcome] of outcomes.entries()) {
      const id = randomUUID();
      await t.app.ctx.db.insert(matches).values({
        id,
        status: 'finished',
        createdAt: 1_000 + i,
        finishedAt: 2_000 + i,
        teamOneName: 'team_a',
        teamTwoName: 'team_b',
        pickOrder: '',
        mapPool: [],
        winner: outcome === 'W' ? 'teamOne' : 'teamTwo',
      });
      await t.app.ctx.db
        .insert(matchPlayers)
        .values({ matchId: id, userId: ids.bert, team: 'teamOne', name: 'bert', elo: 200 });
    }
    const card = (await t.app.inject(`/api/users/${ids.bert}`)).json();
    expect(card.recentResults).toEqual(['W', 'L', 'W', 'W', 'L']);
  });
});
