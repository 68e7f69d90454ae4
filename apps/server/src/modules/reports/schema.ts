import { bigint, index, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Player reports (community safety): one row per report, open until an admin resolves it with an
 * action (dismiss, warn, mute, ban), a note for admins, the message the reported player is told
 * (warn; the sanction's reason for mute and ban) and the sanction it created.
 */
export const reports = pgTable(
  'reports',
  {
    id: text('id').primaryKey(),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    reporterId: text('reporter_id').notNull(),
    reportedId: text('reported_id').notNull(),
    category: text('category', {
      enum: ['cheating', 'toxicity', 'no_show', 'griefing', 'other'],
    }).notNull(),
    text: text('text').notNull(),
    matchId: text('match_id'),
    status: text('status', { enum: ['open', 'resolved'] })
      .notNull()
      .default('open'),
    resolvedAt: bigint('resolved_at', { mode: 'number' }),
    resolvedBy: text('resolved_by'),
    action: text('action', { enum: ['dismiss', 'warn', 'mute', 'ban'] }),
    note: text('note'),
    message: text('message'),
    sanctionId: text('sanction_id'),
  },
  (t) => [
    index('reports_status_idx').on(t.status, t.createdAt),
    index('reports_reporter_idx').on(t.reporterId, t.createdAt),
    index('reports_reported_idx').on(t.reportedId, t.createdAt),
  ],
);
