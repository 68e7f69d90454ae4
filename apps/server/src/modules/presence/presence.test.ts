import { randomBytes } from 'node:crypto';
import type { SocialChangedStatus, UserStatus, UserStatusPatch } from '@openpug/shared';
import { eq, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  nextEvent,
  openTestDatabase,
  type TestApp,
  type TestDatabase,
  type TestUser,
} from '../../../test/helpers';
import { jobs } from '../../jobs/schema';
import { joinQueue, queueState } from '../queue/service';
import { getStatus, getStatuses, patchStatus, patchStatusTogether } from './service';

/** The next socialChangedStatus about `userId` on `socket` (that `matches`, if given). */
const statusOf = (socket: Socket, userId: string, matches: (s: UserStatus) => boolean = () => true) =>
  new Promise<UserStatus>((resolve) => {
    const onStatus = (p: SocialChangedStatus) => {
      if (p.userId !== userId || !matches(p.status)) return;
      socket.off('socialChangedStatus', onStatus);
      resolve(p.status);
    };
    socket.on('socialChangedStatus', onStatus);
  });

/** `a` asks `b` for friendship and `b` accepts, through the API. */
async function befriendOn(t: TestApp, a: TestUser, b: TestUser): Promise<void> {
  const req = await t.app.inject({
    method: 'POST',
    url: '/api/friends',
    payload: { recipient: b.id },
    headers: bearer(a.token),
  });
  await t.app.inject({
    method: 'PATCH',
    url: `/api/friends/${req.json()._id}`,
    payload: { accepted: true },
    headers: bearer(b.token),
  });
}

/** How many upserts of user_status `run` makes on the app's database (statements, not rows). */
async function statusUpserts(db: TestApp['app']['ctx']['db'], run: () => Promise<unknown>): Promise<number> {
  const execute = db.execute.bind(db);
  const dialect = new PgDialect();
  let statements = 0;
  db.execute = ((query: SQL) => {
    if (dialect.sqlToQuery(query).sql.startsWith('INSERT INTO "user_status"')) statements++;
    return execute(query);
  }) as typeof db.execute;
  try {
    await run();
  } finally {
    db.execute = execute;
  }
  return statements;
}

