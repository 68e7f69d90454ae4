import type { UserStatus } from '@openpug/shared';
import { jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';

/**
 * The live status object of each user (docs/contract.md §3), one row per user that ever had one. Kept in the
 * database so every instance agrees; a missing row means offlineStatus().
 */
export const userStatus = pgTable('user_status', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  status: jsonb('status').$type<UserStatus>().notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
