/**
 * The queue and its accept phase with real socket clients against the real app: joining, the
 * refusals, not accepting, leaving and declining during the phase, concurrent joins. What follows
 * the accept phase (the match room, the game) is in matches/matchmaking.test.ts. Deadlines run on
 * a manual clock: the test moves time and lets the scheduler fire due jobs.
 */
import { randomUUID } from 'node:crypto';
import type { QueuePlayer } from '@openpug/shared';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createMatches,
  createTestApp,
  manualClock,
  type TestApp,
} from '../../../test/helpers';
import {
  type Ack,
  ack,
  disconnect,
  got,
  last,
  QUEUE_TEST_ENV,
  queue,
  type SocketPlayer,
  socketPlayers,
} from '../../../test/socket-players';
import { users } from '../../db/schema';
import { inTransaction } from '../../jobs';
import { jobs } from '../../jobs/schema';
import { queueMinutes } from '../insights/schema';
import { matches, matchPlayers } from '../matches/schema';
import { getStatus } from '../presence/service';
import { acceptPhases, queueCooldowns, queueEntries } from './schema';
import { joinQueue, queuedAmongLocked } from './service';

const clock = manualClock();
let t: TestApp;
const { player, tenInAcceptPhase } = socketPlayers(() => t);
const advance = async (ms: number) => {
  clock.advance(ms);
  await t.app.ctx.jobs.runDue();
};
const queueSize = async () => (await t.app.ctx.db.select().from(queueEntries)).length;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: QUEUE_TEST_ENV,
  });
  await t.listen();
});
afterAll(() => t.close());

