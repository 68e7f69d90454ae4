/**
 * Leadership through the database: one instance of the deployment holds a named lease (table
 * `leases`: name, holder, expires_at) and renews it every `renewMs`; when it closes it deletes the
 * row, and when it dies without closing the row expires after `ttlMs`. Either way the next instance
 * whose periodic attempt comes up takes it over.
 *
 * Taking and renewing are one statement, atomic on PostgreSQL and PGlite alike:
 *
 *   INSERT INTO leases (name, holder, expires_at) VALUES ($name, $me, $now + ttl)
 *   ON CONFLICT (name) DO UPDATE SET holder = $me, expires_at = $now + ttl
 *     WHERE leases.holder = $me OR leases.expires_at <= $now
 *   RETURNING holder
 *
 * A row comes back only to the instance that holds the lease afterwards. Times come from the app
 * clock (as the job scheduler's claims do): instances must keep their clocks in step (NTP) to well
 * under `ttlMs - renewMs`.
 */
import { and, eq, lte, or } from 'drizzle-orm';
import type { Clock } from '../../context';
import type { Db } from '../../db/client';
import { leases } from './schema';

export class Lease {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly name: string,
    readonly holder: string,
    readonly ttlMs: number,
  ) {}

  /** Takes or renews the lease; true when this holder has it until now + ttl. */
  async acquire(): Promise<boolean> {
    const now = this.clock.now();
    const expiresAt = new Date(now + this.ttlMs);
    const rows = await this.db
      .insert(leases)
      .values({ name: this.name, holder: this.holder, expiresAt })
      .onConflictDoUpdate({
        target: leases.name,
        set: { holder: this.holder, expiresAt },
        setWhere: or(eq(leases.holder, this.holder), lte(leases.expiresAt, new Date(now))),
      })
      .returning({ holder: leases.holder });
    return rows.length === 1;
  }

  /** Gives the lease up at once (only if this holder still has it). */
  async release(): Promise<void> {
    await this.db.delete(leases).where(and(eq(leases.name, this.name), eq(leases.holder, this.holder)));
  }
}

interface Log {
  info(o: object, m: string): void;
  error(o: object, m: string): void;
}

/**
 * Keeps trying to hold `lease` every `renewMs`: `onLead` runs when this instance becomes the
 * leader, `onStepDown` when it stops being it (the renewal failed or was refused, or `stop`).
 * Transitions run one after another, never overlapping.
 */
export class LeaderElector {
  private leading = false;
  private timer: NodeJS.Timeout | null = null;
  private chain: Promise<unknown> = Promise.resolve();
  private stopped = false;

  constructor(
    readonly lease: Lease,
    private readonly renewMs: number,
    private readonly hooks: { onLead(): Promise<void>; onStepDown(): Promise<void>; log: Log },
  ) {}

  get isLeader(): boolean {
    return this.leading;
  }

  start(): Promise<boolean> {
    this.stopped = false;
    this.timer ??= setInterval(() => void this.tick(), this.renewMs);
    this.timer.unref?.();
    return this.tick();
  }

  /** One attempt to take or renew the lease (the timer calls it; tests call it directly). */
  tick(): Promise<boolean> {
    return this.serial(async () => {
      if (this.stopped) return false;
      let held = false;
      try {
        held = await this.lease.acquire();
      } catch (err) {
        // Unsure whether the row was renewed: behave as if not, the others may take over.
        this.hooks.log.error({ err, lease: this.lease.name }, 'lease renewal failed');
      }
      if (held && !this.leading) {
        this.leading = true;
        this.hooks.log.info({ lease: this.lease.name, holder: this.lease.holder }, 'lease taken: leading');
        await this.hooks
          .onLead()
          .catch((err) => this.hooks.log.error({ err }, 'lease: starting as leader failed'));
      } else if (!held && this.leading) {
        await this.stepDown('lease lost: no longer leading');
      }
      return held;
    });
  }

  /** Stops trying; a leader steps down first and then deletes the row, so another takes over at once. */
  stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.serial(async () => {
      if (!this.leading) return;
      await this.stepDown('lease released: no longer leading');
      await this.lease
        .release()
        .catch((err) => this.hooks.log.error({ err, lease: this.lease.name }, 'lease release failed'));
    });
  }

  private async stepDown(message: string): Promise<void> {
    this.leading = false;
    this.hooks.log.info({ lease: this.lease.name, holder: this.lease.holder }, message);
    await this.hooks
      .onStepDown()
      .catch((err) => this.hooks.log.error({ err }, 'lease: stepping down failed'));
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.chain.then(fn);
    this.chain = next.catch(() => undefined);
    return next;
  }
}
