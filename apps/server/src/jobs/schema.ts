import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Persisted deadlines (docs/architecture.md, "How a deadline (job) flows"): every countdown is
 * an absolute deadline stored in the database; a restart re-arms it; it fires at most once, on
 * one instance. `id` is `<kind>:<key>`, so scheduling the same deadline twice is a no-op. A job
 * is done once `firedAt` is set — by the instance that claimed it (`claimedBy`) or by a
 * cancellation ('cancelled'). Done rows are pruned a day later (scheduler.ts).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    key: text('key').notNull(),
    dueAt: bigint('due_at', { mode: 'number' }).notNull(),
    firedAt: bigint('fired_at', { mode: 'number' }),
    claimedBy: text('claimed_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('jobs_pending_idx').on(t.dueAt).where(sql`fired_at IS NULL`)],
);
export type JobRow = typeof jobs.$inferSelect;