describe('queue', () => {
  it('refuses join without voice link, without name, twice; ready/leave outside the queue — nothing changes', async () => {
    const noVoice = await player({ teamSpeakId: null });
    const noName = await player({ name: '' });
    const ok = await player();
    expect(await queue(noVoice, 'join')).toEqual({ ok: false, msg: 'VOICE_NOT_LINKED' });
    expect(await queue(noName, 'join')).toEqual({ ok: false, msg: 'NAME_REQUIRED' });
    expect(await queue(ok, 'ready')).toEqual({ ok: false, msg: 'NOT_IN_QUEUE' });
    expect(await queue(ok, 'leave')).toEqual({ ok: false, msg: 'NOT_IN_QUEUE' });
    // No Steam account: the simulator (the default provider) needs none.
    expect((await t.app.ctx.db.select().from(users).where(eq(users.id, ok.user.id)))[0].steamId).toBeNull();
    expect(await queue(ok, 'join')).toEqual({ ok: true, data: { inQueue: true, count: 1 } });
    expect(await queue(ok, 'join')).toEqual({ ok: false, msg: 'ALREADY_IN_QUEUE' });
    expect(await queue(ok, 'ready')).toEqual({ ok: false, msg: 'NO_ACCEPT_PHASE' });
    expect(await ack(ok, 'queue-message', { event: 'dance' })).toEqual({ ok: false, msg: 'INVALID_INPUT' });
    expect(await queueSize()).toBe(1);
    await expect.poll(() => last(noVoice, 'PUBLIC_QUEUE_UPDATE')).toEqual({ count: 1 });
    const res = await t.app.inject({ method: 'GET', url: '/api/queue', headers: bearer(ok.user.token) });
    expect(res.json()).toMatchObject({
      inQueue: true,
      count: 1,
      phase: null,
      matchId: null,
      joinedAt: clock.now(),
    });
    // Closing the last socket leaves the queue once the grace period is over; a reload within it
    // keeps the place.
    ok.socket.disconnect();
    await advance(14_000);
    expect(await queueSize()).toBe(1);
    const reloaded = await connectSocket(t.url, ok.user.token);
    await advance(2_000);
    expect(await queueSize()).toBe(1);
    reloaded.disconnect();
    await expect
      .poll(async () => {
        await advance(15_000);
        return queueSize();
      })
      .toBe(0);
    disconnect([noVoice, noName]);
  });

  it('3 do not accept: they are kicked, the 7 keep their places and get the unready profiles', async () => {
    const ps = await tenInAcceptPhase();
    const ready = last(ps[0], 'PRIVATE_QUEUE_READY');
    expect(ready.deadline).toBe(clock.now() + 30000);
    expect(ready.players.map((p: QueuePlayer) => p.userId)).toEqual(ps.map((p) => p.user.id));
    const [late, accepting] = [ps.slice(0, 3), ps.slice(3)];
    for (const p of accepting) expect((await queue(p, 'ready')).ok).toBe(true);
    // Double ready changes nothing.
    expect((await queue(accepting[0], 'ready')).ok).toBe(true);
    await expect
      .poll(
        () =>
          (last(ps[0], 'PRIVATE_QUEUE_READY_UPDATE')?.players as QueuePlayer[])?.filter((p) => p.accepted)
            .length,
      )
      .toBe(7);
    await advance(29_999);
    expect(got(late[0], 'PRIVATE_QUEUE_KICK')).toHaveLength(0);
    await advance(1);
    for (const p of late) await expect.poll(() => got(p, 'PRIVATE_QUEUE_KICK').length).toBe(1);
    for (const p of accepting) {
      await expect.poll(() => got(p, 'PRIVATE_QUEUE_TIMEOUT').length).toBe(1);
      expect(
        last(p, 'PRIVATE_QUEUE_TIMEOUT').unreadyProfiles.map((u: { userId: string }) => u.userId),
      ).toEqual(late.map((l) => l.user.id));
    }
    expect(await queueSize()).toBe(7);
    // The deadline fired once; running the scheduler again changes nothing.
    await advance(60_000);
    expect(got(late[0], 'PRIVATE_QUEUE_KICK')).toHaveLength(1);
    // Three newcomers: the seven keep their places at the front of the new phase.
    const newcomers = [await player(), await player(), await player()];
    for (const p of newcomers) expect((await queue(p, 'join')).ok).toBe(true);
    await expect.poll(() => got(accepting[0], 'PRIVATE_QUEUE_READY').length).toBe(2);
    const second = last(accepting[0], 'PRIVATE_QUEUE_READY');
    expect(second.players.slice(0, 7).map((p: QueuePlayer) => p.userId)).toEqual(
      accepting.map((p) => p.user.id),
    );
    expect(second.players.every((p: QueuePlayer) => !p.accepted)).toBe(true);
    for (const p of [...accepting, ...newcomers]) await queue(p, 'leave');
    expect(await queueSize()).toBe(0);
    disconnect([...ps, ...newcomers]);
  });

  it('a player leaving during the accept phase counts as not accepting', async () => {
    const ps = await tenInAcceptPhase();
    for (const p of ps.slice(1)) await queue(p, 'ready');
    expect(await queue(ps[0], 'leave')).toMatchObject({ ok: true, data: { inQueue: false } });
    expect(await queue(ps[0], 'ready')).toEqual({ ok: false, msg: 'NOT_IN_QUEUE' });
    await advance(30_000);
    for (const p of ps.slice(1)) {
      await expect.poll(() => got(p, 'PRIVATE_QUEUE_TIMEOUT').length).toBe(1);
      expect(last(p, 'PRIVATE_QUEUE_TIMEOUT').unreadyProfiles).toEqual([
        { userId: ps[0].user.id, name: ps[0].user.name, avatar: null },
      ]);
    }
    expect(await queueSize()).toBe(9);
    expect(await t.app.ctx.db.select().from(matches)).toHaveLength(0);
    for (const p of ps.slice(1)) await queue(p, 'leave');
    disconnect(ps);
  });

  it('declining ends the phase at once: the decliner leaves, the nine keep their places, a newcomer makes ten again', async () => {
    const ps = await tenInAcceptPhase();
    for (const p of ps.slice(1, 4)) expect((await queue(p, 'ready')).ok).toBe(true);
    expect(await queue(ps[0], 'decline')).toMatchObject({ ok: true, data: { inQueue: false, count: 9 } });
    // No waiting for the deadline: the nine hear at once who declined and keep their places.
    for (const p of ps.slice(1)) {
      await expect.poll(() => got(p, 'PRIVATE_QUEUE_TIMEOUT').length).toBe(1);
      expect(last(p, 'PRIVATE_QUEUE_TIMEOUT').unreadyProfiles).toEqual([
        { userId: ps[0].user.id, name: ps[0].user.name, avatar: null },
      ]);
    }
    expect(got(ps[0], 'PRIVATE_QUEUE_KICK')).toHaveLength(0);
    expect(await queueSize()).toBe(9);
    expect(await queue(ps[0], 'decline')).toEqual({ ok: false, msg: 'NOT_IN_QUEUE' });
    expect(await queue(ps[1], 'decline')).toEqual({ ok: false, msg: 'NO_ACCEPT_PHASE' });
    // The cancelled deadline never fires.
    await advance(30_000);
    expect(got(ps[1], 'PRIVATE_QUEUE_TIMEOUT')).toHaveLength(1);
    expect(got(ps[1], 'PRIVATE_QUEUE_KICK')).toHaveLength(0);
    const newcomer = await player();
    expect((await queue(newcomer, 'join')).ok).toBe(true);
    await expect.poll(() => got(ps[1], 'PRIVATE_QUEUE_READY').length).toBe(2);
    const again = last(ps[1], 'PRIVATE_QUEUE_READY');
    expect(again.players.map((p: QueuePlayer) => p.userId)).toEqual(
      [...ps.slice(1), newcomer].map((p) => p.user.id),
    );
    expect(again.players.every((p: QueuePlayer) => !p.accepted)).toBe(true);
    for (const p of [...ps.slice(1), newcomer]) await queue(p, 'leave');
    expect(await queueSize()).toBe(0);
    await advance(30_000); // the second phase's deadline closes it
    disconnect([...ps, newcomer]);
  });

  it('concurrent joins: 25 players → two disjoint phases of exactly ten, five waiting', async () => {
    const ps: SocketPlayer[] = [];
    for (let i = 0; i < 25; i++) ps.push(await player());
    const replies = await Promise.all(ps.map((p) => queue(p, 'join')));
    expect(replies.every((r) => r.ok)).toBe(true);
    const rows = await t.app.ctx.db.select().from(queueEntries);
    expect(rows).toHaveLength(25);
    const phases = (await t.app.ctx.db.select().from(acceptPhases)).filter((p) => p.status === 'open');
    expect(phases).toHaveLength(2);
    const all = phases.flatMap((p) => p.playerIds);
    expect(new Set(all).size).toBe(20);
    expect(rows.filter((r) => r.phaseId === null)).toHaveLength(5);
    for (const p of ps)
      await expect.poll(() => got(p, 'PRIVATE_QUEUE_READY').length).toBe(all.includes(p.user.id) ? 1 : 0);
    // Everyone leaves; the phases end at their deadline without a match.
    await Promise.all(ps.map((p) => queue(p, 'leave')));
    await advance(30_000);
    expect(await queueSize()).toBe(0);
    disconnect(ps);
  });

  it('twenty accept at once: both phases become their own match in one batch, each with its ten and its deadline', async () => {
    const ps: SocketPlayer[] = [];
    for (let i = 0; i < 20; i++) ps.push(await player());
    expect((await Promise.all(ps.map((p) => queue(p, 'join')))).every((r) => r.ok)).toBe(true);
    for (const p of ps) await expect.poll(() => got(p, 'PRIVATE_QUEUE_READY').length).toBe(1);
    const startsBefore = (await t.app.ctx.db.select().from(queueMinutes)).reduce(
      (n, m) => n + m.matchStarts,
      0,
    );
    const replies = await Promise.all(ps.map((p) => queue(p, 'ready')));
    expect(replies.every((r) => r.ok && r.data.inQueue === false)).toBe(true);
    const ids = ps.map((p) => p.user.id);
    const phases = (await t.app.ctx.db.select().from(acceptPhases)).filter((p) =>
      p.playerIds.some((id) => ids.includes(id)),
    );
    expect(phases.map((p) => p.status)).toEqual(['matched', 'matched']);
    for (const phase of phases) {
      // Each phase names its own match, whose roster is exactly the phase's ten.
      const roster = await t.app.ctx.db
        .select()
        .from(matchPlayers)
        .where(eq(matchPlayers.matchId, phase.matchId as string));
      expect(roster.map((r) => r.userId).sort()).toEqual([...phase.playerIds].sort());
      expect(roster.filter((r) => r.captain)).toHaveLength(2);
      for (const id of phase.playerIds) {
        const p = ps.find((x) => x.user.id === id) as SocketPlayer;
        await expect.poll(() => last(p, 'PRIVATE_MATCH_START')).toEqual({ matchId: phase.matchId });
      }
      // The first pick's deadline is armed for each match.
      expect(
        await t.app.ctx.db
          .select()
          .from(jobs)
          .where(eq(jobs.id, `match.pick:${phase.matchId}:0`)),
      ).toHaveLength(1);
    }
    expect(new Set(phases.map((p) => p.matchId)).size).toBe(2);
    expect(
      await t.app.ctx.db.select().from(queueEntries).where(inArray(queueEntries.userId, ids)),
    ).toHaveLength(0);
    const startsAfter = (await t.app.ctx.db.select().from(queueMinutes)).reduce(
      (n, m) => n + m.matchStarts,
      0,
    );
    expect(startsAfter - startsBefore).toBe(2);
    disconnect(ps);
  });

  it("answers joins and accepts without waiting for the players' status writes, which follow in order", async () => {
    // A second status.patch handler, run after presence's, keeps every status.patch emit pending
    // until `release` (the bus awaits its handlers in turn): an answer that waited for its status
    // effects would wait for it.
    let release: () => void = () => {};
    let held: Promise<void> | null = new Promise((r) => {
      release = r;
    });
    t.app.ctx.bus.on('status.patch', () => held ?? undefined);
    const answered = <T>(p: Promise<T>) =>
      Promise.race([p, new Promise<'held'>((r) => setTimeout(() => r('held'), 3000))]);
    try {
      const ps: SocketPlayer[] = [];
      for (let i = 0; i < 10; i++) ps.push(await player());
      const joins = await answered(Promise.all(ps.map((p) => queue(p, 'join'))));
      expect(joins !== 'held' && joins.every((r) => r.ok)).toBe(true);
      for (const p of ps) await expect.poll(() => got(p, 'PRIVATE_QUEUE_READY').length).toBe(1);
      const readies = await answered(Promise.all(ps.map((p) => queue(p, 'ready'))));
      expect(readies !== 'held' && readies.every((r) => r.ok && r.data.inQueue === false)).toBe(true);
      await expect.poll(() => got(ps[0], 'PRIVATE_MATCH_START').length).toBe(1);
      release();
      held = null;
      // The match start's patch came after the join's: the player ends in the match, not queued.
      await expect.poll(async () => (await getStatus(t.app.ctx, ps[9].user.id)).match?.active).toBe(true);
      expect((await getStatus(t.app.ctx, ps[9].user.id)).inQueue).toBe(false);
      disconnect(ps);
    } finally {
      release();
      held = null;
    }
  });

  it('joins arriving while the entry lock is held go together into the next transaction; work that can wait waits for it', async () => {
    const ps: SocketPlayer[] = [];
    for (let i = 0; i < 3; i++) ps.push(await player());
    const replies: Promise<Ack>[] = [];
    let deferredRan = false;
    await inTransaction(t.app.ctx.db, async (tx) => {
      await queuedAmongLocked(t.app.ctx, tx, [ps[0].user.id]); // holds the entry lock, as a running batch does
      // Three joins in three different turns of the event loop: the first opens the next
      // transaction, which waits for the lock and then takes all three.
      for (const p of ps) {
        replies.push(queue(p, 'join'));
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      void t.app.ctx.priority.deferrable(async () => {
        deferredRan = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(deferredRan).toBe(false); // a notification would wait for the queue's write
    });
    // One transaction for the three: each answer carries the count after all three.
    expect(await Promise.all(replies)).toEqual(
      ps.map(() => ({ ok: true, data: { inQueue: true, count: 3 } })),
    );
    await expect.poll(() => deferredRan).toBe(true);
    await Promise.all(ps.map((p) => queue(p, 'leave')));
    disconnect(ps);
  });

  it('joiners refused within a batch lose the places it inserted for them; the phase is made of the others', async () => {
    const noVoice = await player({ teamSpeakId: null });
    const cooling = await player();
    await t.app.ctx.db.insert(queueCooldowns).values({
      id: randomUUID(),
      userId: cooling.user.id,
      kind: 'miss',
      offence: 1,
      createdAt: clock.now(),
      endsAt: clock.now() + 60_000,
    });
    const ten: SocketPlayer[] = [];
    for (let i = 0; i < 10; i++) ten.push(await player());
    const replies: Promise<Ack>[] = [];
    // Held as a running batch holds it: the twelve joins wait and go into one transaction, the
    // refused two first in queue order.
    await inTransaction(t.app.ctx.db, async (tx) => {
      await queuedAmongLocked(t.app.ctx, tx, [noVoice.user.id]);
      for (const p of [noVoice, cooling, ...ten]) replies.push(queue(p, 'join'));
      await new Promise((resolve) => setTimeout(resolve, 100));
    });
    expect(await Promise.all(replies)).toEqual([
      { ok: false, msg: 'VOICE_NOT_LINKED' },
      { ok: false, msg: 'QUEUE_COOLDOWN' },
      ...ten.map(() => ({ ok: true, data: { inQueue: true, count: 10 } })),
    ]);
    const entries = await t.app.ctx.db.select().from(queueEntries);
    expect(entries.map((e) => e.userId).sort()).toEqual(ten.map((p) => p.user.id).sort());
    expect(new Set(entries.map((e) => e.phaseId)).size).toBe(1);
    expect(entries[0].phaseId).not.toBeNull();
    await expect.poll(() => last(ten[0], 'PRIVATE_QUEUE_READY')?.players.length).toBe(10);
    expect(got(noVoice, 'PRIVATE_QUEUE_READY')).toHaveLength(0);
    // The phase ends (a decline) and the nine leave: the queue is empty for the next test.
    expect(await queue(ten[0], 'decline')).toMatchObject({ ok: true });
    await Promise.all(ten.slice(1).map((p) => queue(p, 'leave')));
    expect(await queueSize()).toBe(0);
    disconnect([noVoice, cooling, ...ten]);
  });

  it('a join for no such user is refused with 404 and its inserted place taken back', async () => {
    await expect(joinQueue(t.app.ctx, randomUUID())).rejects.toMatchObject({
      status: 404,
      key: 'USER_DOES_NOT_EXIST',
    });
    expect(await queueSize()).toBe(0);
  });

  it("the count to everyone waits while the queue's batches run, then carries every change", async () => {
    const [watcher, a, b] = [await player(), await player(), await player()];
    const counts = () => got(watcher, 'PUBLIC_QUEUE_UPDATE').length;
    // Stands for a crowd's batches, one after another all along (lib/priority.ts).
    t.app.ctx.priority.urgentBegins();
    const before = counts();
    try {
      expect(await queue(a, 'join')).toEqual({ ok: true, data: { inQueue: true, count: 1 } });
      expect(await queue(b, 'join')).toEqual({ ok: true, data: { inQueue: true, count: 2 } });
      await new Promise((resolve) => setTimeout(resolve, 300)); // six windows of 50 ms
      expect(counts()).toBe(before);
    } finally {
      t.app.ctx.priority.urgentEnds();
    }
    await expect.poll(() => last(watcher, 'PUBLIC_QUEUE_UPDATE')).toEqual({ count: 2 });
    expect(counts()).toBe(before + 1);
    await Promise.all([a, b].map((p) => queue(p, 'leave')));
    await expect.poll(() => last(watcher, 'PUBLIC_QUEUE_UPDATE')).toEqual({ count: 0 });
    disconnect([watcher, a, b]);
  });

  it('a join racing the start of its own match (the accept batch holds the phase lock, not the entry lock) is refused and leaves no place', async () => {
    const ps = await tenInAcceptPhase();
    const ids = ps.map((p) => p.user.id);
    let join: Promise<Ack> | undefined;
    // What an accept batch does for a completed phase: the ten entries go and the match is made.
    // Before it commits, the first player joins again: on PostgreSQL that insert waits for the
    // deleted entry's transaction, on PGlite the whole join waits for it.
    await inTransaction(t.app.ctx.db, async (tx, after) => {
      await tx.delete(queueEntries).where(inArray(queueEntries.userId, ids));
      await createMatches(t.app.ctx, tx, after, [ids]);
      join = queue(ps[0], 'join');
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    expect(await join).toEqual({ ok: false, msg: 'ALREADY_IN_MATCH' });
    expect(
      await t.app.ctx.db.select().from(queueEntries).where(eq(queueEntries.userId, ids[0])),
    ).toHaveLength(0);
    disconnect(ps);
  });
});
