/**
 * Escalating queue cooldowns. A miss (declining an accept phase, letting it run out, leaving the
 * queue during it) or a leave (leaving a live match, not connecting to its server) adds an
 * offence; its cooldown is the ladder's entry for how many offences of that kind, not lifted,
 * the player has within the window (the last entry repeats). Stored rows, not timers: a restart
 * changes nothing, and the end time is all anyone needs to check.
 */
import { randomUUID } from 'node:crypto';
import type { Cooldown } from '@openpug/shared';
import { and, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { After } from '../../jobs';
import { queueCooldowns } from './schema';

export type CooldownKind = Cooldown['kind'];
const DAY_MS = 24 * 60 * 60_000;

function ladderOf(ctx: AppContext, kind: CooldownKind): { minutes: number[]; windowMs: number } {
  return kind === 'miss'
    ? { minutes: ctx.config.COOLDOWN_MISS_MINUTES, windowMs: ctx.config.COOLDOWN_MISS_WINDOW_DAYS * DAY_MS }
    : {
        minutes: ctx.config.COOLDOWN_LEAVE_MINUTES,
        windowMs: ctx.config.COOLDOWN_LEAVE_WINDOW_DAYS * DAY_MS,
      };
}

/** Records an offence and starts its cooldown; the player hears of it after commit. */
export async function recordOffence(
  ctx: AppContext,
  tx: Db,
  after: After,
  userId: string,
  kind: CooldownKind,
): Promise<Cooldown> {
  const now = ctx.clock.now();
  const { minutes, windowMs } = ladderOf(ctx, kind);
  const [prior] = await tx
    .select({ n: count() })
    .from(queueCooldowns)
    .where(
      and(
        eq(queueCooldowns.userId, userId),
        eq(queueCooldowns.kind, kind),
        isNull(queueCooldowns.liftedAt),
        gt(queueCooldowns.createdAt, now - windowMs),
      ),
    );
  const offence = Number(prior?.n ?? 0) + 1;
  const endsAt = now + minutes[Math.min(offence, minutes.length) - 1] * 60_000;
  await tx.insert(queueCooldowns).values({ id: randomUUID(), userId, kind, offence, createdAt: now, endsAt });
  const cooldown: Cooldown = { kind, endsAt, offence };
  after.add(() => ctx.realtime.toUser(userId, 'PRIVATE_QUEUE_COOLDOWN', cooldown));
  return cooldown;
}

/** The cooldown running now (the one ending last), or null. */
export async function activeCooldown(ctx: AppContext, db: Db, userId: string): Promise<Cooldown | null> {
  const [row] = await activeCooldownQuery(ctx, db, userId);
  return row ?? null;
}

/** activeCooldown's read, not run: a statement of the caller's can take it as a subquery. */
export function activeCooldownQuery(ctx: AppContext, db: Db, userId: string) {
  return db
    .select({ kind: queueCooldowns.kind, endsAt: queueCooldowns.endsAt, offence: queueCooldowns.offence })
    .from(queueCooldowns)
    .where(
      and(
        eq(queueCooldowns.userId, userId),
        isNull(queueCooldowns.liftedAt),
        gt(queueCooldowns.endsAt, ctx.clock.now()),
      ),
    )
    .orderBy(desc(queueCooldowns.endsAt))
    .limit(1);
}

/**
 * The read "which of these players have a cooldown running now", not run: the joins run it with
 * their other checks in one statement, one row `{userId, check: 'cooldown'}` a cooldown.
 */
export function cooldownChecks(ctx: AppContext, db: Db, userIds: readonly string[]) {
  return db
    .select({
      userId: sql<string>`${queueCooldowns.userId}`.as('user_id'),
      check: sql<string>`'cooldown'`.as('check'),
    })
    .from(queueCooldowns)
    .where(
      and(
        inArray(queueCooldowns.userId, [...userIds]),
        isNull(queueCooldowns.liftedAt),
        gt(queueCooldowns.endsAt, ctx.clock.now()),
      ),
    );
}

/** Every cooldown of a player, newest first (the admin's view). */
export function cooldownHistory(db: Db, userId: string) {
  return db
    .select()
    .from(queueCooldowns)
    .where(eq(queueCooldowns.userId, userId))
    .orderBy(desc(queueCooldowns.createdAt));
}

/** An admin lifts every running cooldown of a player; returns how many were lifted. */
export async function liftCooldowns(ctx: AppContext, userId: string, adminId: string): Promise<number> {
  const now = ctx.clock.now();
  const lifted = await ctx.db
    .update(queueCooldowns)
    .set({ liftedAt: now, liftedBy: adminId })
    .where(
      and(eq(queueCooldowns.userId, userId), isNull(queueCooldowns.liftedAt), gt(queueCooldowns.endsAt, now)),
    )
    .returning({ id: queueCooldowns.id });
  if (lifted.length > 0) ctx.realtime.toUser(userId, 'PRIVATE_QUEUE_COOLDOWN', null);
  return lifted.length;
}
