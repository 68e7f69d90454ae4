/**
 * Player reports (community safety):
 *
 * - A player reports another (never themselves: CANNOT_REPORT_YOURSELF) with a category, a text
 *   and optionally a match; the match must be one both played in (REPORT_MATCH_NOT_SHARED). At
 *   most REPORTS_PER_HOUR reports a player within a rolling hour (429 TOO_MANY_REQUESTS); filing
 *   takes a per-reporter advisory lock so parallel requests cannot pass the limit together.
 * - Admins read the queue, open reports first (oldest first), then resolved ones (newest first),
 *   each with both players' context: recent finished matches with results, other reports against
 *   and by them, their sanctions.
 * - Resolving (once: REPORT_ALREADY_RESOLVED) takes an action — dismiss, warn (the message is
 *   kept for the reported player), mute or ban (a sanction through the moderation module, which
 *   audits it too) — and writes the audit entry `report.resolve` in the same transaction.
 * - The reporter sees only whether action was taken; the warned player sees the message only.
 */
import { randomUUID } from 'node:crypto';
import {
  type AdminReport,
  type AdminReportPage,
  type AdminReportQuery,
  MAX_REPORT_TEXT_LENGTH,
  type MyReport,
  type MyReports,
  productUserIdOf,
  REPORTS_PER_HOUR,
  type ReportCreate,
  type ReportMatch,
  type ReportParty,
  type ReportResolve,
  type ReportSummary,
} from '@openpug/shared';
import { and, asc, count, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { type Db, takeAdvisoryLocks } from '../../db/client';
import { inTransaction, logOf } from '../../jobs';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors';
import { findUserById, findUsersByIds } from '../accounts/service';
import { matchIdOfChatRoom } from '../chat/service';
import { lastFinishedMatchesOf, playedTogether } from '../matches';
import { recordAudit } from '../moderation';
import { insertSanction, sanctionsOf } from '../moderation/service';
import { reports } from './schema';

type ReportRow = typeof reports.$inferSelect;

const HOUR = 3_600_000;
const RECENT_MATCHES = 5;
const HISTORY = 10;

async function names(db: Db, ids: Iterable<string>): Promise<Map<string, string | null>> {
  return new Map((await findUsersByIds(db, [...new Set(ids)])).map((u) => [u.id, u.name]));
}

/** What the reporter wrote, as both the reporter's and the admins' views show it. */
const reportBase = (row: ReportRow) => ({
  _id: row.id,
  createdAt: row.createdAt,
  category: row.category,
  text: row.text,
  matchId: row.matchId,
});

function toMine(row: ReportRow, reportedName: string | null): MyReport {
  return {
    ...reportBase(row),
    reported: { _id: row.reportedId, name: reportedName },
    status: row.status,
    resolvedAt: row.resolvedAt,
    outcome: row.status === 'open' ? null : row.action === 'dismiss' ? 'no_action' : 'action_taken',
  };
}

export async function createReport(
  ctx: AppContext,
  reporterId: string,
  input: ReportCreate,
): Promise<MyReport> {
  if (input.reportedId === reporterId) throw badRequest('CANNOT_REPORT_YOURSELF');
  const reported = await findUserById(ctx.db, input.reportedId);
  if (!reported) throw notFound('USER_DOES_NOT_EXIST');
  if (input.matchId && !(await playedTogether(ctx.db, input.matchId, reporterId, input.reportedId)))
    throw badRequest('REPORT_MATCH_NOT_SHARED');
  const row = await inTransaction(
    ctx.db,
    async (tx) => {
      await takeAdvisoryLocks(
        ctx.database,
        tx,
        sql`SELECT pg_advisory_xact_lock(hashtext(${`report:${reporterId}`}))`,
      );
      const now = ctx.clock.now();
      const [{ recent }] = await tx
        .select({ recent: count() })
        .from(reports)
        .where(and(eq(reports.reporterId, reporterId), gt(reports.createdAt, now - HOUR)));
      if (Number(recent) >= REPORTS_PER_HOUR) throw new AppError(429, 'TOO_MANY_REQUESTS');
      const [inserted] = await tx
        .insert(reports)
        .values({
          id: randomUUID(),
          createdAt: now,
          reporterId,
          reportedId: input.reportedId,
          category: input.category,
          text: input.text,
          matchId: input.matchId ?? null,
          status: 'open',
        })
        .returning();
      return inserted;
    },
    logOf(ctx),
  );
  return toMine(row, reported.name);
}

/** A chat message reported through the Matrix API (embedded homeserver's /report/{eventId}). */
export interface ChatMessageReport {
  reporterMatrixId: string;
  senderMatrixId: string;
  roomId: string;
  type: string;
  content: Record<string, unknown>;
  reason: string | undefined;
}

/**
 * Files a chat message report in the admin reports queue as a `toxicity` report of the message's
 * sender by the reporter, with the message and the reason as its text and, in a match's room, the
 * match. Only reports between two product players are filed: a report of the bot's or one's own
 * message is accepted by the Matrix API (it answers 200 whatever the server does with a report)
 * but leads nowhere. The reporter's hourly limit applies: 429 TOO_MANY_REQUESTS.
 * Returns whether a report was filed.
 */
export async function fileChatMessageReport(ctx: AppContext, r: ChatMessageReport): Promise<boolean> {
  const reporterId = productUserIdOf(r.reporterMatrixId);
  const reportedId = productUserIdOf(r.senderMatrixId);
  if (!reporterId || !reportedId || reporterId === reportedId) return false;
  if (!(await findUserById(ctx.db, reporterId)) || !(await findUserById(ctx.db, reportedId))) return false;
  const roomMatchId = await matchIdOfChatRoom(ctx.db, r.roomId);
  const matchId =
    roomMatchId && (await playedTogether(ctx.db, roomMatchId, reporterId, reportedId))
      ? roomMatchId
      : undefined;
  const body = typeof r.content.body === 'string' ? r.content.body : `[${r.type}]`;
  const text = [`Chat message: "${body}"`, r.reason ? `Reason: ${r.reason}` : '']
    .filter(Boolean)
    .join('\n')
    .slice(0, MAX_REPORT_TEXT_LENGTH);
  await createReport(ctx, reporterId, { reportedId, category: 'toxicity', text, matchId });
  return true;
}

/** The caller's reports (newest first) and the warnings they received. */
export async function myReports(ctx: AppContext, userId: string): Promise<MyReports> {
  const rows = await ctx.db
    .select()
    .from(reports)
    .where(eq(reports.reporterId, userId))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(50);
  const warned = await ctx.db
    .select({ id: reports.id, at: reports.resolvedAt, message: reports.message })
    .from(reports)
    .where(and(eq(reports.reportedId, userId), eq(reports.action, 'warn')))
    .orderBy(desc(reports.resolvedAt))
    .limit(20);
  const named = await names(
    ctx.db,
    rows.map((r) => r.reportedId),
  );
  return {
    docs: rows.map((r) => toMine(r, named.get(r.reportedId) ?? null)),
    warnings: warned.map((w) => ({ _id: w.id, at: w.at ?? 0, message: w.message ?? '' })),
  };
}

async function recentMatches(db: Db, userId: string): Promise<ReportMatch[]> {
  const rows = await lastFinishedMatchesOf(db, userId, RECENT_MATCHES);
  return rows.map((r) => {
    const mine = r.team === 'teamTwo' ? r.scoreTwo : r.scoreOne;
    const theirs = r.team === 'teamTwo' ? r.scoreOne : r.scoreTwo;
    const result = r.winner === null || r.winner === 'draw' ? 'D' : r.winner === r.team ? 'W' : 'L';
    return { matchId: r.matchId, finishedAt: r.finishedAt, map: r.map, result, score: [mine, theirs] };
  });
}

async function historyOf(
  db: Db,
  userId: string,
  side: 'reporterId' | 'reportedId',
  exceptId: string,
): Promise<ReportSummary[]> {
  const rows = await db
    .select()
    .from(reports)
    .where(and(eq(reports[side], userId), ne(reports.id, exceptId)))
    .orderBy(desc(reports.createdAt), desc(reports.id))
    .limit(HISTORY);
  const otherOf = (r: ReportRow) => (side === 'reporterId' ? r.reportedId : r.reporterId);
  const named = await names(db, rows.map(otherOf));
  return rows.map((r) => ({
    _id: r.id,
    createdAt: r.createdAt,
    category: r.category,
    status: r.status,
    action: r.action,
    other: { _id: otherOf(r), name: named.get(otherOf(r)) ?? null },
  }));
}

/** What an admin sees of one player of a report. */
async function partyOf(ctx: AppContext, userId: string, reportId: string): Promise<ReportParty> {
  const user = await findUserById(ctx.db, userId);
  return {
    _id: userId,
    name: user?.name ?? null,
    avatar: user?.avatar ?? null,
    elo: user?.elo ?? 0,
    recentMatches: await recentMatches(ctx.db, userId),
    reportsAgainst: await historyOf(ctx.db, userId, 'reportedId', reportId),
    reportsBy: await historyOf(ctx.db, userId, 'reporterId', reportId),
    sanctions: user ? (await sanctionsOf(ctx, userId)).docs : [],
  };
}

async function toAdmin(ctx: AppContext, row: ReportRow): Promise<AdminReport> {
  const by = row.resolvedBy ? ((await names(ctx.db, [row.resolvedBy])).get(row.resolvedBy) ?? null) : null;
  return {
    ...reportBase(row),
    status: row.status,
    reporter: await partyOf(ctx, row.reporterId, row.id),
    reported: await partyOf(ctx, row.reportedId, row.id),
    resolution:
      row.status === 'resolved' && row.action && row.resolvedAt !== null && row.resolvedBy
        ? {
            action: row.action,
            note: row.note ?? '',
            message: row.message,
            sanctionId: row.sanctionId,
            at: row.resolvedAt,
            by: { _id: row.resolvedBy, name: by },
          }
        : null,
  };
}

/** The admins' queue: open reports first (oldest first), then resolved ones (newest first). */
export async function listReports(ctx: AppContext, q: AdminReportQuery): Promise<AdminReportPage> {
  const where = q.status ? eq(reports.status, q.status) : undefined;
  const rows = await ctx.db
    .select()
    .from(reports)
    .where(where)
    .orderBy(
      asc(reports.status),
      sql`CASE WHEN ${reports.status} = 'open' THEN ${reports.createdAt} ELSE -${reports.createdAt} END`,
      asc(reports.id),
    )
    .limit(q.limit)
    .offset((q.page - 1) * q.limit);
  const [{ total }] = await ctx.db.select({ total: count() }).from(reports).where(where);
  const docs: AdminReport[] = [];
  for (const row of rows) docs.push(await toAdmin(ctx, row));
  return { docs, totalDocs: Number(total) };
}

/** An admin resolves an open report; mute and ban create a sanction in the same transaction. */
export async function resolveReport(
  ctx: AppContext,
  adminId: string,
  reportId: string,
  body: ReportResolve,
): Promise<AdminReport> {
  const updated = await inTransaction(
    ctx.db,
    async (tx, after) => {
      const [row] = await tx.select().from(reports).where(eq(reports.id, reportId)).for('update');
      if (!row) throw notFound();
      if (row.status !== 'open') throw conflict('REPORT_ALREADY_RESOLVED');
      const sanction =
        body.action === 'mute' || body.action === 'ban'
          ? await insertSanction(ctx, tx, after, adminId, row.reportedId, {
              kind: body.action,
              minutes: body.minutes,
              reason: body.message ?? body.note,
            })
          : null;
      const [done] = await tx
        .update(reports)
        .set({
          status: 'resolved',
          resolvedAt: ctx.clock.now(),
          resolvedBy: adminId,
          action: body.action,
          note: body.note,
          message: body.action === 'dismiss' ? null : (body.message ?? null),
          sanctionId: sanction?.id ?? null,
        })
        .where(eq(reports.id, reportId))
        .returning();
      const view = (r: ReportRow) => ({
        id: r.id,
        reporterId: r.reporterId,
        category: r.category,
        matchId: r.matchId,
        status: r.status,
        action: r.action,
        message: r.message,
        sanctionId: r.sanctionId,
      });
      await recordAudit(ctx, tx, {
        actorId: adminId,
        action: 'report.resolve',
        targetType: 'user',
        targetId: row.reportedId,
        reason: body.note,
        before: { report: view(row) },
        after: { report: view(done) },
      });
      return done;
    },
    logOf(ctx),
  );
  return toAdmin(ctx, updated);
}
