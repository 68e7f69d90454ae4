/**
 * Mail module: outgoing e-mail and the dev outbox.
 *
 * - With SMTP_URL, e-mail goes out through nodemailer (e.g. `smtp://user:pass@mail.example:587`,
 *   `smtps://…:465`).
 * - Without it, every e-mail is stored in the dev outbox (table `outbox`); read it at `/dev/outbox`.
 *   Neither way logs a mail's text, address, link or code (they hold verification and reset links).
 * - Other channels (voice-bot messages of the simulated voice server, later WhatsApp, push,
 *   Discord) store their messages with `storeOutboxMessage`; the dev tools read them
 *   (`GET /api/dev/outbox`, `/dev/outbox`).
 */
import { randomUUID } from 'node:crypto';
import type { OutboxChannel, OutboxMessage } from '@openpug/shared';
import { desc, eq, or } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { outbox } from './schema';

export interface Email {
  to: string;
  /** The user the mail is for, when known (lets the outbox find it by user id). */
  userId?: string | null;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /** Sends (or stores) one e-mail. Rejects when SMTP refuses it. */
  send(mail: Email): Promise<void>;
  close(): Promise<void>;
}

interface Log {
  info(obj: object, msg: string): void;
}

// Ids sort like their creation order within this process (time, then a counter), so messages
// stored in the same millisecond still list newest first.
let outboxSeq = 0;
const outboxId = (now: number) =>
  `${String(now).padStart(15, '0')}-${String(outboxSeq++ % 1e9).padStart(9, '0')}-${randomUUID().slice(0, 8)}`;

export async function storeOutboxMessage(
  db: Db,
  msg: { channel: OutboxChannel; to: string; userId?: string | null; subject?: string; text: string },
  now: number = Date.now(),
): Promise<void> {
  await db.insert(outbox).values({
    id: outboxId(now),
    channel: msg.channel,
    to: msg.to,
    userId: msg.userId ?? null,
    subject: msg.subject ?? '',
    text: msg.text,
    createdAt: new Date(now),
  });
}

/** Messages to an address or for a user id (or all when `to` is unset), newest first. */
export async function listOutbox(db: Db, to?: string, limit = 200): Promise<OutboxMessage[]> {
  const rows = await db
    .select()
    .from(outbox)
    .where(to ? or(eq(outbox.to, to), eq(outbox.userId, to)) : undefined)
    .orderBy(desc(outbox.createdAt), desc(outbox.id))
    .limit(limit);
  return rows.map((r) => ({
    _id: r.id,
    channel: r.channel,
    to: r.to,
    subject: r.subject,
    text: r.text,
    createdAt: r.createdAt.getTime(),
  }));
}

/**
 * Bounded time-outs (nodemailer's own allow 10 minutes of silence), so a send ends within 50 s,
 * inside the lease of a queued mail's next attempt (queue.ts, MAIL_SEND_LEASE_MS). They go into
 * the URL's query, where nodemailer reads options (an object beside a URL would be dropped);
 * one the admin put there already wins.
 */
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };
export function withSmtpTimeouts(url: string): string {
  const extra = Object.entries(SMTP_TIMEOUTS)
    .filter(([key]) => !new RegExp(`[?&]${key}=`).test(url))
    .map(([key, value]) => `${key}=${value}`);
  return extra.length === 0 ? url : `${url}${url.includes('?') ? '&' : '?'}${extra.join('&')}`;
}

export function createMailer(config: Config, db: Db, log: Log, now: () => number = Date.now): Mailer {
  if (config.SMTP_URL) {
    const transport: Transporter = nodemailer.createTransport(withSmtpTimeouts(config.SMTP_URL));
    return {
      kind: 'smtp',
      async send(mail) {
        try {
          await transport.sendMail({
            from: config.MAIL_FROM,
            to: mail.to,
            subject: mail.subject,
            text: mail.text,
            html: mail.html,
          });
        } catch (err) {
          // nodemailer's errors carry the envelope and the server's answer, which name the
          // recipient: whoever logs this error gets the failure's kind only.
          const e = err as { code?: unknown; responseCode?: unknown; command?: unknown };
          const kind = [e.code, e.responseCode, e.command]
            .filter((v) => v !== undefined && v !== '')
            .join(' ');
          // A 5xx answer (no such mailbox, refused) is final: no retry helps (RFC 5321 §4.2.1).
          const refused = new Error(`SMTP delivery failed (${kind || 'error'})`) as Error & {
            permanent?: boolean;
          };
          refused.permanent = typeof e.responseCode === 'number' && e.responseCode >= 500;
          throw refused;
        }
      },
      async close() {
        transport.close();
      },
    };
  }
  return {
    kind: 'outbox',
    async send(mail) {
      await storeOutboxMessage(
        db,
        { channel: 'email', to: mail.to, userId: mail.userId, subject: mail.subject, text: mail.text },
        now(),
      );
      log.info({ subject: mail.subject }, 'dev outbox: e-mail stored (read it at /dev/outbox)');
    },
    async close() {},
  };
}
