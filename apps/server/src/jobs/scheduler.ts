/**
 * Persisted deadlines. Each module declares its job kinds with `defineJob` (define.ts: kind, zod
 * payload schema, handler) and registers them (`ctx.jobs.register(...)`) in its plugin; the app
 * starts the scheduler once every module is in (onReady) and stops it on close. Jobs are scheduled
 * inside the caller's transaction, typed by their definition
 * (`ctx.jobs.schedule(tx, after, pickJob, { matchId, index }, dueAt)`); the timer is armed after
 * commit.
 *
 * Firing a job: one transaction claims it by deleting its row,
 *   DELETE FROM jobs WHERE id = $1 AND fired_at IS NULL AND due_at <= now RETURNING *
 * and runs the handler in that same transaction, so the claim and the state change commit
 * together: a crash before commit leaves the job pending (it fires after the restart), and a
 * second instance racing for it deletes nothing. Effects (socket events) run after commit. The
 * payload is read back from the row's key and checked against the kind's schema first: a row
 * whose payload the schema refuses (or of a kind nobody registered) is logged and dropped (its
 * claim commits), never retried. A handler that re-arms its own id (a sweep that books its next
 * run) inserts a new row in the same transaction.
 *
 * `start()` arms every pending job (overdue ones fire at once) and polls every JOBS_POLL_MS for
 * jobs another instance booked and did not fire (start() says why only overdue ones). Tests drive
 * it with an injected clock and `runDue()`.
 *
 * A job leaves no row once it fired or was cancelled, so the table holds the pending deadlines
 * only (2,000 players on two instances had added 786 done rows a minute, kept a day). Nothing
 * needs the done rows: every kind's key is either new at each scheduling (a random id, the time
 * it was booked, an index that only grows) or re-checked by its handler against the state
 * (docs/architecture.md, "How a deadline (job) flows"). Keeping them had been a bug for a match
 * an admin moves to another server: its simulator step and MatchZy load attempt keys from the
 * first server were done, so `schedule()` of the same keys did nothing and the moved match
 * stalled. `fired_at` and `claimed_by` stay one release for the rolling upgrade (an instance of
 * the older release still claims with an UPDATE); `start()` deletes the done rows it left.
 *
 * Only this folder reads or writes the `jobs` table; other modules use the methods below.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, count, eq, inArray, isNotNull, isNull, like, lte, min, or, type SQL } from 'drizzle-orm';
import type { AppContext, Clock } from '../context';
import type { Db } from '../db/client';
import type { JobDefinition, JobKind } from './define';
import { jobs } from './schema';
import { After } from './tx';

/** `s` as a literal LIKE pattern (`%`, `_` and `\\` escaped). */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

interface Log {
  error(obj: object, msg: string): void;
  warn?(obj: object, msg: string): void;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

export class Scheduler {
  readonly instanceId = randomUUID();
  private readonly kinds = new Map<string, JobKind>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private poller: NodeJS.Timeout | null = null;
  private running = false;
  /** The latest a job fired after its due time since `takeFireLagMs()` last read it (metrics). */
  private maxFireLagMs = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Log,
    private readonly pollMs = 1_000,
    /** What handlers get as their context (the app's, once built). */
    private readonly context: () => AppContext = () => {
      throw new Error('this scheduler has no app context');
    },
  ) {}

  /** Adds job kinds this instance handles; a kind registered twice is a programming error. */
  register(...definitions: JobKind[]): void {
    for (const definition of definitions) {
      if (this.kinds.has(definition.kind)) throw new Error(`job kind ${definition.kind} is registered twice`);
      this.kinds.set(definition.kind, definition);
    }
  }

  /** The row's parts; refuses a kind not registered here (it could never fire). */
  private rowOf<P>(job: JobDefinition<P>, payload: P) {
    if (this.kinds.get(job.kind) !== job) throw new Error(`job kind ${job.kind} is not registered`);
    const key = job.key(payload);
    return { id: `${job.kind}:${key}`, kind: job.kind, key };
  }

  /** Inserts the deadline in `tx` (no-op if it exists) and arms it once `after` runs. */
  async schedule<P>(tx: Db, after: After, job: JobDefinition<P>, payload: P, dueAt: number): Promise<string> {
    const [id] = await this.scheduleMany(tx, after, job, [{ payload, dueAt }]);
    return id;
  }

