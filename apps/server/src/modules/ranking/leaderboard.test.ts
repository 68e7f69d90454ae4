/**
 * The leaderboard snapshot: one consistent ranking served from memory. A change this instance
 * hears of shows at the next read; a change made elsewhere (another instance, straight into the
 * database) shows once the change stamp moves, after RANKING_REFRESH_MS; between the two the
 * pages stay one stable ranking.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, createTestUser, type TestApp } from '../../../test/helpers';
import { users } from '../accounts/schema';
import { ranksOfUsers } from '../accounts/service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RANKING_REFRESH_MS: '200', RANKING_FULL_REFRESH_MS: '600000' } });
});
afterAll(() => t?.close());

const board = async (query = '') =>
  (await t.app.inject({ url: `/api/users/ranking?limit=50${query}` })).json() as {
    docs: { _id: string; rank: number; name: string }[];
    totalDocs: number;
  };

describe('leaderboard snapshot', () => {
  it('serves one stable ranking until the change stamp moves, then the new one', async () => {
    const a = await createTestUser(t.app, { name: 'Snap A', elo: 300 });
    const b = await createTestUser(t.app, { name: 'Snap B', elo: 250 });
    t.app.ctx.bus.emit('user.created', { userId: b.id });
    const first = await board();
    expect(first.docs.map((d) => d._id)).toEqual([a.id, b.id]);

    // Another instance signs someone up (here: straight into the database, no event on this bus).
    const topId = randomUUID();
    await t.app.ctx.db.insert(users).values({ id: topId, name: 'Snap Top', elo: 999 });
    const stillOld = await board();
    expect(stillOld.docs.map((d) => d._id)).toEqual([a.id, b.id]);
    expect(stillOld.totalDocs).toBe(2);
    // Filters and sorts answer from the same snapshot: the same ranks.
    expect((await board('&filter=snap%20b')).docs).toEqual([expect.objectContaining({ _id: b.id, rank: 2 })]);

    await new Promise((r) => setTimeout(r, 250));
    await board(); // the read after RANKING_REFRESH_MS checks the stamp and rebuilds in the background
    await expect
      .poll(async () => (await board()).docs.map((d) => [d._id, d.rank]))
      .toEqual([
        [topId, 1],
        [a.id, 2],
        [b.id, 3],
      ]);
  });

  it('shows a change this instance heard of at the very next read', async () => {
    const before = await board();
    const renamed = before.docs[0];
    await t.app.inject({ url: '/api/users/ranking' }); // a fresh snapshot is in place
    const user = await createTestUser(t.app, { name: 'Snap New', elo: 10_000 });
    // An event of this instance (sign-up) marks the snapshot dirty: no waiting.
    await t.app.ctx.bus.emit('user.created', { userId: user.id });
    const after = await board();
    expect(after.docs[0]).toMatchObject({ _id: user.id, rank: 1, name: 'Snap New' });
    expect(after.docs[1]).toMatchObject({ _id: renamed._id, rank: 2 });
  });

  it('gives cards and profiles the rank of the leaderboard, from the same snapshot', async () => {
    const top = (await board()).docs[0];
    const card = async (id: string) =>
      (await t.app.inject({ url: `/api/users/${id}` })).json() as { _id: string; rank: number | null };
    expect((await card(top._id)).rank).toBe(top.rank);

    // A new leader written straight into the database (another instance): until the snapshot
    // follows, card and leaderboard agree on the old ranks...
    const leaderId = randomUUID();
    await t.app.ctx.db.insert(users).values({ id: leaderId, name: 'Snap Leader', elo: 50_000 });
    expect((await card(top._id)).rank).toBe((await board()).docs[0].rank);
    // ...and right after a commit that moved Elo (a result, a correction), `fresh` reads anew.
    const ranks = await ranksOfUsers(t.app.ctx, [leaderId, top._id], { fresh: true });
    expect(ranks.get(leaderId)).toBe(1);
    expect(ranks.get(top._id)).toBe(2);
    expect((await card(top._id)).rank).toBe(2);
    expect((await board()).docs[0]._id).toBe(leaderId);
  });
});
