/**
 * Durable e-mail (with SMTP_URL): `queueMail` stores the mail and books a `mail.send` job in one
 * transaction; the job sends it through the mailer after commit. The delivery policy is the
 * notifiers' (modules/notify/deliver.ts): NOTIFY_ATTEMPTS tries, the pause doubling from
 * NOTIFY_RETRY_MS, a permanent refusal (an SMTP 5xx) ends it at once, one log line per attempt
 * without the address, subject or text, and a mail given up counted in
 * `openpug_notify_failures_total{channel="email"}`.
 *
 * Unlike the notifiers' in-memory retries this survives a crash: each attempt books the next one
 * (MAIL_SEND_LEASE_MS ahead) before it starts sending, so a process that dies mid-send leaves a
 * pending job that any instance fires (at least once; a mail server that took the mail just before the crash may get
 * it twice, which beats a lost verification link).
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField } from '../../jobs';
import { countNotifyFailure, failureReason } from '../metrics';
import type { Email } from './mailer';
import { mailQueue } from './schema';

/** One attempt to send a queued mail (`mailId`: its `mail_queue` row). */
export const mailJob = defineJob({
  kind: 'mail.send',
  payload: z.object({ mailId: jobField.id }),
  handle: (ctx, tx, after, { mailId }) => sendAttempt(ctx, tx, after, mailId),
});

/**
 * While an attempt runs, the next one is booked this far ahead: only if the process dies mid-send
 * does it fire. Longer than any send can take (the SMTP time-outs in mailer.ts add up to 50 s),
 * so two attempts of one mail never run at once; a failed attempt moves it to its back-off.
 */
export const MAIL_SEND_LEASE_MS = 60_000;

/** Stores the mail and books its sending; resolves once both are committed. */
export async function queueMail(ctx: AppContext, kind: string, mail: Email): Promise<void> {
  const id = randomUUID();
  await inTransaction(ctx.db, async (tx, after) => {
    await tx
      .insert(mailQueue)
      .values({ id, kind, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? null });
    await ctx.jobs.schedule(tx, after, mailJob, { mailId: id }, ctx.clock.now());
  });
}

/** Pause before attempt `n + 1` after attempt `n` failed (the notifiers' doubling). */
const pauseAfter = (ctx: AppContext, attempt: number) => ctx.config.NOTIFY_RETRY_MS * 2 ** (attempt - 1);

async function forget(ctx: AppContext, id: string): Promise<void> {
  await inTransaction(ctx.db, async (tx, after) => {
    await tx.delete(mailQueue).where(eq(mailQueue.id, id));
    await ctx.jobs.cancel(tx, after, mailJob, { mailId: id });
  });
}

async function retryAt(ctx: AppContext, id: string, dueAt: number): Promise<void> {
  await inTransaction(ctx.db, (tx, after) => ctx.jobs.reschedule(tx, after, mailJob, { mailId: id }, dueAt));
}

/** The `mail.send` job: one attempt, with the next one booked first. */
async function sendAttempt(ctx: AppContext, tx: Db, after: After, mailId: string): Promise<void> {
  const log = ctx.log;
  const [mail] = await tx.select().from(mailQueue).where(eq(mailQueue.id, mailId));
  if (!mail) return; // sent or given up already
  const label = { kind: mail.kind, mail: mail.id };
  if (mail.attempts >= ctx.config.NOTIFY_ATTEMPTS) {
    // The process of the last attempt died before it could tell how it went: give up, once.
    await tx.delete(mailQueue).where(eq(mailQueue.id, mail.id));
    countNotifyFailure(ctx, 'email', 'error');
    log.warn({ ...label, attempts: mail.attempts }, 'e-mail given up');
    return;
  }
  const attempt = mail.attempts + 1;
  await tx.update(mailQueue).set({ attempts: attempt }).where(eq(mailQueue.id, mail.id));
  await ctx.jobs.reschedule(tx, after, mailJob, { mailId: mail.id }, ctx.clock.now() + MAIL_SEND_LEASE_MS);
  after.add(async () => {
    try {
      await ctx.mailer.send({
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
      });
    } catch (err) {
      const permanent = (err as { permanent?: unknown }).permanent === true;
      const last = permanent || attempt >= ctx.config.NOTIFY_ATTEMPTS;
      log.warn(
        { ...label, err: String(err), attempt, attempts: ctx.config.NOTIFY_ATTEMPTS, permanent },
        last ? 'e-mail delivery failed' : 'e-mail delivery failed, will retry',
      );
      if (last) {
        await forget(ctx, mail.id);
        countNotifyFailure(ctx, 'email', failureReason(err));
      } else {
        await retryAt(ctx, mail.id, ctx.clock.now() + pauseAfter(ctx, attempt));
      }
      return;
    }
    await forget(ctx, mail.id);
    log.info({ ...label, attempt }, 'e-mail sent');
  });
}
