/**
 * WhatsApp delivery state: the message ids the Cloud API returned (with user and kind), the
 * statuses the webhook reports for them, and the pause of a number WhatsApp could not reach.
 *
 * Meta answers a send with 200 and a message id even when it will refuse the message; the
 * refusal arrives later on the `messages` webhook as `statuses[].status = 'failed'` with
 * `errors[].code` (developers.facebook.com/documentation/business-messaging/whatsapp/support/
 * error-codes — "Receiving Errors: Synchronous and Asynchronous"), e.g. 131047 "Re-engagement
 * message" (more than 24 hours since the user last wrote) or 131026 "Message undeliverable".
 */
import type { WhatsAppStatus } from '@openpug/shared';
import { and, eq, inArray, lte } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { findUsersByIdsSoon } from '../accounts/service';
import { deliverInBackground, inBackground, localeOfRow } from '../notify';
import {
  createWhatsAppSender,
  type WhatsAppKind,
  type WhatsAppMessage,
  type WhatsAppSender,
} from './provider';
import { whatsAppFailures, whatsAppMessages } from './schema';

/** The WhatsApp module's per-app state (`ctx.state.whatsapp`). */
export interface WhatsAppModuleState {
  /** The Cloud API or the dev outbox, created on first use; tests swap it. */
  sender?: WhatsAppSender;
}
export function whatsAppSender(ctx: AppContext): WhatsAppSender {
  ctx.state.whatsapp.sender ??= createWhatsAppSender(ctx.config, ctx.db, () => ctx.clock.now());
  return ctx.state.whatsapp.sender;
}
/** Tests swap the sender. */
export function setWhatsAppSender(ctx: AppContext, sender: WhatsAppSender): void {
  ctx.state.whatsapp.sender = sender;
}

/** Order of the delivery statuses: a late `sent` never overwrites `read`; `failed` is final. */
const RANK: Record<string, number> = { accepted: 0, sent: 1, delivered: 2, read: 3, failed: 4 };
export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * Failed statuses caused on openpug's side, not by the number: template and parameter errors
 * (132xxx, 131008, 131009, 100), authorisation (0, 3, 10, 190, 200–299), throttling (4, 80007,
 * 130429, 131048, 131056), the business account (131031 locked, 131042 payment, 131057
 * maintenance) and Meta's own trouble (1, 2, 131000, 131016). Every other failure pauses the number.
 */
export function failurePausesNumber(code: number | null): boolean {
  if (code === null) return true;
  if (code >= 132000 && code < 133000) return false;
  if (code >= 200 && code < 300) return false;
  return ![
    0, 1, 2, 3, 4, 10, 100, 190, 80007, 130429, 131000, 131008, 131009, 131016, 131031, 131042, 131048,
    131056, 131057,
  ].includes(code);
}

/** Sends one message now and remembers its id for the status webhook. Returns the id (null: outbox). */
export async function sendWhatsApp(ctx: AppContext, msg: WhatsAppMessage): Promise<string | null> {
  const id = await whatsAppSender(ctx).send(msg);
  if (id && msg.userId) {
    const at = new Date(ctx.clock.now());
    await ctx.db
      .insert(whatsAppMessages)
      .values({ id, userId: msg.userId, kind: msg.kind, phone: msg.to, createdAt: at, updatedAt: at })
      .onConflictDoNothing();
  }
  return id;
}

export interface StatusUpdate {
  id: string;
  status: DeliveryStatus;
  errorCode: number | null;
}

/**
 * Applies webhook statuses. Unknown message ids (another app on the same number, a message sent
 * before the number was linked again) are skipped. Returns the user ids newly paused.
 */
export async function recordStatuses(ctx: AppContext, updates: readonly StatusUpdate[]): Promise<string[]> {
  const paused: string[] = [];
  for (const u of updates) {
    const [row] = await ctx.db.select().from(whatsAppMessages).where(eq(whatsAppMessages.id, u.id)).limit(1);
    if (!row || (RANK[u.status] ?? 0) <= (RANK[row.status] ?? 0)) continue;
    const at = new Date(ctx.clock.now());
    await ctx.db
      .update(whatsAppMessages)
      .set({ status: u.status, errorCode: u.errorCode, updatedAt: at })
      .where(eq(whatsAppMessages.id, u.id));
    if (u.status !== 'failed' || !failurePausesNumber(u.errorCode)) continue;
    const values = {
      userId: row.userId,
      phone: row.phone,
      errorCode: u.errorCode,
      messageId: row.id,
      failedAt: at,
    };
    await ctx.db
      .insert(whatsAppFailures)
      .values(values)
      .onConflictDoUpdate({ target: whatsAppFailures.userId, set: values });
    paused.push(row.userId);
  }
  return paused;
}

/** The users of `userIds` whose number is paused. */
export async function pausedUserIds(ctx: AppContext, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await ctx.db
    .select({ userId: whatsAppFailures.userId })
    .from(whatsAppFailures)
    .where(inArray(whatsAppFailures.userId, [...userIds]));
  return new Set(rows.map((r) => r.userId));
}

/**
 * The number was linked again (or unlinked): the pause ends, and statuses of messages sent before
 * now no longer count.
 */
export async function clearWhatsAppDelivery(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.delete(whatsAppFailures).where(eq(whatsAppFailures.userId, userId));
  await ctx.db
    .delete(whatsAppMessages)
    .where(
      and(eq(whatsAppMessages.userId, userId), lte(whatsAppMessages.createdAt, new Date(ctx.clock.now()))),
    );
}

export async function whatsAppStatusOf(
  ctx: AppContext,
  user: { id: string; phone: string | null; whatsAppEnabled: boolean },
): Promise<WhatsAppStatus> {
  const [failure] = await ctx.db
    .select()
    .from(whatsAppFailures)
    .where(eq(whatsAppFailures.userId, user.id))
    .limit(1);
  return {
    linked: Boolean(user.phone),
    enabled: user.whatsAppEnabled,
    paused: Boolean(failure),
    failure: failure ? { errorCode: failure.errorCode, failedAt: failure.failedAt.getTime() } : null,
  };
}

/**
 * Sends one template to every user of `userIds` with a linked number, WhatsApp enabled and not
 * paused (background, retried per notify/deliver.ts).
 */
export function notifyWhatsApp(
  ctx: AppContext,
  userIds: readonly string[],
  kind: Exclude<WhatsAppKind, 'code'>,
  content: (locale: 'en' | 'de') => { params: string[]; text: string },
) {
  inBackground(ctx, 'whatsapp fan-out', async () => {
    const rows = (await findUsersByIdsSoon(ctx, userIds)).filter(
      (r): r is typeof r & { phone: string } => r.whatsAppEnabled && !!r.phone,
    );
    const paused = await pausedUserIds(
      ctx,
      rows.map((r) => r.id),
    );
    for (const row of rows) {
      if (paused.has(row.id)) continue;
      const to = row.phone;
      const locale = localeOfRow(row.locale);
      const { params, text } = content(locale);
      deliverInBackground(ctx, `whatsapp ${row.id}`, async () => {
        await sendWhatsApp(ctx, { to, userId: row.id, kind, locale, params, text });
      });
    }
  });
}
