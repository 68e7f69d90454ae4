/**
 * Persisted deadlines. Modules register a handler per job kind and schedule jobs inside their
 * own transactions (`schedule(tx, after, kind, key, dueAt)`); the timer is armed after commit.
 *
 * Firing a job: one transaction claims it with a conditional
 *   UPDATE jobs SET fired_at = now, claimed_by = <instance> WHERE id = $1 AND fired_at IS NULL RETURNING *
 * and runs the handler in that same transaction, so the claim and the state change commit
 * together: a crash before commit leaves the job pending (it fires after the restart), and a
 * second instance racing for it updates nothing. Effects (socket events) run after commit.
 *
 * `start()` arms every pending job (overdue ones fire at once) and polls every JOBS_POLL_MS for
 * jobs other instances scheduled. Tests drive it with an injected clock and `runDue()`.
 *
 * Done rows (fired or cancelled) are deleted FINISHED_JOB_RETENTION_MS after they finished, at
 * most once per PRUNE_EVERY_MS. Without that every closed tab and every drop roll added a row
 * forever. They are kept a day rather than deleted at once because a done row is what makes
 * scheduling the same `<kind>:<key>` again a no-op (a late duplicate of an accept deadline or a
 * pick turn must not fire twice); no key is scheduled again a day after its deadline.
 */
import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNotNull, isNull, like, lt, lte, or } from 'drizzle-orm';
import type { Clock } from '../context';
import type { Db } from '../db/client';
import { type JobRow, jobs } from './schema';
import { After } from './tx';

/** `s` as a literal LIKE pattern (`%`, `_` and `\\` escaped). */
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export type JobHandler = (job: JobRow, tx: Db, after: After) => Promise<void>;

interface Log {
  error(obj: object, msg: string): void;
  warn?(obj: object, msg: string): void;
}

const MAX_TIMER_MS = 2 ** 31 - 1;
export const FINISHED_JOB_RETENTION_MS = 24 * 60 * 60_000;
const PRUNE_EVERY_MS = 10 * 60_000;

export class Scheduler {
  readonly instanceId = randomUUID();
  private readonly handlers = new Map<string, JobHandler>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private poller: NodeJS.Timeout | null = null;
  private running = false;
  private lastPrune = Number.NEGATIVE_INFINITY;
  /** The latest a job fired after its due time since `takeFireLagMs()` last read it (metrics). */
  private maxFireLagMs = 0;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly log: Log,
    private readonly pollMs = 1_000,
  ) {}

  handle(kind: string, handler: JobHandler): void {
    this.handlers.set(kind, handler);
  }

  /** Inserts the deadline in `tx` (no-op if it exists) and arms it once `after` runs. */
  async schedule(tx: Db, after: After, kind: string, key: string, dueAt: number): Promise<string> {
    const id = `${kind}:${key}`;
    await tx.insert(jobs).values({ id, kind, key, dueAt }).onConflictDoNothing();
    after.add(() => this.arm(id, dueAt));
    return id;
  }

  /**
   * Moves the deadline to `dueAt` and makes it pending again, whether it was pending, fired or
   * cancelled (a watchdog that every sign of life pushes out). A timer armed for the old time finds
   * the job not due and leaves it.
   */
  async reschedule(tx: Db, after: After, kind: string, key: string, dueAt: number): Promise<string> {
    const id = `${kind}:${key}`;
    await tx
      .insert(jobs)
      .values({ id, kind, key, dueAt })
      .onConflictDoUpdate({ target: jobs.id, set: { dueAt, firedAt: null, claimedBy: null } });
    after.add(() => this.arm(id, dueAt));
    return id;
  }

  /** Marks a pending job as done without running it (its turn was taken in time). */
  async cancel(tx: Db, after: After, kind: string, key: string): Promise<void> {
    const id = `${kind}:${key}`;
    await tx
      .update(jobs)
      .set({ firedAt: this.clock.now(), claimedBy: 'cancelled' })
      .where(and(eq(jobs.id, id), isNull(jobs.firedAt)));
    after.add(() => this.disarm(id));
  }

  /**
   * Marks every pending job keyed `key` or `key:<…>`, of any kind, as done without running it (a
   * match that starts over on another game server drops all its deadlines). Returns their ids.
   */
  async cancelKeyed(tx: Db, after: After, key: string): Promise<string[]> {
    const rows = await tx
      .update(jobs)
      .set({ firedAt: this.clock.now(), claimedBy: 'cancelled' })
      .where(and(isNull(jobs.firedAt), or(eq(jobs.key, key), like(jobs.key, `${escapeLike(key)}:%`))))
      .returning({ id: jobs.id });
    const ids = rows.map((r) => r.id);
    after.add(() => {
      for (const id of ids) this.disarm(id);
    });
    return ids;
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
          .update(jobs)
          .set({ firedAt: this.clock.now(), claimedBy: this.instanceId })
          .where(and(eq(jobs.id, id), isNull(jobs.firedAt), lte(jobs.dueAt, this.clock.now())))
          .returning();
        if (!job) return;
        this.maxFireLagMs = Math.max(this.maxFireLagMs, this.clock.now() - job.dueAt);
        const handler = this.handlers.get(job.kind);
        if (!handler) {
          this.log.error({ job }, 'no handler for job kind');
          return;
        }
        await handler(job, tx as unknown as Db, after);
        fired = true;
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
    await this.pruneIfDue();
    return total;
  }

  /** Deletes the rows that finished more than a day ago; returns how many. */
  async pruneFinished(): Promise<number> {
    this.lastPrune = this.clock.now();
    const gone = await this.db
      .delete(jobs)
      .where(and(isNotNull(jobs.firedAt), lt(jobs.firedAt, this.clock.now() - FINISHED_JOB_RETENTION_MS)))
      .returning({ id: jobs.id });
    return gone.length;
  }

  private async pruneIfDue(): Promise<void> {
    if (this.clock.now() - this.lastPrune >= PRUNE_EVERY_MS) await this.pruneFinished();
  }

  /** Arms every pending job of the database that is not armed here yet. */
  private async armPending(horizonMs: number): Promise<void> {
    const pending = await this.db
      .select({ id: jobs.id, dueAt: jobs.dueAt })
      .from(jobs)
      .where(and(isNull(jobs.firedAt), lte(jobs.dueAt, this.clock.now() + horizonMs)));
    for (const job of pending) if (!this.timers.has(job.id)) this.arm(job.id, job.dueAt);
  }

  async start(): Promise<void> {
    if (this.running) return;
    this.running = true;
    await this.armPending(Number.MAX_SAFE_INTEGER / 2);
    if (this.pollMs > 0) {
      const poll = () => {
        this.poller = setTimeout(() => {
          if (!this.running) return;
          this.armPending(this.pollMs * 2)
            .then(() => this.pruneIfDue())
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
