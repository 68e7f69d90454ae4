/**
 * The queue's per-minute history (schema.ts): written inside the queue's own transactions, so a
 * count or a match start is recorded exactly when it commits; read by the fill estimate and the
 * heatmap. Old minutes are pruned as new ones are written (at most every PRUNE_EVERY_MS).
 */
import { and, asc, gt, gte, lt, min, type SQL, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { type Db, executeRows, sentTogether } from '../../db/client';
import { DAY_MS, ETA_HALF_WINDOW_MS, HISTORY_DAYS, MINUTE_MS, type MinuteBucket } from './eta';
import { queueMinutes } from './schema';

/** 8 weeks and the half window of the oldest day the estimate still reads. */
export const HISTORY_RETENTION_MS = HISTORY_DAYS * DAY_MS + ETA_HALF_WINDOW_MS;
const PRUNE_EVERY_MS = 10 * MINUTE_MS;

/**
 * The public queue count after a change, read by `counted` (one row, its column `n`), kept as
 * the minute's peak (the minute keeps its highest) with the matches the same change created from
 * the queue (`matchStarts`), and returned: the read and the write are one statement, run in the
 * queue's transaction after each of its batches (issue 20: a statement fewer per batch).
 */
export async function recordQueueCount(
  ctx: AppContext,
  tx: Db,
  counted: SQL,
  matchStarts = 0,
): Promise<number> {
  const now = ctx.clock.now();
  const minute = now - (now % MINUTE_MS);
  const state = ctx.state.insights;
  const prune = now - state.lastPruneAt >= PRUNE_EVERY_MS;
  if (prune) state.lastPruneAt = now;
  // Both start at once: the queue may send its COMMIT right behind them (db/pipelined.ts).
  const [[row]] = await sentTogether(
    executeRows<{ n: number | string }>(
      tx,
      sql`
    WITH counted AS (${counted}),
    recorded AS (
      INSERT INTO ${queueMinutes} (minute, peak, match_starts)
      SELECT ${minute}::bigint, n, ${matchStarts}::int FROM counted
      ON CONFLICT (minute) DO UPDATE SET
        peak = greatest(${queueMinutes}.peak, excluded.peak),
        match_starts = ${queueMinutes}.match_starts + excluded.match_starts
    )
    SELECT n FROM counted`,
    ),
    prune && tx.delete(queueMinutes).where(lt(queueMinutes.minute, now - HISTORY_RETENTION_MS)),
  );
  return Number(row?.n ?? 0);
}

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
