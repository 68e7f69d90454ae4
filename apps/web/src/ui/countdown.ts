/** Countdown arithmetic shared by every timer (docs/contract.md §2: mm:ss, highlighted in the last 10 s, 1 s tick). */
import { TIMER_HIGHLIGHT_SECONDS } from '@openpug/shared';

/** Whole seconds from `now` to `deadline` (never negative; rounds up so 0.2 s left still shows 0:01). */
export function secondsLeft(deadline: number, now: number): number {
  return Math.max(0, Math.ceil((deadline - now) / 1000));
}

/** `mm:ss` of a number of seconds. */
export function formatMmSs(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** `h:mm:ss` from an hour on, `mm:ss` below (cooldowns run from minutes to days). */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 3600) return formatMmSs(s);
  const h = Math.floor(s / 3600);
  return `${h}:${formatMmSs(s % 3600)}`;
}

/** The last seconds (TIMER_HIGHLIGHT_SECONDS) are shown in red. */
export const isUrgent = (seconds: number): boolean => seconds <= TIMER_HIGHLIGHT_SECONDS;
