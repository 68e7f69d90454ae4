import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';

/**
 * Friend requests and friendships: one row per pair of users. A pending request has
 * accepted = false; a friendship is an accepted request. Declining, cancelling and removing a
 * friend delete the row. The unique index on the unordered pair makes "a request either way" and
 * "already friends" impossible to duplicate, even when both users send at the same moment.
 */
export const friendRequests = pgTable(
  'friend_requests',
  {
    id: text('id').primaryKey(),
    requesterId: text('requester_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recipientId: text('recipient_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accepted: boolean('accepted').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('friend_requests_pair_idx').on(
      sql`least(${t.requesterId}, ${t.recipientId})`,
      sql`greatest(${t.requesterId}, ${t.recipientId})`,
    ),
    index('friend_requests_requester_idx').on(t.requesterId),
    index('friend_requests_recipient_idx').on(t.recipientId),
  ],
);
