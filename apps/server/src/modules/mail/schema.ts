import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The dev outbox: every message the product would hand to an external service (e-mail without
 * SMTP_URL, voice-bot private messages of the simulated voice server, later WhatsApp, push,
 * Discord) is stored here and readable through the dev tools.
 */
export const outbox = pgTable(
  'outbox',
  {
    id: text('id').primaryKey(),
    channel: text('channel', { enum: ['email', 'voice', 'whatsapp', 'push', 'discord'] }).notNull(),
    /** Address in the channel's terms: e-mail address, voice identity id, phone number … */
    to: text('to').notNull(),
    /** The user the message is meant for, when known (so `?to=<userId>` finds it too). */
    userId: text('user_id'),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outbox_to_idx').on(t.to), index('outbox_user_idx').on(t.userId)],
);
