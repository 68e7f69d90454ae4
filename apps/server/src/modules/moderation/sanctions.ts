/**
 * Reading sanctions: whether a player is banned or muted right now. Only reads its own table, so
 * the queue, friends and chat modules can ask without depending on the rest of the moderation
 * module. A sanction is active while it is not lifted, has started and has not ended (endsAt null
 * = permanent); of several, the one ending last counts.
 */
import type { ActiveSanction, ModerationState, SanctionKind } from '@openpug/shared';
import { and, desc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { forbidden } from '../../lib/errors';
import { sanctions } from './schema';

export const activeCondition = (now: number) =>
  and(
    isNull(sanctions.liftedAt),
    lte(sanctions.startsAt, now),
    or(isNull(sanctions.endsAt), gt(sanctions.endsAt, now)),
  );

/**
 * The running sanction of a player of each kind asked for (of several, the one ending last;
 * permanent first), in one statement.
 */
async function activeSanctions(
  ctx: AppContext,
  db: Db,
  userId: string,
  kinds: readonly SanctionKind[],
): Promise<Map<SanctionKind, ActiveSanction>> {
  const rows = await db
    .selectDistinctOn([sanctions.kind], {
      kind: sanctions.kind,
      reason: sanctions.reason,
      endsAt: sanctions.endsAt,
    })
    .from(sanctions)
    .where(
      and(
        eq(sanctions.userId, userId),
        inArray(sanctions.kind, [...kinds]),
        activeCondition(ctx.clock.now()),
      ),
    )
    .orderBy(sanctions.kind, sql`${sanctions.endsAt} DESC NULLS FIRST`, desc(sanctions.startsAt));
  return new Map(rows.map(({ kind, ...active }) => [kind, active]));
}

/** The running ban or mute of a player, or null. */
export async function activeSanction(
  ctx: AppContext,
  db: Db,
  userId: string,
  kind: SanctionKind,
): Promise<ActiveSanction | null> {
  return (await activeSanctions(ctx, db, userId, [kind])).get(kind) ?? null;
}

/**
 * The read "which of these players are banned right now", not run: the queue's joins run it in
 * one statement with their other checks (`unionAll`), one row `{userId, check: 'ban'}` a ban.
 */
export function banChecks(ctx: AppContext, db: Db, userIds: readonly string[]) {
  return db
    .select({ userId: sql<string>`${sanctions.userId}`.as('user_id'), check: sql<string>`'ban'`.as('check') })
    .from(sanctions)
    .where(
      and(
        inArray(sanctions.userId, [...userIds]),
        eq(sanctions.kind, 'ban'),
        activeCondition(ctx.clock.now()),
      ),
    );
}

/** The player's running ban and mute (GET /api/moderation/me). */
export async function moderationStateOf(ctx: AppContext, db: Db, userId: string): Promise<ModerationState> {
  // One statement: it was two, the ban and then the mute, for each player who joins a match's chat
  // room (chatBlocked) and for each moderation change's audit (issue 20, bench/RESULTS.md session 30).
  const active = await activeSanctions(ctx, db, userId, ['ban', 'mute']);
  return { ban: active.get('ban') ?? null, mute: active.get('mute') ?? null };
}

/** Refuses a banned player (403 BANNED). */
export async function refuseBanned(ctx: AppContext, db: Db, userId: string): Promise<void> {
  if (await activeSanction(ctx, db, userId, 'ban')) throw forbidden('BANNED');
}

/** A banned player cannot chat either; a muted one cannot chat. */
export async function chatBlocked(ctx: AppContext, db: Db, userId: string): Promise<boolean> {
  const state = await moderationStateOf(ctx, db, userId);
  return !!(state.ban || state.mute);
}
