import { count, eq, like, or } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { manualClock, openTestDatabase, type TestDatabase } from '../../test/helpers';
import type { AppContext, Clock } from '../context';
import type { Db } from '../db/client';
import { defineJob, jobField } from './define';
import { Scheduler } from './scheduler';
import { jobs } from './schema';
import { type After, inTransaction } from './tx';

const quiet = { error: () => {} };
/** The handlers here need no app: they get this stand-in for its context. */
const noApp = {} as AppContext;
const scheduler = (db: Db, clock: Clock, log: { error(obj: object, msg: string): void } = quiet) =>
  new Scheduler(db, clock, log, 0, () => noApp);

/** A test kind whose payload is a name; `seen` records what its handler got. */
function nameJob(kind: string, seen: string[], extra?: (tx: Db) => Promise<void>) {
  return defineJob({
    kind,
    payload: z.object({ name: jobField.id }),
    handle: async (_ctx, tx, _after, { name }) => {
      seen.push(name);
      await extra?.(tx);
    },
  });
}

describe('persisted deadlines', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.dispose());

  it('fires a due job once even when two instances race for it', async () => {
    const clock = manualClock();
    const fired: string[] = [];
    const a = scheduler(database.db, clock);
    const b = scheduler(database.db, clock);
    const test = (s: Scheduler) =>
      defineJob({
        kind: 'test',
        payload: z.object({ name: jobField.id }),
        handle: async (_ctx, _tx, _after, { name }) => void fired.push(`${name}@${s.instanceId}`),
      });
    const testOfA = test(a);
    a.register(testOfA);
    b.register(test(b));
    await inTransaction(database.db, (tx, after) =>
      a.schedule(tx, after, testOfA, { name: 'k1' }, clock.now() + 1000),
    );
    expect(await a.fire('test:k1')).toBe(false); // not due yet
    clock.advance(1000);
    const results = await Promise.all([a.fire('test:k1'), b.fire('test:k1'), a.runDue(), b.runDue()]);
    expect(results.filter((r) => r === true || r === 1)).toHaveLength(1);
    expect(fired).toHaveLength(1);
    // The claim deleted the row: a fired job leaves nothing behind.
    expect(await database.db.select().from(jobs).where(eq(jobs.id, 'test:k1'))).toEqual([]);
  });

  it('re-arms pending jobs on start (overdue ones fire at once); cancelled jobs never fire', async () => {
    const clock = { now: () => Date.now() };
    const first = scheduler(database.db, clock);
    const restartOfFirst = nameJob('restart', []);
    first.register(restartOfFirst);
    await inTransaction(database.db, async (tx, after) => {
      await first.schedule(tx, after, restartOfFirst, { name: 'overdue' }, Date.now() - 5_000);
      await first.schedule(tx, after, restartOfFirst, { name: 'soon' }, Date.now() + 150);
      await first.schedule(tx, after, restartOfFirst, { name: 'cancelled' }, Date.now() + 100);
      await first.cancel(tx, after, restartOfFirst, { name: 'cancelled' });
    });
    // A new process: nothing was armed by `first` (it never started).
    const fired: string[] = [];
    const second = scheduler(database.db, clock);
    second.register(nameJob('restart', fired));
    await second.start();
    await expect.poll(() => fired.sort(), { timeout: 3_000 }).toEqual(['overdue', 'soon']);
    await second.stop();
  });

  it('leaves a live instance its own jobs, and fires those of a stopped one once they are a poll overdue', async () => {
    const clock = { now: () => Date.now() };
    const pollMs = 100;
    const fired: string[] = [];
    const polled = (name: string) => {
      const s = new Scheduler(database.db, clock, quiet, pollMs, () => noApp);
      const job = defineJob({
        kind: 'owned',
        payload: z.object({ name: jobField.id }),
        handle: async (_ctx, _tx, _after, { name: n }) => void fired.push(`${n}@${name}`),
      });
      s.register(job);
      return { s, job };
    };
    const owner = polled('owner');
    const other = polled('other');
    await Promise.all([owner.s.start(), other.s.start()]);
    const claims = vi.spyOn(other.s, 'fire');
    const book = (name: string, dueAt: number) =>
      inTransaction(database.db, (tx, after) => owner.s.schedule(tx, after, owner.job, { name }, dueAt));
    // The owner fires its job on time; the other instance, polling all along, never tries to.
    await book('kept', Date.now() + 3 * pollMs);
    await book('cancelled', Date.now() + 3 * pollMs);
    await inTransaction(database.db, (tx, after) =>
      owner.s.cancel(tx, after, owner.job, { name: 'cancelled' }),
    );
    await expect.poll(() => fired, { timeout: 3_000 }).toEqual(['kept@owner']);
    await new Promise((r) => setTimeout(r, 4 * pollMs));
    expect(claims).not.toHaveBeenCalled();
    // The owner goes before its next job is due: the other instance fires it, late by at most two polls
    // (and the scheduler's own turns).
    await book('orphaned', Date.now() + 2 * pollMs);
    await owner.s.stop();
    await expect.poll(() => fired, { timeout: 3_000 }).toEqual(['kept@owner', 'orphaned@other']);
    expect(claims).toHaveBeenCalledTimes(1);
    await other.s.stop();
  });

  it('scheduleMany books many deadlines in one statement (a booked one stays as it was); cancelMany drops just the named', async () => {
    const clock = manualClock();
    const fired: string[] = [];
    const s = scheduler(database.db, clock);
    const many = nameJob('many', fired);
    s.register(many);
    const due = clock.now() + 1_000;
    await inTransaction(database.db, (tx, after) =>
      s.schedule(tx, after, many, { name: 'early' }, due - 500),
    );
    const db = database.db;
    let statements = 0;
    await inTransaction(database.db, async (tx, after) => {
      const counted = tx.insert.bind(tx);
      tx.insert = ((table: Parameters<typeof counted>[0]) => {
        if (table === jobs) statements++;
        return counted(table);
      }) as typeof tx.insert;
      const ids = await s.scheduleMany(
        tx,
        after,
        many,
        ['a', 'b', 'c', 'early'].map((name) => ({ payload: { name }, dueAt: due })),
      );
      expect(ids).toEqual(['many:a', 'many:b', 'many:c', 'many:early']);
      await s.cancelMany(tx, after, many, [{ name: 'b' }, { name: 'c' }, { name: 'never-booked' }]);
    });
    expect(statements).toBe(1);
    const rows = await db.select().from(jobs).where(like(jobs.id, 'many:%'));
    expect(rows.map((r) => [r.id, r.dueAt]).sort()).toEqual([
      ['many:a', due],
      ['many:early', due - 500],
    ]);
    clock.advance(1_000);
    await s.runDue();
    expect(fired.sort()).toEqual(['a', 'early']);
  });

  it('cancelFor drops the pending jobs of one match, of every kind keyed by it, and nothing else', async () => {
    const clock = manualClock();
    const s = scheduler(database.db, clock);
    const fired: string[] = [];
    const record = async (_ctx: AppContext, _tx: Db, _after: After, payload: object) =>
      void fired.push(JSON.stringify(payload));
    const whole = defineJob({ kind: 'keyed-a', payload: z.object({ matchId: jobField.id }), handle: record });
    const turn = defineJob({
      kind: 'keyed-b',
      payload: z.object({ matchId: jobField.id, index: jobField.index }),
      handle: record,
    });
    const byUser = defineJob({
      kind: 'keyed-c',
      payload: z.object({ userId: jobField.id, matchId: jobField.id }),
      handle: record,
    });
    s.register(whole, turn, byUser);
    const due = clock.now() + 1_000;
    await inTransaction(database.db, async (tx, after) => {
      await s.schedule(tx, after, whole, { matchId: 'm_1' }, due);
      await s.schedule(tx, after, turn, { matchId: 'm_1', index: 0 }, due);
      await s.schedule(tx, after, turn, { matchId: 'm_1', index: 7 }, due);
      await s.schedule(tx, after, whole, { matchId: 'm_10' }, due); // another id that starts the same
      await s.schedule(tx, after, turn, { matchId: 'mx1', index: 0 }, due); // `_` is no wildcard
      await s.schedule(tx, after, byUser, { userId: 'm_1', matchId: 'm_2' }, due); // matchId not first
    });
    const dropped = await inTransaction(database.db, (tx, after) => s.cancelFor(tx, after, 'matchId', 'm_1'));
    expect(dropped.sort()).toEqual(['keyed-a:m_1', 'keyed-b:m_1:0', 'keyed-b:m_1:7']);
    const left = await database.db.select({ id: jobs.id }).from(jobs).where(like(jobs.id, 'keyed-%'));
    expect(left.map((r) => r.id).sort()).toEqual(['keyed-a:m_10', 'keyed-b:mx1:0', 'keyed-c:m_1:m_2']);
    clock.advance(1_000);
    await s.runDue();
    expect(fired.sort()).toEqual([
      '{"matchId":"m_10"}',
      '{"matchId":"mx1","index":0}',
      '{"userId":"m_1","matchId":"m_2"}',
    ]);
  });

  it('reschedule pushes a deadline out, and makes a fired one pending again', async () => {
    const clock = manualClock();
    const s = scheduler(database.db, clock);
    const fired: number[] = [];
    const watch = defineJob({
      kind: 'watch',
      payload: z.object({}),
      singleRow: 'w',
      handle: async () => void fired.push(clock.now()),
    });
    s.register(watch);
    const start = clock.now();
    await inTransaction(database.db, (tx, after) => s.reschedule(tx, after, watch, {}, start + 1000));
    clock.advance(900);
    await inTransaction(database.db, (tx, after) => s.reschedule(tx, after, watch, {}, start + 1900));
    clock.advance(100); // the first deadline: no longer due
    expect(await s.runDue()).toBe(0);
    clock.advance(900);
    expect(await s.runDue()).toBe(1);
    expect(fired).toEqual([start + 1900]);
    // Fired, then a new sign of life: pending again, due once more at its new time.
    await inTransaction(database.db, (tx, after) => s.reschedule(tx, after, watch, {}, start + 3000));
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, 'watch:w'));
    expect([row.dueAt, row.firedAt, row.claimedBy]).toEqual([start + 3000, null, null]);
    clock.advance(1100);
    expect(await s.runDue()).toBe(1);
    expect(fired).toEqual([start + 1900, start + 3000]);
  });

  it('a failing handler rolls back its claim, so the job stays pending', async () => {
    const clock = manualClock();
    const s = scheduler(database.db, clock);
    let calls = 0;
    const flaky = nameJob('flaky', [], async (tx) => {
      calls++;
      await tx.update(jobs).set({ claimedBy: 'half-done' }).where(eq(jobs.id, 'flaky:x'));
      if (calls === 1) throw new Error('boom');
    });
    s.register(flaky);
    await inTransaction(database.db, (tx, after) => s.schedule(tx, after, flaky, { name: 'x' }, clock.now()));
    expect(await s.fire('flaky:x')).toBe(false);
    const [pending] = await database.db.select().from(jobs).where(eq(jobs.id, 'flaky:x'));
    expect([pending.firedAt, pending.claimedBy]).toEqual([null, null]);
    expect(await s.fire('flaky:x')).toBe(true);
  });

  it('drops a row whose payload its schema refuses (logged, never retried), and one of an unknown kind', async () => {
    const clock = manualClock();
    const errors: { obj: object; msg: string }[] = [];
    const s = scheduler(database.db, clock, { error: (obj, msg) => void errors.push({ obj, msg }) });
    const seen: object[] = [];
    const turn = defineJob({
      kind: 'strict',
      payload: z.object({ matchId: jobField.id, index: jobField.index }),
      handle: async (_ctx, _tx, _after, payload) => void seen.push(payload),
    });
    s.register(turn);
    // Rows as an older release or a hand-made fix might have left them.
    await database.db.insert(jobs).values([
      { id: 'strict:m1:x', kind: 'strict', key: 'm1:x', dueAt: clock.now() },
      { id: 'strict:m1', kind: 'strict', key: 'm1', dueAt: clock.now() },
      { id: 'strict:m1:4', kind: 'strict', key: 'm1:4', dueAt: clock.now() },
      { id: 'gone:k', kind: 'gone', key: 'k', dueAt: clock.now() },
    ]);
    await s.runDue();
    expect(seen).toEqual([{ matchId: 'm1', index: 4 }]);
    // The refused rows went with their claim, as the fired one did.
    const left = await database.db
      .select()
      .from(jobs)
      .where(or(like(jobs.id, 'strict:%'), eq(jobs.id, 'gone:k')));
    expect(left).toEqual([]);
    expect(errors.map((e) => e.msg)).toEqual(['job dropped', 'job dropped', 'job dropped']);
    expect(errors.map((e) => (e.obj as { job: { id: string } }).job.id).sort()).toEqual([
      'gone:k',
      'strict:m1',
      'strict:m1:x',
    ]);
    clock.advance(60_000);
    expect(await s.runDue()).toBe(0); // nothing left to retry
    expect(errors).toHaveLength(3);
  });

  it('builds and reads keys by the definition only, and refuses what would not read back', async () => {
    const s = scheduler(database.db, manualClock());
    const turn = defineJob({
      kind: 'turn',
      payload: z.object({ matchId: jobField.id, index: jobField.index }),
      handle: async () => {},
    });
    const grace = defineJob({
      kind: 'grace',
      payload: z.object({ userId: jobField.id, since: jobField.time }),
      separator: '@',
      handle: async () => {},
    });
    expect(turn.key({ matchId: 'a1b2', index: 3 })).toBe('a1b2:3');
    expect(turn.id({ matchId: 'a1b2', index: 3 })).toBe('turn:a1b2:3');
    expect(turn.parse('a1b2:3')).toEqual({ success: true, data: { matchId: 'a1b2', index: 3 } });
    expect(turn.parse('a1b2:-1').success).toBe(false);
    expect(grace.key({ userId: 'u1', since: 1700 })).toBe('u1@1700');
    expect(grace.parse('u1@1700')).toEqual({ success: true, data: { userId: 'u1', since: 1700 } });
    // Only the last field may hold the separator; a key that could not be read back is refused.
    expect(() => turn.key({ matchId: 'a:b', index: 1 })).toThrow(/must not contain/);
    expect(() => turn.key({ matchId: 'a1', index: -1 })).toThrow();
    // A kind this scheduler does not handle could never fire: scheduling it is refused.
    await expect(
      inTransaction(database.db, (tx, after) => s.schedule(tx, after, turn, { matchId: 'a1', index: 0 }, 0)),
    ).rejects.toThrow(/not registered/);
    s.register(turn);
    expect(() => s.register(turn)).toThrow(/registered twice/);
  });

  it('keeps no done rows: 200 deadlines fired over four days leave none, and the same key booked again is a new deadline', async () => {
    const clock = manualClock();
    const s = scheduler(database.db, clock);
    const fired: string[] = [];
    const cycle = nameJob('cycle', fired);
    s.register(cycle);
    const rows = async () =>
      (await database.db.select({ n: count() }).from(jobs).where(like(jobs.id, 'cycle:%')))[0].n;
    // One deadline every half hour, 200 of them: about four days. (Real queue cycles, 1,000 of
    // them: modules/queue/bounded-jobs.test.ts.)
    const step = 30 * 60_000;
    for (let i = 0; i < 200; i++) {
      await inTransaction(database.db, (tx, after) =>
        s.schedule(tx, after, cycle, { name: `u${i}` }, clock.now() + 1_000),
      );
      clock.advance(step);
      await s.runDue();
      expect(await rows()).toBe(0);
    }
    expect(fired).toHaveLength(200);
    // Nothing remembers u199: booked again, it fires again (each kind's key is new at each booking,
    // or its handler checks the state: scheduler.ts).
    await inTransaction(database.db, (tx, after) =>
      s.schedule(tx, after, cycle, { name: 'u199' }, clock.now()),
    );
    await s.runDue();
    expect(fired).toHaveLength(201);
  }, 30_000);

  it('deletes at start the done rows an older release kept, and runs its pending ones', async () => {
    const clock = manualClock();
    const fired: string[] = [];
    const s = scheduler(database.db, clock);
    s.register(nameJob('older', fired));
    // What the release before this one left: rows marked fired or cancelled, and one pending.
    const done = (key: string, claimedBy: string) => ({
      id: `older:${key}`,
      kind: 'older',
      key,
      dueAt: clock.now() - 9_000,
      firedAt: clock.now() - 8_000,
      claimedBy,
    });
    await database.db
      .insert(jobs)
      .values([
        done('f', 'old-instance'),
        done('c', 'cancelled'),
        { id: 'older:p', kind: 'older', key: 'p', dueAt: clock.now() - 1_000 },
      ]);
    await s.start();
    expect(
      (await database.db.select({ id: jobs.id }).from(jobs).where(like(jobs.id, 'older:%'))).map((r) => r.id),
    ).toEqual(['older:p']);
    await s.runDue();
    await s.stop();
    expect(fired).toEqual(['p']);
    expect(await database.db.select().from(jobs).where(like(jobs.id, 'older:%'))).toEqual([]);
  });
});
