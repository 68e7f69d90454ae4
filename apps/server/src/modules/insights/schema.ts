import { bigint, integer, pgTable } from 'drizzle-orm/pg-core';

/**
 * The queue's history, one row per minute in which something happened (docs/contract.md §4
 * "Queue insights"): the highest public queue count seen in that minute and how many matches
 * started in it. Minutes without a change have no row. Rows older than HISTORY_RETENTION_MS
 * (8 weeks) are deleted as new ones are written.
 */
export const queueMinutes = pgTable('queue_minutes', {
  /** Start of the minute, epoch ms (a multiple of 60 000). */
  minute: bigint('minute', { mode: 'number' }).primaryKey(),
  peak: integer('peak').notNull().default(0),
  matchStarts: integer('match_starts').notNull().default(0),
});