  /**
   * `schedule` for many deadlines of one kind in one statement (the queue starts a burst of
   * accept phases and matches in one transaction under its lock: one insert, not one each).
   */
  async scheduleMany<P>(
    tx: Db,
    after: After,
    job: JobDefinition<P>,
    items: readonly { payload: P; dueAt: number }[],
  ): Promise<string[]> {
    if (items.length === 0) return [];
    const rows = items.map(({ payload, dueAt }) => ({ ...this.rowOf(job, payload), dueAt }));
    await tx.insert(jobs).values(rows).onConflictDoNothing();
    after.add(() => {
      for (const row of rows) this.arm(row.id, row.dueAt);
    });
    return rows.map((r) => r.id);
  }

  /**
   * Moves the deadline to `dueAt` and makes it pending again, whether it was pending, fired or
   * cancelled (a watchdog that every sign of life pushes out). A timer armed for the old time finds
   * the job not due and leaves it.
   */
  async reschedule<P>(
    tx: Db,
    after: After,
    job: JobDefinition<P>,
    payload: P,
    dueAt: number,
  ): Promise<string> {
    const row = this.rowOf(job, payload);
    await tx
      .insert(jobs)
      .values({ ...row, dueAt })
      .onConflictDoUpdate({ target: jobs.id, set: { dueAt, firedAt: null, claimedBy: null } });
    after.add(() => this.arm(row.id, dueAt));
    return row.id;
  }

  /** Drops a pending job without running it (its turn was taken in time). */
  async cancel<P>(tx: Db, after: After, job: JobDefinition<P>, payload: P): Promise<void> {
    await this.cancelMany(tx, after, job, [payload]);
  }

  /** `cancel` for many jobs of one kind in one statement. */
  async cancelMany<P>(tx: Db, after: After, job: JobDefinition<P>, payloads: readonly P[]): Promise<void> {
    if (payloads.length === 0) return;
    const ids = payloads.map((payload) => this.rowOf(job, payload).id);
    await this.cancelWhere(tx, after, ids.length === 1 ? eq(jobs.id, ids[0]) : inArray(jobs.id, ids));
  }

  /** Drops every pending job of a kind without running it (the drop engine is switched). */
  async cancelAll(tx: Db, after: After, job: JobKind): Promise<string[]> {
    return this.cancelWhere(tx, after, eq(jobs.kind, job.kind));
  }

  /**
   * Drops every pending job whose payload starts with `field` = `value`, of every registered kind
   * whose first field is `field`, without running it (a match that starts over on another
   * game server drops all its `matchId` deadlines). Returns their ids.
   */
  async cancelFor(tx: Db, after: After, field: string, value: string): Promise<string[]> {
    const matching = [...this.kinds.values()]
      .filter((k) => k.fields[0] === field)
      .map((k) =>
        and(
          eq(jobs.kind, k.kind),
          k.fields.length === 1 ? eq(jobs.key, value) : like(jobs.key, `${escapeLike(value + k.separator)}%`),
        ),
      );
    if (matching.length === 0) return [];
    return this.cancelWhere(tx, after, or(...matching) as SQL);
  }

  private async cancelWhere(tx: Db, after: After, which: SQL): Promise<string[]> {
    const rows = await tx
      .delete(jobs)
      .where(and(isNull(jobs.firedAt), which))
      .returning({ id: jobs.id });
    const ids = rows.map((r) => r.id);
    after.add(() => {
      for (const id of ids) this.disarm(id);
    });
    return ids;
  }

