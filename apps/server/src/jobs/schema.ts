import { sql } from 'drizzle-orm';
import { bigint, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Persisted deadlines (docs/architecture.md, "How a deadline (job) flows"): every countdown is
 * an absolute deadline stored in the database; a restart re-arms it; it fires at most once, on
 * one instance. `id` is `<kind>:<key>`, so scheduling a pending deadline again is a no-op. A job
 * that fires or is cancelled is deleted (scheduler.ts says why nothing needs its row). `firedAt`
 * and `claimedBy` are what the previous release marked done rows with; this release never sets
 * them, deletes such rows at start, and the next one drops the columns.
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
