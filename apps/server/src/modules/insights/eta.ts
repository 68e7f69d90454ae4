/**
 * The queue's fill estimate (docs/contract.md §4 "Queue insights"), pure so the server and the
 * backtest (bench/queue-eta-bench.ts) run the same code.
 *
 * For each earlier day k (up to the 8 weeks kept) the window now − k·24 h ± 30 min is looked at;
 * a day counts once the stored history reaches back over its whole window. Matches started in
 * those windows give the rate at which players leave the queue into matches at this hour:
 * λ = 10 · starts / (days · 60 min). The estimate for a queue of `count` players is the time the
 * missing 10 − count players take at that rate. Fewer than ETA_MIN_DAYS days, or fewer than
 * ETA_MIN_STARTS starts in them, is "not enough data": the widget says so instead of guessing.
 */
import { PLAYERS_PER_MATCH, type QueueEta } from '@openpug/shared';

export const MINUTE_MS = 60_000;
export const DAY_MS = 24 * 60 * MINUTE_MS;
/** Half the window around "this hour" on each earlier day. */
export const ETA_HALF_WINDOW_MS = 30 * MINUTE_MS;
/** How far back the history is kept and the estimate looks: 8 weeks. */
export const HISTORY_DAYS = 56;
export const ETA_MIN_DAYS = 5;
/**
 * Below this many starts in the windows an hour is too sparse to say: in the backtest
 * (bench/RESULTS.md) 3 let quiet hours through whose real wait ran into hours (p90 error 202 min),
 * 10 keeps the p90 at 73 min and still estimates 61 % of the waiting moments.
 */
export const ETA_MIN_STARTS = 10;

export interface MinuteBucket {
  /** Start of the minute, epoch ms. */
  minute: number;
  matchStarts: number;
}

/** The time ranges (epoch ms, [from, to)) the estimate for `now` reads: one per earlier day. */
export function etaWindows(now: number, historyStart: number | null): { from: number; to: number }[] {
  const windows: { from: number; to: number }[] = [];
  if (historyStart === null) return windows;
  for (let k = 1; k <= HISTORY_DAYS; k++) {
    const from = now - k * DAY_MS - ETA_HALF_WINDOW_MS;
    if (from < historyStart) break;
    windows.push({ from, to: from + 2 * ETA_HALF_WINDOW_MS });
  }
  return windows;
}

/**
 * The estimate for a queue of `count` at `now`. `buckets` are the minutes with match starts in
 * (at least) the windows of `etaWindows(now, historyStart)`; `historyStart` is the first minute
 * the history holds (null: none).
 */
export function estimateFill(
  buckets: readonly MinuteBucket[],
  historyStart: number | null,
  now: number,
  count: number,
): QueueEta {
  const days = etaWindows(now, historyStart).length;
  let starts = 0;
  for (const b of buckets) {
    if (b.matchStarts <= 0) continue;
    // In the window of day k: now − k·24 h − 30 min ≤ minute < now − k·24 h + 30 min.
    const ago = now - b.minute;
    const k = Math.round(ago / DAY_MS);
    if (
      k >= 1 &&
      k <= days &&
      ago <= k * DAY_MS + ETA_HALF_WINDOW_MS &&
      ago > k * DAY_MS - ETA_HALF_WINDOW_MS
    )
      starts += b.matchStarts;
  }
  if (days < ETA_MIN_DAYS || starts < ETA_MIN_STARTS) return { status: 'notEnoughData', days, count };
  const playersPerMinute = (PLAYERS_PER_MATCH * starts) / ((days * 2 * ETA_HALF_WINDOW_MS) / MINUTE_MS);
  const missing = Math.max(0, PLAYERS_PER_MATCH - count);
  return { status: 'estimate', minutes: Math.max(1, Math.round(missing / playersPerMinute)), days, count };
}