  /** Whether a job of this kind is pending (the drop engine keeps one roll booked). */
  async hasPending(db: Db, job: JobKind): Promise<boolean> {
    const [row] = await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.kind, job.kind), isNull(jobs.firedAt)))
      .limit(1);
    return row !== undefined;
  }

  /** The due time of the oldest pending job of the deployment, or null (openpug_job_lag_seconds). */
  async oldestPendingDueAt(): Promise<number | null> {
    const [row] = await this.db
      .select({ oldest: min(jobs.dueAt) })
      .from(jobs)
      .where(isNull(jobs.firedAt));
    return row?.oldest == null ? null : Number(row.oldest);
  }

  /** How many rows the table holds (pending ones only, unless an older release left done ones). */
  async rowCount(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(jobs);
    return Number(row?.n ?? 0);
  }

  arm(id: string, dueAt: number): void {
    if (!this.running) return;
    this.disarm(id);
    const delay = Math.min(Math.max(0, dueAt - this.clock.now()), MAX_TIMER_MS);
    const timer = setTimeout(() => {
      this.timers.delete(id);
      if (dueAt > this.clock.now()) return this.arm(id, dueAt); // injected clock not there yet
      this.track(this.fire(id));
    }, delay);
    timer.unref?.();
    this.timers.set(id, timer);
  }

  private disarm(id: string): void {
    const t = this.timers.get(id);
    if (t) clearTimeout(t);
    this.timers.delete(id);
  }

  private track(p: Promise<unknown>): void {
    this.inFlight.add(p);
    p.finally(() => this.inFlight.delete(p)).catch(() => {});
  }

  /** Claims and runs one job. Returns whether this call fired it. */
  async fire(id: string): Promise<boolean> {
    const after = new After();
    let fired = false;
    try {
      await this.db.transaction(async (tx) => {
        const [job] = await tx
          .delete(jobs)
          .where(and(eq(jobs.id, id), isNull(jobs.firedAt), lte(jobs.dueAt, this.clock.now())))
          .returning();
        if (!job) return;
        this.maxFireLagMs = Math.max(this.maxFireLagMs, this.clock.now() - job.dueAt);
        const kind = this.kinds.get(job.kind);
        const refused = kind
          ? await kind.run(this.context(), tx as unknown as Db, after, job.key)
          : 'no handler for this kind';
        if (refused === null) {
          fired = true;
          return;
        }
        // Retrying could not help: the row is dropped with the claim, and the reason logged.
        this.log.error({ job: { id: job.id, kind: job.kind, key: job.key }, reason: refused }, 'job dropped');
      });
    } catch (err) {
      this.log.error({ err, id }, 'job failed; it stays pending and is retried');
      if (this.running) {
        const retry = setTimeout(() => this.track(this.fire(id)), 1_000);
        retry.unref?.();
      }
      return false;
    }
    await after.run(this.log);
    return fired;
  }

  /** How late (ms) jobs fired here since the last call, at most; resets it (openpug_job_lag_seconds). */
  takeFireLagMs(): number {
    const lag = this.maxFireLagMs;
    this.maxFireLagMs = 0;
    return lag;
  }

  /** Fires every pending job that is due by the clock (repeatedly, for jobs due at once). */
  async runDue(maxRounds = 50): Promise<number> {
    let total = 0;
    for (let round = 0; round < maxRounds; round++) {
      const due = await this.db
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(isNull(jobs.firedAt), lte(jobs.dueAt, this.clock.now())))
        .orderBy(asc(jobs.dueAt));
      if (due.length === 0) break;
      let n = 0;
      for (const { id } of due) if (await this.fire(id)) n++;
      total += n;
      if (n === 0) break;
    }
    return total;
  }

  /**
   * Deletes the done rows an older release kept (it marked a job fired or cancelled and pruned it
   * a day later); returns how many. Runs at each start: in a rolling upgrade the last instance to
   * come back on this release deletes what the older ones left while they ran.
   */
  async deleteDone(): Promise<number> {
    const gone = await this.db.delete(jobs).where(isNotNull(jobs.firedAt)).returning({ id: jobs.id });
    return gone.length;
  }

  /** Arms every pending job due by `dueBy` (the clock's time) that is not armed here yet. */
  private async armPending(dueBy: number): Promise<void> {
    const pending = await this.db
      .select({ id: jobs.id, dueAt: jobs.dueAt })
      .from(jobs)
      .where(and(isNull(jobs.firedAt), lte(jobs.dueAt, dueBy)));
    for (const job of pending) if (!this.timers.has(job.id)) this.arm(job.id, job.dueAt);
  }

  /**
   * `start()` arms every pending job: the ones this process booked before a restart, and those of
   * instances that are gone. Then each poll arms only the jobs overdue by a poll interval: an
   * instance that books a job fires it on time itself, so a job still pending that late has lost
   * its instance (killed, stopped, or its timer was never armed). Arming the jobs due within the
   * next two intervals, as the poll did, made every instance race the owner for each of them, and
   * for the ones the owner cancelled in time: 862 claims that found nothing against 637 that fired,
   * each a transaction of its own, in a one-minute two-instance bench run (issue 20 target 5,
   * bench/RESULTS.md session 30). The price is a late fire when an instance is lost: its jobs fire
   * one to two intervals after their time (JOBS_POLL_MS, 1 s by default).
   */
  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.deleteDone();
    await this.armPending(Number.MAX_SAFE_INTEGER);
    if (this.pollMs > 0) {
      const poll = () => {
        this.poller = setTimeout(() => {
          if (!this.running) return;
          this.armPending(this.clock.now() - this.pollMs)
            .catch((err) => this.log.error({ err }, 'job poll failed'))
            .finally(() => this.running && poll());
        }, this.pollMs);
        this.poller.unref?.();
      };
      poll();
    }
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.poller) clearTimeout(this.poller);
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inFlight]);
  }
}
