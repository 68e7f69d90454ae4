/**
 * Pure rules of the report screens: the report form's body, the admin's resolution body, and the
 * text keys of a report's outcome.
 */
import {
  MAX_REPORT_TEXT_LENGTH,
  type MyReport,
  type ReportAction,
  type ReportCategory,
  type ReportCreateInput,
  type ReportResolve,
} from '@openpug/shared';
import { type DurationUnit, durationMinutes } from '../moderation';

export interface ReportForm {
  reportedId: string;
  category: ReportCategory | '';
  text: string;
  /** The match to link, if any (the match page offers its own). */
  matchId: string | null;
}

/** The POST /api/reports body, or null while the form is incomplete. */
export function reportBody(form: ReportForm): ReportCreateInput | null {
  if (!form.reportedId || !form.category) return null;
  const text = form.text.trim();
  if (text.length > MAX_REPORT_TEXT_LENGTH) return null;
  return {
    reportedId: form.reportedId,
    category: form.category,
    ...(text ? { text } : {}),
    ...(form.matchId ? { matchId: form.matchId } : {}),
  };
}

export interface ResolveForm {
  action: ReportAction;
  note: string;
  /** To the reported player: the warning, or the sanction's reason. */
  message: string;
  amount: string;
  unit: DurationUnit;
}

/** Whether the action tells the reported player something (warn, mute, ban). */
export const needsMessage = (action: ReportAction) => action !== 'dismiss';
/** Whether the action creates a sanction with a duration (mute, ban). */
export const needsDuration = (action: ReportAction) => action === 'mute' || action === 'ban';

/** The resolve body, or null while the form is incomplete. */
export function resolveBody(form: ResolveForm): ReportResolve | null {
  const note = form.note.trim();
  const message = form.message.trim();
  if (!note) return null;
  if (needsMessage(form.action) && !message) return null;
  const body: ReportResolve = { action: form.action, note };
  if (needsMessage(form.action)) body.message = message;
  if (needsDuration(form.action)) {
    const minutes = durationMinutes(form.amount, form.unit);
    if (minutes === null) return null;
    if (minutes !== undefined) body.minutes = minutes;
  }
  return body;
}

/** The i18n key of what the reporter is told about their report. */
export function outcomeKey(report: Pick<MyReport, 'status' | 'outcome'>): string {
  if (report.status === 'open' || report.outcome === null) return 'reports.mine.outcome.open';
  return `reports.mine.outcome.${report.outcome}`;
}
