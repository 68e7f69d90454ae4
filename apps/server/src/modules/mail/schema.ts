import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

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

/**
 * E-mail waiting for the SMTP server (with SMTP_URL): stored with the action that sends it, sent
 * by the `mail.send` job and deleted once the server took it or it was given up. A crash or an
 * unreachable mail server delays a verification or reset mail; it never loses it.
 */
export const mailQueue = pgTable('mail_queue', {
  id: text('id').primaryKey(),
  /** What the mail is (verify, reset, …): for logs and metrics, which never name the recipient. */
  kind: text('kind').notNull(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html'),
  /** Sending attempts started so far. */
  attempts: integer('attempts').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
