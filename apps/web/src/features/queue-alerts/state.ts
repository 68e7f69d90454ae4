/**
 * The queue alert form (docs/contract.md §4 "Queue alerts"), pure: what the server answered →
 * what the form shows, and back to the PUT body. The time zone is the browser's, so quiet hours
 * follow the player when they travel and save again.
 */
import {
  QUEUE_ALERT_CHANNELS,
  QUEUE_ALERT_MAX,
  QUEUE_ALERT_MIN,
  type QueueAlert,
  type QueueAlertBody,
  type QueueAlertChannel,
} from '@openpug/shared';

export interface QueueAlertForm {
  /** null: off. */
  threshold: number | null;
  channels: QueueAlertChannel[];
  quiet: boolean;
  quietFrom: number;
  quietTo: number;
}

/** Quiet hours a player switching them on starts from: 22:00 to 08:00. */
export const DEFAULT_QUIET = { from: 22, to: 8 } as const;

export const THRESHOLDS = Array.from(
  { length: QUEUE_ALERT_MAX - QUEUE_ALERT_MIN + 1 },
  (_, i) => QUEUE_ALERT_MIN + i,
);
export const HOURS = Array.from({ length: 24 }, (_, h) => h);

export function formOf(alert: QueueAlert): QueueAlertForm {
  return {
    threshold: alert.threshold,
    // A channel unlinked since (e.g. Discord) is shown unticked; saving drops it.
    channels: alert.channels.filter((c) => alert.available[c]),
    quiet: alert.quietHours !== null,
    quietFrom: alert.quietHours?.from ?? DEFAULT_QUIET.from,
    quietTo: alert.quietHours?.to ?? DEFAULT_QUIET.to,
  };
}

export function bodyOf(form: QueueAlertForm, timeZone: string): QueueAlertBody {
  return {
    threshold: form.threshold,
    channels: QUEUE_ALERT_CHANNELS.filter((c) => form.channels.includes(c)),
    quietHours: form.quiet ? { from: form.quietFrom, to: form.quietTo } : null,
    timeZone,
  };
}

export function toggleChannel(form: QueueAlertForm, channel: QueueAlertChannel, on: boolean): QueueAlertForm {
  const rest = form.channels.filter((c) => c !== channel);
  return { ...form, channels: on ? [...rest, channel] : rest };
}

/** What the form refuses before sending (the server refuses the same, with the same key). */
export function formProblem(form: QueueAlertForm): 'QUIET_HOURS_INVALID' | null {
  return form.quiet && form.quietFrom === form.quietTo ? 'QUIET_HOURS_INVALID' : null;
}

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
