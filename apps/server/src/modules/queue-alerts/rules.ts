/**
 * The arming rule of "notify me at N/10" as a transitions table (docs/architecture.md, "State
 * machines"), and the quiet-hours check; pure. One notification per rise: an armed alert fires
 * once when the public count reaches the threshold and stays fired, whatever the count does above
 * it, until the count falls below the threshold or the queue pops into a match (re-armed).
 * A rise the player cannot use (already queued or in a match) or should not hear about (quiet
 * hours) fires silently: that rise is spent, the next one notifies.
 */
import type { QuietHours } from '@openpug/shared';
import { defineMachine, type TransitionTable } from '../../lib/machine';

export const QUEUE_ALERT_STATES = ['armed', 'fired'] as const;
export type QueueAlertState = (typeof QUEUE_ALERT_STATES)[number];
export const QUEUE_ALERT_INITIAL = 'armed' satisfies QueueAlertState;

export const QUEUE_ALERT_EVENTS = [
  /** The count is at or above the threshold and the player may be told. */
  'reached',
  /** The count is at or above the threshold, but the player is queued, in a match or in quiet hours. */
  'reachedMuted',
  /** The count is below the threshold. */
  'fell',
  /** An accept phase became a match: the queue emptied by ten. */
  'popped',
] as const;
export type QueueAlertEvent = (typeof QUEUE_ALERT_EVENTS)[number];

export type QueueAlertEffect = 'notify';

export const QUEUE_ALERT_TRANSITIONS: TransitionTable<QueueAlertState, QueueAlertEvent, QueueAlertEffect> = {
  armed: {
    reached: { to: 'fired', effects: ['notify'] },
    reachedMuted: { to: 'fired', effects: [] },
    fell: { to: 'armed', effects: [] },
    popped: { to: 'armed', effects: [] },
  },
  fired: {
    reached: { to: 'fired', effects: [] },
    reachedMuted: { to: 'fired', effects: [] },
    fell: { to: 'armed', effects: [] },
    popped: { to: 'armed', effects: [] },
  },
};

// Every cell is listed, so the refusal is never used.
export const queueAlertMachine = defineMachine(QUEUE_ALERT_TRANSITIONS, 'ERROR');

/** The event a count means for one player's alert. */
export function countEvent(
  count: number,
  threshold: number,
  muted: { busy: boolean; quiet: boolean },
): QueueAlertEvent {
  if (count < threshold) return 'fell';
  return muted.busy || muted.quiet ? 'reachedMuted' : 'reached';
}

/** Hour of day (0–23) of `at` in time zone `tz`. */
export function hourIn(at: number, tz: string): number {
  const hour = new Intl.DateTimeFormat('en-US', { timeZone: tz, hour: 'numeric', hourCycle: 'h23' })
    .formatToParts(at)
    .find((p) => p.type === 'hour')?.value;
  return Number(hour);
}

/** Whether `at` falls in the quiet hours [from:00, to:00) in `tz`; `from > to` spans midnight. */
export function inQuietHours(at: number, quiet: QuietHours | null, tz: string): boolean {
  if (!quiet) return false;
  const h = hourIn(at, tz);
  return quiet.from < quiet.to ? h >= quiet.from && h < quiet.to : h >= quiet.from || h < quiet.to;
}
