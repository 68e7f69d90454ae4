import { boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Accounts: one row per player. Other modules keep their own tables and reference users.id. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').unique(),
    name: text('name'),
    passwordHash: text('password_hash'),
    role: text('role', { enum: ['ADMIN', 'USER'] })
      .notNull()
      .default('USER'),
    verified: boolean('verified').notNull().default(false),
    locale: text('locale').notNull().default('en'),
    elo: integer('elo').notNull().default(200),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('users_elo_idx').on(t.elo)],
);
