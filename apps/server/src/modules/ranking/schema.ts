import { bigint, pgTable, text } from 'drizzle-orm/pg-core';

/** Seasons (docs/contract.md §2 season1): a named window; standings count finished matches inside it. */
export const seasons = pgTable('seasons', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  startsAt: bigint('starts_at', { mode: 'number' }).notNull(),
  endsAt: bigint('ends_at', { mode: 'number' }).notNull(),
});
