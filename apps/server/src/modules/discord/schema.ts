import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';

/** One-time Discord link codes (SHA-256 of the code; used once, short-lived). */
export const discordLinkCodes = pgTable(
  'discord_link_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('discord_link_codes_user_idx').on(t.userId)],
);
