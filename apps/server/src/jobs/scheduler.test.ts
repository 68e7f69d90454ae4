import { count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock, openTestDatabase, type TestDatabase } from '../../test/helpers';
import { FINISHED_JOB_RETENTION_MS, Scheduler } from './scheduler';
import { jobs } from './schema';
import { inTransaction } from './tx';

const quiet = { error: () => {} };

describe('persisted deadlines', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.dispose());

  it('fires a due job once even when two instances race for it', async () => {
    const clock = manualClock();
    const fired: string[] = [];
    const a = new Scheduler(database.db, clock, quiet, 0);
    const b = new Scheduler(database.db, clock, quiet, 0);
    for (const s of [a, b]) s.handle('test', async (job) => void fired.push(`${job.key}@${s.instanceId}`));
    await inTransaction(database.db, (tx, after) => a.schedule(tx, after, 'test', 'k1', clock.now() + 1000));
    expect(await a.fire('test:k1')).toBe(false); // not due yet
    clock.advance(1000);
    const results = await Promise.all([a.fire('test:k1'), b.fire('test:k1'), a.runDue(), b.runDue()]);
    expect(results.filter((r) => r === true || r === 1)).toHaveLength(1);
    expect(fired).toHaveLength(1);
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, 'test:k1'));
    expect(row.firedAt).toBe(clock.now());
    expect([a.instanceId, b.instanceId]).toContain(row.claimedBy);
  });

  it('re-arms pending jobs on start (overdue ones fire at once); cancelled jobs never fire', async () => {
    const clock = { now: () => Date.now() };
    const first = new Scheduler(database.db, clock, quiet, 0);
    await inTransaction(database.db, async (tx, after) => {
      await first.schedule(tx, after, 'restart', 'overdue', Date.now() - 5_000);
      await first.schedule(tx, after, 'restart', 'soon', Date.now() + 150);
      await first.schedule(tx, after, 'restart', 'cancelled', Date.now() + 100);
      await first.cancel(tx, after, 'restart', 'cancelled');
    });
    // A new process: nothing was armed by `first` (it never started).
    const fired: string[] = [];
    const second = new Scheduler(database.db, clock, quiet, 0);
    second.handle('restart', async (job) => void fired.push(job.key));
    await second.start();
    await expect.poll(() => fired.sort(), { timeout: 3_000 }).toEqual(['overdue', 'soon']);
    await second.stop();
  });

  it('cancelKeyed drops every pending job keyed k or k:<…> of any kind, and nothing else', async () => {
    const clock = manualClock();
    const s = new Scheduler(database.db, clock, quiet, 0);
    const fired: string[] = [];
    for (const kind of ['keyed-a', 'keyed-b']) s.handle(kind, async (job) => void fired.push(job.id));
    const due = clock.now() + 1_000;
    await inTransaction(database.db, async (tx, after) => {
      for (const [kind, key] of [
        ['keyed-a', 'm_1'],
        ['keyed-a', 'm_1:0'],
        ['keyed-b', 'm_1:7:9'],
        ['keyed-a', 'm_10'], // another key that starts the same
        ['keyed-b', 'mx1:0'], // `_` is no wildcard
      ])
        await s.schedule(tx, after, kind, key, due);
    });
    const dropped = await inTransaction(database.db, (tx, after) => s.cancelKeyed(tx, after, 'm_1'));
    expect(dropped.sort()).toEqual(['keyed-a:m_1', 'keyed-a:m_1:0', 'keyed-b:m_1:7:9']);
    clock.advance(1_000);
    await s.runDue();
    expect(fired.sort()).toEqual(['keyed-a:m_10', 'keyed-b:mx1:0']);
  });

  it('reschedule pushes a deadline out, and makes a fired one pending again', async () => {
    const clock = manualClock();
    const s = new Scheduler(database.db, clock, quiet, 0);
    const fired: number[] = [];
    s.handle('watch', async () => void fired.push(clock.now()));
    const start = clock.now();
    await inTransaction(database.db, (tx, after) => s.reschedule(tx, after, 'watch', 'w', start + 1000));
    clock.advance(900);
    await inTransaction(database.db, (tx, after) => s.reschedule(tx, after, 'watch', 'w', start + 1900));
    clock.advance(100); // the first deadline: no longer due
    expect(await s.runDue()).toBe(0);
    clock.advance(900);
    expect(await s.runDue()).toBe(1);
    expect(fired).toEqual([start + 1900]);
    // Fired, then a new sign of life: pending again, due once more at its new time.
    await inTransaction(database.db, (tx, after) => s.reschedule(tx, after, 'watch', 'w', start + 3000));
    const [row] = await database.db.select().from(jobs).where(eq(jobs.id, 'watch:w'));
    expect([row.dueAt, row.firedAt, row.claimedBy]).toEqual([start + 3000, null, null]);
    clock.advance(1100);
    expect(await s.runDue()).toBe(1);
    expect(fired).toEqual([start + 1900, start + 3000]);
  });

  it('a failing handler rolls back its claim, so the job stays pending', async () => {
    const clock = manualClock();
    const s = new Scheduler(database.db, clock, quiet, 0);
    let calls = 0;
    s.handle('flaky', async (_job, tx) => {
      calls++;
      await tx.update(jobs).set({ claimedBy: 'half-done' }).where(eq(jobs.id, 'flaky:x'));
      if (calls === 1) throw new Error('boom');
    });
    await inTransaction(database.db, (tx, after) => s.schedule(tx, after, 'flaky', 'x', clock.now()));
    expect(await s.fire('flaky:x')).toBe(false);
    const [pending] = await database.db.select().from(jobs).where(eq(jobs.id, 'flaky:x'));
    expect(pending.firedAt).toBeNull();
    expect(await s.fire('flaky:x')).toBe(true);
  });

  it('stays bounded: done rows go a day after they finished, and a duplicate within the day is still a no-op', async () => {
    const clock = manualClock();
    const s = new Scheduler(database.db, clock, quiet, 0);
    let fired = 0;
    s.handle('cycle', async () => void fired++);
    const rows = async () =>
      (await database.db.select({ n: count() }).from(jobs).where(like(jobs.id, 'cycle:%')))[0].n;
    // 1,000 queue join/leave cycles, each leaving a tab-close deadline (as queue.disconnect does),
    // one every ten minutes: about a week.
    const step = 10 * 60_000;
    for (let i = 0; i < 1_000; i++) {
      await inTransaction(database.db, (tx, after) =>
        s.schedule(tx, after, 'cycle', `u@${i}`, clock.now() + 1_000),
      );
      clock.advance(step);
      await s.runDue();
    }
    expect(fired).toBe(1_000);
    expect(await rows()).toBeLessThanOrEqual(FINISHED_JOB_RETENTION_MS / step + 2);
    // The newest done row is still there, so scheduling it again does not fire it twice.
    await inTransaction(database.db, (tx, after) => s.schedule(tx, after, 'cycle', 'u@999', clock.now()));
    await s.runDue();
    expect(fired).toBe(1_000);
  }, 90_000); // 1,000 transactions and 1,000 runDue rounds: ~10 s alone, more beside another file
});
