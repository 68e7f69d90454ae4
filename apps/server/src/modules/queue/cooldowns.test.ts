/**
 * Escalating queue cooldowns for misses: declining, letting the accept phase run out and leaving
 * the queue during it each count; the ladder escalates within the window and starts over after
 * it; joining during a cooldown is refused with QUEUE_COOLDOWN; an admin lifts one, and a lifted
 * one no longer counts; a new app on the same database still sees it (data, not timers). The
 * ladder for leaving (a leaver, a no-show) is its own: 30 min → 2 h → 24 h → 7 d within 30 days,
 * driven through the data layer (recordOffence) with the clock moved, no waiting.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  connectSocket,
  createTestApp,
  createTestUser,
  manualClock,
  type TestApp,
  type TestUser,
} from '../../../test/helpers';
import { inTransaction, logOf } from '../../jobs';
import { AppError } from '../../lib/errors';
import { recordOffence } from './cooldowns';
import { declineQueue, joinQueue, leaveQueue, queueState, readyQueue } from './service';

const MIN = 60_000;
const clock = manualClock();
let t: TestApp;
let nine: TestUser[];
let me: TestUser;
let sockets: Awaited<ReturnType<typeof connectSocket>>[];

// Every test gets its own app and database: nine players waiting in the queue (so my join starts
// an accept phase) and me, all online, as queued players are (the presence sweep takes players
// without a tab out of the queue).
beforeEach(async () => {
  t = await createTestApp({ clock, env: { JOBS_POLL_MS: '0', ACCEPT_TIMEOUT_MS: '30000' } });
  const player = (i: number) => createTestUser(t.app, { teamSpeakId: `ts-cool-${i}` });
  nine = await Promise.all(Array.from({ length: 9 }, (_, i) => player(i)));
  me = await player(9);
  await t.listen();
  sockets = await Promise.all([...nine, me].map((p) => connectSocket(t.url, p.token)));
  for (const p of nine) await joinQueue(t.app.ctx, p.id);
});
afterEach(async () => {
  for (const s of sockets ?? []) s.disconnect();
  await t?.close();
});

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'joined',
    (err) => (err instanceof AppError ? `${err.status} ${err.key}` : String(err)),
  );
const cooldown = async () => (await queueState(t.app.ctx, me.id)).cooldown;
/** Joins as the tenth (an accept phase starts) once the running cooldown is over. */
const joinAfterCooldown = async () => {
  const running = await cooldown();
  if (running) clock.advance(running.endsAt - clock.now());
  await joinQueue(t.app.ctx, me.id);
  expect((await queueState(t.app.ctx, me.id)).phase).not.toBeNull();
};
/** An offence through the data layer, as a miss or a leave would record it. */
const offend = (userId: string, kind: 'leave' | 'miss') =>
  inTransaction(
    t.app.ctx.db,
    (tx, after) => recordOffence(t.app.ctx, tx, after, userId, kind),
    logOf(t.app.ctx),
  );
/** `n` misses of mine in a row, each right after the last cooldown (the ladder's state of a test before). */
const missedTimes = async (n: number) => {
  for (let i = 0; i < n; i++) {
    const running = await cooldown();
    if (running) clock.advance(running.endsAt - clock.now());
    await offend(me.id, 'miss');
  }
};
const advance = async (ms: number) => {
  clock.advance(ms);
  await t.app.ctx.jobs.runDue();
};

