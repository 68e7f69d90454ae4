import { bigint, boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';

/**
 * Drops: the admin catalogue (`drops`; deleting an item only hides it, awarded copies stay in
 * their owners' showcase), the awarded copies (`drop_awards`) and the engine's one settings row.
 */
export const drops = pgTable('drops', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  image: text('image').notNull(),
  rarity: text('rarity', { enum: ['common', 'uncommon', 'rare', 'legendary'] }).notNull(),
  /** How many copies the engine may award. */
  amount: integer('amount').notNull(),
  unlocksBanner: text('unlocks_banner'),
  unlocksSound: text('unlocks_sound'),
  createdAt: bigint('created_at', { mode: 'number' }).notNull(),
  deletedAt: bigint('deleted_at', { mode: 'number' }),
});

export const dropAwards = pgTable(
  'drop_awards',
  {
    id: text('id').primaryKey(),
    dropId: text('drop_id')
      .notNull()
      .references(() => drops.id),
    ownerId: text('owner_id').notNull(),
    matchId: text('match_id'),
    createdAt: bigint('created_at', { mode: 'number' }).notNull(),
    seen: boolean('seen').notNull().default(false),
    redeemed: boolean('redeemed').notNull().default(false),
  },
  (t) => [index('drop_awards_owner_idx').on(t.ownerId), index('drop_awards_drop_idx').on(t.dropId)],
);

/** One row (`id = 'engine'`): on/off, interval, and the rolls without a drop since the last one. */
export const dropEngine = pgTable('drop_engine', {
  id: text('id').primaryKey(),
  enabled: boolean('enabled').notNull(),
  intervalMs: integer('interval_ms').notNull(),
  misses: integer('misses').notNull().default(0),
  nextRollAt: bigint('next_roll_at', { mode: 'number' }),
});
