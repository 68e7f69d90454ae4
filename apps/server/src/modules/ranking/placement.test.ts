/**
 * Placement (docs/contract.md §3 Placement): a player is unranked — rank null on the profile, the card and
 * the friend list, and not on the leaderboard — until PLACEMENT_MATCHES (default 5) finished
 * matches; only finished matches count, and ranks count ranked players only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  seedMatch,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { PLACEMENT_MATCHES: '5' } });
});
afterAll(() => t?.close());

const board = async () =>
  (await t.app.inject({ url: '/api/users/ranking?limit=100' })).json() as {
    docs: { _id: string; rank: number }[];
    totalDocs: number;
    placementMatches: number;
  };
const profileRank = async (u: TestUser) =>
  (await t.app.inject({ url: '/api/profile', headers: bearer(u.token) })).json().rank;
const cardRank = async (u: TestUser) => (await t.app.inject({ url: `/api/users/${u.id}` })).json().rank;

describe('placement', () => {
  it('is unranked until the fifth finished match, then ranked among ranked players only', async () => {
    const veteran = await createTestUser(t.app, { name: 'Veteran', elo: 150 });
    const rookie = await createTestUser(t.app, { name: 'Rookie', elo: 400 });
    for (let i = 0; i < 5; i++) await seedMatch(t.app, 'finished', [veteran]);
    for (let i = 0; i < 4; i++) await seedMatch(t.app, 'finished', [rookie]);
    // A live match does not count.
    await seedMatch(t.app, 'active', [rookie]);

    const before = await board();
    expect(before.placementMatches).toBe(5);
    expect(before.docs.map((d) => d._id)).toEqual([veteran.id]);
    expect(before.docs[0].rank).toBe(1);
    // The rookie's higher Elo ranks above nobody while unranked.
    expect(await profileRank(rookie)).toBeNull();
    expect(await cardRank(rookie)).toBeNull();
    expect(await profileRank(veteran)).toBe(1);
    expect(await cardRank(veteran)).toBe(1);

    await seedMatch(t.app, 'finished', [rookie]);
    const after = await board();
    expect(after.docs.map((d) => [d._id, d.rank])).toEqual([
      [rookie.id, 1],
      [veteran.id, 2],
    ]);
    expect(await profileRank(rookie)).toBe(1);
    expect(await profileRank(veteran)).toBe(2);
  });
});