describe('queue cooldowns', () => {
  it('escalate 5 min → 15 min → 1 h → 24 h for any kind of miss, the last one repeating', async () => {
    await joinAfterCooldown();
    await declineQueue(t.app.ctx, me.id);
    expect(await cooldown()).toEqual({ kind: 'miss', offence: 1, endsAt: clock.now() + 5 * MIN });
    expect(await refusal(joinQueue(t.app.ctx, me.id))).toBe('403 QUEUE_COOLDOWN');
    clock.advance(5 * MIN - 1);
    expect(await refusal(joinQueue(t.app.ctx, me.id))).toBe('403 QUEUE_COOLDOWN');

    await joinAfterCooldown();
    for (const p of nine) await readyQueue(t.app.ctx, p.id); // the nine accept and keep their places
    await advance(30_000); // the phase runs out without my answer
    expect(await cooldown()).toEqual({ kind: 'miss', offence: 2, endsAt: clock.now() + 15 * MIN });

    await joinAfterCooldown();
    for (const p of nine) await readyQueue(t.app.ctx, p.id);
    await leaveQueue(t.app.ctx, me.id); // leaving during the phase
    expect(await cooldown()).toEqual({ kind: 'miss', offence: 3, endsAt: clock.now() + 60 * MIN });
    await advance(30_000); // the phase ends at its deadline; the nine keep their places

    for (const offence of [4, 5]) {
      await joinAfterCooldown();
      await declineQueue(t.app.ctx, me.id);
      expect(await cooldown()).toEqual({ kind: 'miss', offence, endsAt: clock.now() + 24 * 60 * MIN });
    }
    // The nine who answered or waited were never penalised.
    for (const p of nine) expect((await queueState(t.app.ctx, p.id)).cooldown).toBeNull();
  });

  it('survive a restart: a new app on the same database refuses the join too', async () => {
    await joinAfterCooldown();
    await declineQueue(t.app.ctx, me.id);
    const again = await createTestApp({ clock, database: t.database, env: { JOBS_POLL_MS: '0' } });
    try {
      expect(await refusal(joinQueue(again.app.ctx, me.id))).toBe('403 QUEUE_COOLDOWN');
    } finally {
      await again.app.close();
    }
  });

  it('an admin sees and lifts them; a lifted one no longer counts towards escalation', async () => {
    await missedTimes(5);
    const admin = await createTestUser(t.app, { role: 'ADMIN' });
    const list = await t.app.inject({
      url: `/api/admin/users/${me.id}/cooldowns`,
      headers: bearer(admin.token),
    });
    expect(list.statusCode).toBe(200);
    expect(list.json().docs.map((d: { offence: number }) => d.offence)).toEqual([5, 4, 3, 2, 1]);
    const byPlayer = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${me.id}/cooldowns/lift`,
      headers: bearer((await createTestUser(t.app)).token),
    });
    expect(byPlayer.statusCode).toBe(403);
    expect(await cooldown()).not.toBeNull();
    const lift = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${me.id}/cooldowns/lift`,
      headers: bearer(admin.token),
    });
    expect(lift.json()).toEqual({ lifted: 1 });
    expect(await cooldown()).toBeNull();
    await joinQueue(t.app.ctx, me.id);
    await declineQueue(t.app.ctx, me.id);
    // Offence 5 was lifted: this one is the fifth again, not the sixth.
    expect((await cooldown())?.offence).toBe(5);
  });

  it('start over once the window has passed', async () => {
    await missedTimes(3);
    clock.advance(8 * 24 * 60 * MIN);
    await joinAfterCooldown();
    await declineQueue(t.app.ctx, me.id);
    expect(await cooldown()).toEqual({ kind: 'miss', offence: 1, endsAt: clock.now() + 5 * MIN });
  });
});

describe('queue cooldowns for leaving a match (leavers, no-shows)', () => {
  const DAY = 24 * 60 * MIN;
  const leaver = () => createTestUser(t.app, { teamSpeakId: `ts-leaver-${Math.random()}` });

  it('escalate 30 min → 2 h → 24 h → 7 d within 30 days, the last one repeating; misses climb their own ladder', async () => {
    const p = await leaver();
    const ladder = [30, 120, 24 * 60, 7 * 24 * 60, 7 * 24 * 60];
    for (const [i, minutes] of ladder.entries()) {
      const cooldown = await offend(p.id, 'leave');
      expect(cooldown).toEqual({ kind: 'leave', offence: i + 1, endsAt: clock.now() + minutes * MIN });
      expect((await queueState(t.app.ctx, p.id)).cooldown).toEqual(cooldown);
      expect(await refusal(joinQueue(t.app.ctx, p.id))).toBe('403 QUEUE_COOLDOWN');
      clock.advance(minutes * MIN - 1);
      expect(await refusal(joinQueue(t.app.ctx, p.id))).toBe('403 QUEUE_COOLDOWN');
      clock.advance(1); // served: the next offence comes right after
      expect((await queueState(t.app.ctx, p.id)).cooldown).toBeNull();
      if (i === 1) {
        // A miss in between is the first of its own ladder and leaves the leave ladder alone.
        const miss = await offend(p.id, 'miss');
        expect(miss).toEqual({ kind: 'miss', offence: 1, endsAt: clock.now() + 5 * MIN });
        clock.advance(5 * MIN);
      }
    }
  });

  it('count offences of the last 30 days only: one 30 days old no longer escalates', async () => {
    const p = await leaver();
    expect(await offend(p.id, 'leave')).toMatchObject({ offence: 1 });
    clock.advance(30 * DAY - 1); // the first is 1 ms short of 30 days old: it still counts
    expect(await offend(p.id, 'leave')).toEqual({
      kind: 'leave',
      offence: 2,
      endsAt: clock.now() + 120 * MIN,
    });
    clock.advance(1); // now the first has left the window, the second has not
    expect(await offend(p.id, 'leave')).toEqual({
      kind: 'leave',
      offence: 2,
      endsAt: clock.now() + 120 * MIN,
    });
    clock.advance(30 * DAY); // both of the last two have left it: the ladder starts over
    expect(await offend(p.id, 'leave')).toEqual({
      kind: 'leave',
      offence: 1,
      endsAt: clock.now() + 30 * MIN,
    });
  });
});
