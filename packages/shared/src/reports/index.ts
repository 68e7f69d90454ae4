import { z } from 'zod';
import { idSchema } from '../ids';
import { pagedSchema } from '../list';
import { sanctionSchema } from '../moderation';

/**
 * Community safety: player reports. A player reports another (never themselves) with a category,
 * a free text and optionally a match both played in; at most `REPORTS_PER_HOUR` an hour. Admins
 * work through a queue (open first) with both players' context and resolve each report with an
 * action — dismiss, warn (a message to the reported player), mute or ban (a sanction of the
 * moderation module) — and a note. The reporter only learns whether action was taken.
 */
export const reportCategories = ['cheating', 'toxicity', 'no_show', 'griefing', 'other'] as const;
export type ReportCategory = (typeof reportCategories)[number];

export const reportActions = ['dismiss', 'warn', 'mute', 'ban'] as const;
export type ReportAction = (typeof reportActions)[number];

export const reportStatuses = ['open', 'resolved'] as const;
export type ReportStatus = (typeof reportStatuses)[number];

export const MAX_REPORT_TEXT_LENGTH = 1000;
/** Reports one player may file within a rolling hour. */
export const REPORTS_PER_HOUR = 5;
export const MAX_REPORT_NOTE_LENGTH = 500;

/** POST /api/reports. */
export const reportCreateSchema = z.object({
  reportedId: idSchema,
  category: z.enum(reportCategories),
  text: z.string().trim().max(MAX_REPORT_TEXT_LENGTH, 'INVALID_INPUT').default(''),
  /** A match both players played in (checked on the server). */
  matchId: idSchema.optional(),
});
export type ReportCreate = z.infer<typeof reportCreateSchema>;
export type ReportCreateInput = z.input<typeof reportCreateSchema>;

const noteSchema = z.string().trim().min(1, 'MISSING').max(MAX_REPORT_NOTE_LENGTH, 'INVALID_INPUT');

/**
 * POST /api/admin/reports/:id/resolve. `note` is for admins only; `message` is what the reported
 * player is told (required to warn, the sanction's reason for mute and ban); `minutes` is the
 * sanction's length (absent = permanent; ignored for dismiss and warn).
 */
export const reportResolveSchema = z
  .object({
    action: z.enum(reportActions),
    note: noteSchema,
    message: noteSchema.optional(),
    minutes: z
      .number()
      .int()
      .min(1)
      .max(10 * 365 * 24 * 60)
      .optional(),
  })
  .superRefine((body, issue) => {
    if (body.action !== 'dismiss' && body.message === undefined)
      issue.addIssue({ code: 'custom', path: ['message'], message: 'MISSING' });
  });
export type ReportResolve = z.infer<typeof reportResolveSchema>;

const personSchema = z.object({ _id: z.string(), name: z.string().nullable() });

/** A player's report as they see it: whom, when, and whether action was taken — nothing else. */
export const myReportSchema = z.object({
  _id: z.string(),
  createdAt: z.number(),
  category: z.enum(reportCategories),
  text: z.string(),
  matchId: z.string().nullable(),
  reported: personSchema,
  status: z.enum(reportStatuses),
  resolvedAt: z.number().nullable(),
  /** null while open. */
  outcome: z.enum(['action_taken', 'no_action']).nullable(),
});
export type MyReport = z.infer<typeof myReportSchema>;

/** A warning a player received after a report (the message only; never the reporter). */
export const reportWarningSchema = z.object({ _id: z.string(), at: z.number(), message: z.string() });
export type ReportWarning = z.infer<typeof reportWarningSchema>;

/** GET /api/reports/mine. */
export const myReportsSchema = z.object({
  docs: z.array(myReportSchema),
  warnings: z.array(reportWarningSchema),
});
export type MyReports = z.infer<typeof myReportsSchema>;

/** One report in a player's history (the admin's context). */
export const reportSummarySchema = z.object({
  _id: z.string(),
  createdAt: z.number(),
  category: z.enum(reportCategories),
  status: z.enum(reportStatuses),
  action: z.enum(reportActions).nullable(),
  /** The other player: the reported one in "by", the reporter in "against". */
  other: personSchema,
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** A finished match of a player, newest first. */
export const reportMatchSchema = z.object({
  matchId: z.string(),
  finishedAt: z.number().nullable(),
  map: z.string().nullable(),
  result: z.enum(['W', 'L', 'D']),
  /** The player's team's rounds first. */
  score: z.tuple([z.number().int(), z.number().int()]),
});
export type ReportMatch = z.infer<typeof reportMatchSchema>;

/** What an admin sees of one player of a report. */
export const reportPartySchema = personSchema.extend({
  avatar: z.string().nullable(),
  elo: z.number().int(),
  recentMatches: z.array(reportMatchSchema),
  /** Other reports against this player, newest first. */
  reportsAgainst: z.array(reportSummarySchema),
  /** Other reports this player filed, newest first. */
  reportsBy: z.array(reportSummarySchema),
  /** Bans and mutes, newest first (active and past). */
  sanctions: z.array(sanctionSchema),
});
export type ReportParty = z.infer<typeof reportPartySchema>;

export const reportResolutionSchema = z.object({
  action: z.enum(reportActions),
  note: z.string(),
  message: z.string().nullable(),
  sanctionId: z.string().nullable(),
  at: z.number(),
  by: personSchema,
});
export type ReportResolution = z.infer<typeof reportResolutionSchema>;

/** One report in the admins' queue. */
export const adminReportSchema = z.object({
  _id: z.string(),
  createdAt: z.number(),
  category: z.enum(reportCategories),
  text: z.string(),
  matchId: z.string().nullable(),
  status: z.enum(reportStatuses),
  reporter: reportPartySchema,
  reported: reportPartySchema,
  resolution: reportResolutionSchema.nullable(),
});
export type AdminReport = z.infer<typeof adminReportSchema>;
export const adminReportPageSchema = pagedSchema(adminReportSchema);
export type AdminReportPage = z.infer<typeof adminReportPageSchema>;

/** GET /api/admin/reports: open first (oldest first: first come, first served), then resolved newest first. */
export const adminReportQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(50).default(10),
  status: z.enum(reportStatuses).optional(),
});
export type AdminReportQuery = z.infer<typeof adminReportQuerySchema>;
export type AdminReportQueryInput = z.input<typeof adminReportQuerySchema>;