describe('presence: the live status object and its delivery to friends', () => {
  let t: TestApp;
  const clock = manualClock();
  const sockets: Socket[] = [];
  const connect = async (user: TestUser) => {
    const s = await connectSocket(t.url, user.token);
    sockets.push(s);
    return s;
  };
  const befriend = (a: TestUser, b: TestUser) => befriendOn(t, a, b);
  const cardStatus = async (user: TestUser): Promise<UserStatus> =>
    (await t.app.inject(`/api/users/${user.id}`)).json().status;
  beforeAll(async () => {
    t = await createTestApp({ clock });
    await t.listen();
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await t.close();
  });

  it('is online while any tab is open and offline with lastSeen after the last one closes', async () => {
    const ann = await createTestUser(t.app, { name: 'Ann' });
    const bob = await createTestUser(t.app, { name: 'Bob' });
    await befriend(ann, bob);
    expect(await cardStatus(bob)).toMatchObject({ online: false, lastSeen: null });
    const annTab = await connect(ann);

    const online = statusOf(annTab, bob.id);
    const bobTab1 = await connect(bob);
    expect(await online).toMatchObject({ online: true, inQueue: false, lastSeen: null });
    const bobTab2 = await connect(bob);
    expect(await cardStatus(bob)).toMatchObject({ online: true });

    // Close one tab: still online.
    bobTab1.disconnect();
    await expect.poll(() => t.app.ctx.realtime.socketCount(bob.id)).toBe(1);
    expect(await cardStatus(bob)).toMatchObject({ online: true });

    // Close the last one: offline, last seen now; friends hear it.
    clock.advance(60_000);
    const offline = statusOf(annTab, bob.id);
    bobTab2.disconnect();
    expect(await offline).toMatchObject({ online: false, lastSeen: clock.now() });
    expect(await cardStatus(bob)).toMatchObject({ online: false, lastSeen: clock.now() });
    const friends = (await t.app.inject({ url: '/api/friends', headers: bearer(ann.token) })).json().friends;
    expect(friends[0].status).toMatchObject({ online: false, lastSeen: clock.now() });

    // Logging out (socket stays connected) also counts as leaving.
    const back = statusOf(annTab, bob.id);
    const bobTab3 = await connect(bob);
    expect(await back).toMatchObject({ online: true });
    clock.advance(1_000);
    const loggedOut = statusOf(annTab, bob.id);
    bobTab3.emit('logout');
    expect(await loggedOut).toMatchObject({ online: false, lastSeen: clock.now() });
  });

  it("merges other modules' status.patch, stores it and pushes it to friends and the user's own tabs", async () => {
    const cleo = await createTestUser(t.app, { name: 'Cleo' });
    const dan = await createTestUser(t.app, { name: 'Dan' });
    const eve = await createTestUser(t.app, { name: 'Eve' });
    await befriend(cleo, dan);
    const cleoTab = await connect(cleo);
    const danOnline = statusOf(cleoTab, dan.id);
    const danTab = await connect(dan);
    await danOnline;
    const eveTab = await connect(eve);
    let eveHeard = 0;
    eveTab.on('socialChangedStatus', () => eveHeard++);

    const toFriend = statusOf(cleoTab, dan.id);
    const toSelf = nextEvent<{ status: UserStatus }>(danTab, 'privateUserUpdate');
    await t.app.ctx.bus.emit('status.patch', { userId: dan.id, patch: { inQueue: true } });
    expect(await toFriend).toMatchObject({ online: true, inQueue: true, inArena: false });
    expect((await toSelf).status).toMatchObject({ online: true, inQueue: true });

    const inMatch = statusOf(cleoTab, dan.id);
    await t.app.ctx.bus.emit('status.patch', {
      userId: dan.id,
      patch: {
        inQueue: false,
        teamOne: true,
        match: {
          active: true,
          matchId: 'm-1',
          status: 'active',
          map: 'de_mirage',
          score: { teamOne: 3, teamTwo: 1 },
        },
      },
    });
    expect(await inMatch).toEqual({
      online: true,
      inArena: false,
      inQueue: false,
      teamSpeak: false,
      lastSeen: null,
      teamOne: true,
      match: {
        active: true,
        matchId: 'm-1',
        status: 'active',
        map: 'de_mirage',
        score: { teamOne: 3, teamTwo: 1 },
      },
    });
    // A partial match patch keeps the other match fields.
    const scored = statusOf(cleoTab, dan.id);
    await t.app.ctx.bus.emit('status.patch', {
      userId: dan.id,
      patch: { match: { score: { teamOne: 4, teamTwo: 1 } } },
    });
    expect((await scored).match).toEqual({
      active: true,
      matchId: 'm-1',
      status: 'active',
      map: 'de_mirage',
      score: { teamOne: 4, teamTwo: 1 },
    });
    expect((await getStatus(t.app.ctx, dan.id)).match.score).toEqual({ teamOne: 4, teamTwo: 1 });
    const many = await getStatuses(t.app.ctx, [dan.id, eve.id]);
    expect(many.get(dan.id)?.match.map).toBe('de_mirage');
    expect(many.get(eve.id)).toMatchObject({ online: true, match: { active: false } });

    // Concurrent patches of different fields both survive.
    await Promise.all([
      t.app.ctx.bus.emit('status.patch', { userId: dan.id, patch: { teamSpeak: true } }),
      t.app.ctx.bus.emit('status.patch', { userId: dan.id, patch: { inArena: true } }),
    ]);
    expect(await getStatus(t.app.ctx, dan.id)).toMatchObject({ teamSpeak: true, inArena: true });
    expect(eveHeard).toBe(0);
  });

  it("writes the same patch for many users in one statement and keeps each user's patches in order", async () => {
    const users = await Promise.all(
      Array.from({ length: 6 }, (_, i) => createTestUser(t.app, { name: `G${i}` })),
    );
    const statements = await statusUpserts(t.app.ctx.db, () =>
      Promise.all([
        ...users.map((u) => t.app.ctx.bus.emit('status.patch', { userId: u.id, patch: { inQueue: true } })),
        // The first user leaves again in the same turn: applied after the join, not merged into it.
        t.app.ctx.bus.emit('status.patch', { userId: users[0].id, patch: { inQueue: false } }),
      ]),
    );
    expect(statements).toBe(2);
    const statuses = await getStatuses(
      t.app.ctx,
      users.map((u) => u.id),
    );
    expect(users.map((u) => statuses.get(u.id)?.inQueue)).toEqual([false, true, true, true, true, true]);
  });

  it('writes different patches of many users (a match start) in one statement, each merged into its own status', async () => {
    const users = await Promise.all(
      Array.from({ length: 4 }, (_, i) => createTestUser(t.app, { name: `H${i}` })),
    );
    // Stored fields the patches do not name stay: an earlier score and the voice flag.
    for (const u of users)
      await t.app.ctx.bus.emit('status.patch', {
        userId: u.id,
        patch: { teamSpeak: true, match: { score: { teamOne: 1, teamTwo: 2 } } },
      });
    const statements = await statusUpserts(t.app.ctx.db, () =>
      Promise.all(
        users.map((u, i) =>
          t.app.ctx.bus.emit('status.patch', {
            userId: u.id,
            patch: { inQueue: false, teamOne: i % 2 === 0, match: { active: true, matchId: `m-${i}` } },
          }),
        ),
      ),
    );
    expect(statements).toBe(1);
    const statuses = await getStatuses(
      t.app.ctx,
      users.map((u) => u.id),
    );
    expect(users.map((u) => statuses.get(u.id))).toMatchObject(
      users.map((_, i) => ({
        teamSpeak: true,
        inQueue: false,
        teamOne: i % 2 === 0,
        match: { active: true, matchId: `m-${i}`, score: { teamOne: 1, teamTwo: 2 } },
      })),
    );
  });

  it('refuses a malformed patch alone: the patch of the same turn beside it is written', async () => {
    const [bad, good] = await Promise.all([
      createTestUser(t.app, { name: 'Bad' }),
      createTestUser(t.app, { name: 'Good' }),
    ]);
    const [refused, written] = await Promise.allSettled([
      patchStatusTogether(t.app.ctx, bad.id, { inQueue: 'yes' } as unknown as UserStatusPatch),
      patchStatusTogether(t.app.ctx, good.id, { inQueue: true }),
    ]);
    expect(refused.status).toBe('rejected');
    expect(written).toMatchObject({ status: 'fulfilled', value: { inQueue: true } });
    expect((await getStatus(t.app.ctx, bad.id)).inQueue).toBe(false);
    expect((await getStatus(t.app.ctx, good.id)).inQueue).toBe(true);
  });

  it('pushes socialChangedName to friends when the accounts module renames a user', async () => {
    const fay = await createTestUser(t.app, { name: 'Fay' });
    const gus = await createTestUser(t.app, { name: 'Gus' });
    await befriend(fay, gus);
    const fayTab = await connect(fay);
    const renamed = nextEvent(fayTab, 'socialChangedName');
    await t.app.ctx.bus.emit('user.renamed', { userId: gus.id, name: 'Gustav' });
    expect(await renamed).toEqual({ userId: gus.id, name: 'Gustav' });
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

describe.skipIf(!redisUrl)('presence and friends across two instances (Redis adapter, one database)', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    database = await openTestDatabase();
    const env = {
      REDIS_URL: redisUrl!,
      REDIS_PREFIX: `openpug-test-${randomBytes(4).toString('hex')}`,
      PRESENCE_SWEEP_MS: '250',
    };
    a = await createTestApp({ env, database });
    b = await createTestApp({ env, database });
    await Promise.all([a.listen(), b.listen()]);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await a.close();
    await b.close();
    await database.dispose();
  });

  it('keeps a user online while a tab is open on either instance and tells friends on the other', async () => {
    const ann = await createTestUser(a.app, { name: 'Ann' });
    const bob = await createTestUser(a.app, { name: 'Bob' });
    const annOnA = await connectSocket(a.url, ann.token);
    const bobOnA = await connectSocket(a.url, bob.token);
    const bobOnB = await connectSocket(b.url, bob.token);
    sockets.push(annOnA, bobOnA, bobOnB);

    // Accepted on instance B: Ann's socket on A follows Bob's social room.
    const req = await b.app.inject({
      method: 'POST',
      url: '/api/friends',
      payload: { recipient: bob.id },
      headers: bearer(ann.token),
    });
    const newFriend = nextEvent(annOnA, 'privateNewFriend');
    await b.app.inject({
      method: 'PATCH',
      url: `/api/friends/${req.json()._id}`,
      payload: { accepted: true },
      headers: bearer(bob.token),
    });
    expect(await newFriend).toMatchObject({ _id: bob.id, status: { online: true } });
    await expect
      .poll(async () => (await a.app.ctx.realtime.io.in(`social:${bob.id}`).fetchSockets()).length)
      .toBe(1);

    bobOnA.disconnect();
    await expect.poll(() => b.app.ctx.realtime.socketCount(bob.id)).toBe(1);
    expect((await getStatus(a.app.ctx, bob.id)).online).toBe(true);

    const offline = statusOf(annOnA, bob.id);
    bobOnB.disconnect();
    expect(await offline).toMatchObject({ online: false, lastSeen: expect.any(Number) });

    // A status patch on B reaches the friend on A.
    const patched = statusOf(annOnA, bob.id);
    await b.app.ctx.bus.emit('status.patch', { userId: bob.id, patch: { inQueue: true } });
    expect(await patched).toMatchObject({ online: false, inQueue: true });
  });

  it('sets a player left "online" by a dead instance offline at the next sweep and takes them out of the queue', async () => {
    const ann = await createTestUser(a.app, { name: 'Ann' });
    const cid = await createTestUser(a.app, { name: 'Cid', teamSpeakId: 'ts-cid-sweep' });
    await befriendOn(a, ann, cid);
    const annOnA = await connectSocket(a.url, ann.token);
    sockets.push(annOnA);

    // What a crashed instance leaves behind: Cid queued and "online" with no socket anywhere.
    await joinQueue(b.app.ctx, cid.id);
    await patchStatus(b.app.ctx, cid.id, { online: true });
    const offline = statusOf(annOnA, cid.id, (status) => !status.online && !status.inQueue);

    // One instance's sweep (every 250 ms here) finds him; Ann, still connected, stays online.
    expect((await offline).lastSeen).toEqual(expect.any(Number));
    expect((await queueState(a.app.ctx, cid.id)).inQueue).toBe(false);
    expect((await getStatus(a.app.ctx, ann.id)).online).toBe(true);
    // Both instances share one sweep row, re-armed each run, not a new row per run.
    const sweepRows = await a.app.ctx.db.select().from(jobs).where(eq(jobs.kind, 'presence.sweep'));
    expect(sweepRows).toHaveLength(1);
    expect(sweepRows[0].firedAt).toBeNull();
  });
});
