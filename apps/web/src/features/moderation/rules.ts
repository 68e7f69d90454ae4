/**
 * Pure rules of the moderation screens: the running part of a sanction, its end as a text, and
 * the dialog's duration in minutes.
 */
import type { ActiveSanction, AuditAction, ModerationState } from '@openpug/shared';

/** The sanction while it runs (permanent, or ending after `now`), else null. */
export function running(sanction: ActiveSanction | null | undefined, now: number): ActiveSanction | null {
  if (!sanction) return null;
  return sanction.endsAt === null || sanction.endsAt > now ? sanction : null;
}

/** The running ban or mute of a moderation state. */
export const runningOf = (state: ModerationState | null, kind: 'ban' | 'mute', now: number) =>
  running(state?.[kind], now);

/** Date and time in the reader's language, e.g. "21 Nov 2026, 14:05" / "21.11.2026, 14:05". */
export function formatDateTime(ms: number, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

export const DURATION_UNITS = ['minutes', 'hours', 'days', 'permanent'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];
const UNIT_MINUTES: Record<Exclude<DurationUnit, 'permanent'>, number> = {
  minutes: 1,
  hours: 60,
  days: 1440,
};

/**
 * The dialog's amount and unit as the API's `minutes`: undefined for permanent, null when the
 * amount is not a whole number of at least 1.
 */
export function durationMinutes(amount: string, unit: DurationUnit): number | undefined | null {
  if (unit === 'permanent') return undefined;
  const n = Number(amount.trim());
  if (!Number.isInteger(n) || n < 1) return null;
  return n * UNIT_MINUTES[unit];
}

/** The i18n key of an audit action ("sanction.create" → "moderation.actions.sanction_create"). */
export const actionKey = (action: AuditAction) => `moderation.actions.${action.replace('.', '_')}`;
