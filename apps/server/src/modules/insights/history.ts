/**
 * The queue's per-minute history (schema.ts): written inside the queue's own transactions, so a
 * count or a match start is recorded exactly when it commits; read by the fill estimate and the
 * heatmap. Old minutes are pruned as new ones are written (at most every PRUNE_EVERY_MS).
 */
import { and, asc, gt, gte, lt, min, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { DAY_MS, ETA_HALF_WINDOW_MS, HISTORY_DAYS, MINUTE_MS, type MinuteBucket } from './eta';
import { queueMinutes } from './schema';

/** 8 weeks and the half window of the oldest day the estimate still reads. */
export const HISTORY_RETENTION_MS = HISTORY_DAYS * DAY_MS + ETA_HALF_WINDOW_MS;
const PRUNE_EVERY_MS = 10 * MINUTE_MS;

async function record(ctx: AppContext, tx: Db, peak: number, matchStarts: number): Promise<void> {
  const now = ctx.clock.now();
  const minute = now - (now % MINUTE_MS);
  await tx
    .insert(queueMinutes)
    .values({ minute, peak, matchStarts })
    .onConflictDoUpdate({
      target: queueMinutes.minute,
      set: {
        peak: sql`greatest(${queueMinutes.peak}, excluded.peak)`,
        matchStarts: sql`${queueMinutes.matchStarts} + excluded.match_starts`,
      },
    });
  const state = ctx.state.insights;
  if (now - state.lastPruneAt < PRUNE_EVERY_MS) return;
  state.lastPruneAt = now;
  await tx.delete(queueMinutes).where(lt(queueMinutes.minute, now - HISTORY_RETENTION_MS));
}

/**
 * The public queue count after a change (the minute keeps its highest), and the matches the same
 * change created from the queue (`matchStarts`): one statement for both.
 */
export const recordQueueCount = (ctx: AppContext, tx: Db, count: number, matchStarts = 0) =>
  record(ctx, tx, count, matchStarts);

/** The first minute the history holds, or null. */
export async function historyStart(db: Db): Promise<number | null> {
  const [row] = await db.select({ first: min(queueMinutes.minute) }).from(queueMinutes);
  return row?.first == null ? null : Number(row.first);
}

/** Minutes with match starts since `from` (epoch ms). */
export async function startsSince(db: Db, from: number): Promise<MinuteBucket[]> {
  return db
    .select({ minute: queueMinutes.minute, matchStarts: queueMinutes.matchStarts })
    .from(queueMinutes)
    .where(and(gte(queueMinutes.minute, from), gt(queueMinutes.matchStarts, 0)))
    .orderBy(asc(queueMinutes.minute));
}
