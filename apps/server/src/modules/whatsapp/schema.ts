import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema';

/** A WhatsApp number waiting for its 4-digit code (one per user; only an HMAC of the code is kept). */
export const whatsAppCodes = pgTable('whatsapp_codes', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  phone: text('phone').notNull(),
  codeHash: text('code_hash').notNull(),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * Every message the Cloud API accepted (its `wamid`), whom it was for and what it said, with the
 * latest status the webhook reported: Meta answers 200 even for a message it will refuse, and the
 * refusal arrives later as a `failed` status.
 */
export const whatsAppMessages = pgTable(
  'whatsapp_messages',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** game_found | matched | code | text */
    kind: text('kind').notNull(),
    phone: text('phone').notNull(),
    /** accepted (the send call) → sent → delivered → read, or failed. */
    status: text('status').notNull().default('accepted'),
    errorCode: integer('error_code'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('whatsapp_messages_user_idx').on(t.userId)],
);

/** A number WhatsApp could not reach: messages to this user are paused until the number is linked again. */
export const whatsAppFailures = pgTable('whatsapp_failures', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  phone: text('phone').notNull(),
  errorCode: integer('error_code'),
  messageId: text('message_id').notNull(),
  failedAt: timestamp('failed_at', { withTimezone: true }).notNull(),
});
