import { randomUUID } from 'node:crypto';
import type { DropEngineState, DropItem, DropsPage, PublicDrop } from '@openpug/shared';
import { and, eq, lte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  nextEvent,
  seedMatch,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { jobs } from '../../jobs/schema';
import { findUserById } from '../accounts/service';
import { dropAwards, dropEngine, drops } from './schema';
import { rollJob, setRandomSource } from './service';

const clock = manualClock();
const INTERVAL = 60_000;

describe('drops: admin catalogue, engine, showcase and seen badge', () => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  let idle: TestUser;
  let finished: TestUser;
  let liveMatch: string;
  const randoms: number[] = [];

  const as = (who: TestUser) => bearer(who.token);
  /** One interval on: runs what is due and says how many drop rolls fired (other modules' jobs, such as the queue alerts' check, may fire beside them). */
  const roll = async () => {
    clock.advance(INTERVAL);
    // The rolls due now; a fired one leaves no row (and books the next under a new nonce).
    const dueRolls = async () =>
      t.app.ctx.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(eq(jobs.kind, rollJob.kind), lte(jobs.dueAt, clock.now())));
    const due = (await dueRolls()).map((r) => r.id);
    await t.app.ctx.jobs.runDue();
    const left = new Set((await dueRolls()).map((r) => r.id));
    return due.filter((id) => !left.has(id)).length;
  };
  const engine = async () =>
    (
      await t.app.inject({ method: 'GET', url: '/api/drops/engine', headers: as(admin) })
    ).json() as DropEngineState;
  const awards = () => t.app.ctx.db.select().from(dropAwards);

  beforeAll(async () => {
    t = await createTestApp({
      clock,
      env: { DROP_INTERVAL_MS: String(INTERVAL), DROP_BASE_CHANCE: '0.25', DROPS_ENABLED: 'true' },
    });
    setRandomSource(t.app.ctx, () => randoms.shift() ?? 0);
    await t.listen();
    admin = await createTestUser(t.app, { name: 'Admin', role: 'ADMIN' });
    user = await createTestUser(t.app, { name: 'Plain' });
    alice = await createTestUser(t.app, { name: 'Alice' });
    bob = await createTestUser(t.app, { name: 'Bob' });
    idle = await createTestUser(t.app, { name: 'Idle' });
    finished = await createTestUser(t.app, { name: 'Done' });
    liveMatch = await seedMatch(t.app, 'active', [alice, bob]);
    await seedMatch(t.app, 'finished', [finished]);
  });
  afterAll(() => t.close());

  it('every admin call as a USER is 403 UNAUTHORIZED and changes nothing; logged out is 401', async () => {
    const [item] = await t.app.ctx.db
      .insert(drops)
      .values({
        id: randomUUID(),
        name: 'Probe',
        image: 'crate',
        rarity: 'common',
        amount: 1,
        createdAt: clock.now(),
      })
      .returning();
    const calls = [
      { method: 'GET', url: '/api/drops' },
      { method: 'GET', url: '/api/drops/awards' },
      {
        method: 'POST',
        url: '/api/drops/',
        payload: { name: 'X', image: 'crate', rarity: 'rare', amount: 1 },
      },
      { method: 'PATCH', url: `/api/drops/${randomUUID()}`, payload: { redeemed: true } },
      { method: 'DELETE', url: `/api/drops/${item.id}` },
      { method: 'GET', url: '/api/drops/engine' },
      { method: 'PUT', url: '/api/drops/engine', payload: { enabled: false, intervalMs: 5_000 } },
      { method: 'POST', url: '/api/drops/engine/roll', payload: { force: true } },
      { method: 'PATCH', url: `/api/users/${user.id}/role`, payload: { role: 'ADMIN' } },
    ] as const;
    const before = {
      drops: await t.app.ctx.db.select().from(drops),
      engine: await t.app.ctx.db.select().from(dropEngine),
      awards: await awards(),
    };
    for (const call of calls) {
      const res = await t.app.inject({ ...call, headers: as(user) });
      expect([call.url, res.statusCode, res.json()]).toEqual([
        call.url,
        403,
        { errors: { msg: 'UNAUTHORIZED' } },
      ]);
      expect((await t.app.inject({ ...call })).statusCode).toBe(401);
    }
    expect(await t.app.ctx.db.select().from(drops)).toEqual(before.drops);
    expect(await t.app.ctx.db.select().from(dropEngine)).toEqual(before.engine);
    expect(await awards()).toEqual(before.awards);
    expect((await findUserById(t.app.ctx.db, user.id))?.role).toBe('USER');
    // Tidy up the probe as an admin: DELETE works and hides it from the list.
    const del = await t.app.inject({ method: 'DELETE', url: `/api/drops/${item.id}`, headers: as(admin) });
    expect(del.json()).toEqual({ _id: item.id, msg: 'DELETED_SUCCESSFULLY' });
    expect(
      (await t.app.inject({ method: 'DELETE', url: `/api/drops/${item.id}`, headers: as(admin) })).statusCode,
    ).toBe(404);
  });

  it('admins create drops (201 SAVED_SUCCESSFULLY); bad input is refused with nothing saved', async () => {
    for (const [payload, key] of [
      [{ image: 'crate', rarity: 'rare', amount: 1 }, 'MISSING'],
      [{ name: ' ', image: 'crate', rarity: 'rare', amount: 1 }, 'IS_EMPTY'],
      [{ name: 'X', image: 'crate', rarity: 'mythic', amount: 1 }, 'INVALID_INPUT'],
      [{ name: 'X', image: 'javascript:alert(1)', rarity: 'rare', amount: 1 }, 'INVALID_INPUT'],
      [{ name: 'X', image: 'crate', rarity: 'rare', amount: 0 }, 'INVALID_INPUT'],
      [{ name: 'X', image: 'crate', rarity: 'rare', amount: 1, unlocksBanner: 'nope' }, 'INVALID_INPUT'],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url: '/api/drops/', headers: as(admin), payload });
      expect([res.statusCode, res.json()]).toEqual([422, { errors: { msg: key } }]);
    }
    const list = await t.app.inject({ method: 'GET', url: '/api/drops', headers: as(admin) });
    expect(list.json()).toEqual({ docs: [], totalDocs: 0 });

    const knife = await t.app.inject({
      method: 'POST',
      url: '/api/drops/',
      headers: as(admin),
      payload: {
        name: 'Golden Knife',
        image: 'knife',
        rarity: 'legendary',
        amount: 1,
        unlocksBanner: 'inferno',
      },
    });
    expect(knife.statusCode).toBe(201);
    expect(knife.json()).toMatchObject({
      name: 'Golden Knife',
      amount: 1,
      awarded: 0,
      msg: 'SAVED_SUCCESSFULLY',
    });
    clock.advance(1); // the engine picks among items by index in creation order
    const crate = await t.app.inject({
      method: 'POST',
      url: '/api/drops/',
      headers: as(admin),
      payload: { name: 'Crate', image: 'crate', rarity: 'common', amount: 5, unlocksSound: 'chime.mp3' },
    });
    expect(crate.statusCode).toBe(201);
    const page = (
      await t.app.inject({ method: 'GET', url: '/api/drops?sort=rarity&order=-1', headers: as(admin) })
    ).json();
    expect(page.totalDocs).toBe(2);
    expect(page.docs.map((d: DropItem) => d.name)).toEqual(['Golden Knife', 'Crate']);
  });

  it('rolls on its interval with growing odds, awards only live players, fewest drops first, never more than the amount', async () => {
    await t.app.inject({
      method: 'PUT',
      url: '/api/drops/engine',
      headers: as(admin),
      payload: { enabled: true, intervalMs: INTERVAL },
    });
    expect(await engine()).toMatchObject({ enabled: true, intervalMs: INTERVAL, nextChance: 0.25 });

    const watcher = await connectSocket(t.url);
    randoms.push(0.9); // 0.9 ≥ 0.25 → miss
    expect(await roll()).toBe(1);
    expect((await engine()).nextChance).toBe(0.5);
    randoms.push(0.6); // ≥ 0.5 → miss
    await roll();
    expect((await engine()).nextChance).toBe(0.75);
    expect(await awards()).toHaveLength(0);

    // 0.7 < 0.75 → drop; then the winner among the fewest-drops candidates (Alice, Bob: index 0 of
    // the id-sorted pair) and the item (index 0 = the knife, created first).
    randoms.push(0.7, 0, 0);
    const publicDrop = nextEvent<PublicDrop>(watcher, 'PUBLIC_DROP');
    await roll();
    const [first] = await awards();
    const firstOwner = first.ownerId === alice.id ? alice : bob;
    expect([alice.id, bob.id]).toContain(first.ownerId);
    expect(first.matchId).toBe(liveMatch);
    expect(await publicDrop).toEqual({ username: firstOwner.name, dropName: 'Golden Knife' });
    expect((await engine()).nextChance).toBe(0.25); // reset after a drop
    expect((await findUserById(t.app.ctx.db, firstOwner.id))?.unseenDropsCount).toBe(1);
    expect((await findUserById(t.app.ctx.db, firstOwner.id))?.unlockedBanners).toContain('inferno');

    // Next drop: the other live player (fewest drops), and the knife (amount 1) is used up → crate.
    randoms.push(0, 0, 0);
    await roll();
    const second = (await awards()).find((a) => a.id !== first.id);
    const other = firstOwner === alice ? bob : alice;
    expect(second?.ownerId).toBe(other.id);
    const knifeId = first.dropId;
    expect(second?.dropId).not.toBe(knifeId);

    // Many more forced drops: the knife is never awarded again; idle/finished players get nothing.
    for (let i = 0; i < 6; i++) {
      randoms.push(0, 0.99, 0.99);
      await roll();
    }
    const all = await awards();
    expect(all.filter((a) => a.dropId === knifeId)).toHaveLength(1);
    expect(all).toHaveLength(6); // 1 knife + 5 crates, then nothing left
    expect(all.every((a) => a.ownerId === alice.id || a.ownerId === bob.id)).toBe(true);
    watcher.disconnect();
  });

  it('shows a player their drops, marks them seen (badge back to 0) and unlocks the sound', async () => {
    const count = (await findUserById(t.app.ctx.db, alice.id))?.unseenDropsCount ?? 0;
    expect(count).toBeGreaterThan(0);
    const own = (
      await t.app.inject({ method: 'GET', url: `/api/users/${alice.id}/drops`, headers: as(alice) })
    ).json() as DropsPage;
    expect(own.totalDocs).toBe(count);
    expect(own.docs[0]).toMatchObject({
      owner: { _id: alice.id, name: 'Alice' },
      seen: false,
      redeemed: false,
    });
    const publicView = (
      await t.app.inject({ method: 'GET', url: `/api/users/${alice.id}/drops` })
    ).json() as DropsPage;
    expect(publicView.docs[0].redeemed).toBeUndefined();

    const socket = await connectSocket(t.url, alice.token);
    const update = nextEvent<{ unseenDropsCount: number }>(socket, 'privateUserUpdate');
    const seen = await t.app.inject({
      method: 'POST',
      url: '/api/profile/markDropsAsSeen',
      headers: as(alice),
    });
    expect(seen.json()).toEqual({ unseenDropsCount: 0 });
    expect((await update).unseenDropsCount).toBe(0);
    socket.disconnect();
    expect((await findUserById(t.app.ctx.db, alice.id))?.unseenDropsCount).toBe(0);
    const after = (
      await t.app.inject({ method: 'GET', url: `/api/users/${alice.id}/drops`, headers: as(alice) })
    ).json() as DropsPage;
    expect(after.docs.every((d) => d.seen)).toBe(true);

    const unlocks = (
      await t.app.inject({ method: 'GET', url: '/api/profile/unlocks', headers: as(alice) })
    ).json();
    expect(unlocks.sounds).toEqual(['retro.mp3', 'chime.mp3']);
    expect((await t.app.inject({ method: 'POST', url: '/api/profile/markDropsAsSeen' })).statusCode).toBe(
      401,
    );
    for (const u of [idle, finished]) {
      expect((await t.app.inject({ method: 'GET', url: `/api/users/${u.id}/drops` })).json()).toEqual({
        docs: [],
        totalDocs: 0,
      });
    }
  });

  it('PATCH changes only redeemed; anything else is refused with nothing changed', async () => {
    const [award] = await awards();
    for (const payload of [{ redeemed: 'yes' }, { redeemed: true, ownerId: user.id }, {}]) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/api/drops/${award.id}`,
        headers: as(admin),
        payload,
      });
      expect(res.statusCode).toBe(422);
    }
    expect((await t.app.ctx.db.select().from(dropAwards).where(eq(dropAwards.id, award.id)))[0]).toEqual(
      award,
    );
    const ok = await t.app.inject({
      method: 'PATCH',
      url: `/api/drops/${award.id}`,
      headers: as(admin),
      payload: { redeemed: true },
    });
    expect(ok.json()).toMatchObject({ _id: award.id, redeemed: true, msg: 'SAVED_SUCCESSFULLY' });
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: '/api/drops/bad',
          headers: as(admin),
          payload: { redeemed: true },
        })
      ).json(),
    ).toEqual({
      errors: { msg: 'ID_MALFORMED' },
    });
    expect(
      (
        await t.app.inject({
          method: 'PATCH',
          url: `/api/drops/${randomUUID()}`,
          headers: as(admin),
          payload: { redeemed: true },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('turning the engine off stops the rolls; bad settings are refused', async () => {
    const bad = await t.app.inject({
      method: 'PUT',
      url: '/api/drops/engine',
      headers: as(admin),
      payload: { enabled: true, intervalMs: 5 },
    });
    expect([bad.statusCode, bad.json()]).toEqual([422, { errors: { msg: 'INVALID_INPUT' } }]);
    const off = await t.app.inject({
      method: 'PUT',
      url: '/api/drops/engine',
      headers: as(admin),
      payload: { enabled: false, intervalMs: INTERVAL },
    });
    expect(off.json()).toMatchObject({ enabled: false, nextRollAt: null, msg: 'SAVED_SUCCESSFULLY' });
    // (Other modules' jobs may fire here, e.g. the queue's disconnect grace; no roll does.)
    const awarded = (await awards()).length;
    expect(await roll()).toBe(0);
    expect(await roll()).toBe(0);
    expect(await awards()).toHaveLength(awarded);
    // Switched off: the pending roll was called off, and none is booked.
    expect(await t.app.ctx.db.select().from(jobs).where(eq(jobs.kind, rollJob.kind))).toEqual([]);
  });

  it('admins change roles; the last admin cannot demote themselves', async () => {
    const self = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${admin.id}/role`,
      headers: as(admin),
      payload: { role: 'USER' },
    });
    expect([self.statusCode, self.json()]).toEqual([409, { errors: { msg: 'LAST_ADMIN' } }]);
    expect((await findUserById(t.app.ctx.db, admin.id))?.role).toBe('ADMIN');
    const bad = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}/role`,
      headers: as(admin),
      payload: { role: 'ROOT' },
    });
    expect(bad.statusCode).toBe(422);
    const up = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${user.id}/role`,
      headers: as(admin),
      payload: { role: 'ADMIN' },
    });
    expect(up.json()).toEqual({ _id: user.id, role: 'ADMIN', msg: 'SAVED_SUCCESSFULLY' });
    // Now there are two admins: the promoted one can use admin calls, and the first may step down.
    expect((await t.app.inject({ method: 'GET', url: '/api/drops', headers: as(user) })).statusCode).toBe(
      200,
    );
    const down = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${admin.id}/role`,
      headers: as(admin),
      payload: { role: 'USER' },
    });
    expect(down.statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/drops', headers: as(admin) })).statusCode).toBe(
      403,
    );
  });
});
