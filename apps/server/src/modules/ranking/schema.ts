import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** Seasons (docs/contract.md §2 season1): a named window; standings count finished matches inside it. */
export const seasons = pgTable('seasons', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  startsAt: bigint('starts_at', { mode: 'number' }).notNull(),
  endsAt: bigint('ends_at', { mode: 'number' }).notNull(),
});

/**
 * A season's admin-written details, one row per season and language (docs/contract.md §2
 * season1): title, description and prizes; '' where none was written.
 */
export const seasonTexts = pgTable(
  'season_texts',
  {
    seasonId: text('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    locale: text('locale').notNull(),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    prizes: text('prizes').notNull().default(''),
    updatedAt: bigint('updated_at', { mode: 'number' }).notNull(),
    updatedBy: text('updated_by'),
  },
  (t) => [primaryKey({ columns: [t.seasonId, t.locale] })],
);
