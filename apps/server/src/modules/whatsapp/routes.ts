/**
 * WhatsApp (issue 8): link a number with a 4-digit code sent over WhatsApp, toggle notifications,
 * unlink. Listens to the queue: 'game found' when an accept phase starts and the result when the
 * match is set, to every player with WhatsApp enabled, in their language, in the background.
 *
 *   POST  /api/profile/linkWhatsApp {phone}          → {success}   (code valid 10 minutes)
 *   POST  /api/profile/whatsAppCode {phone, code}    → {success}   (wrong/expired/used → false)
 *   POST  /api/profile/unlinkWhatsApp                → {success}
 *   PATCH /api/profile/whatsAppEnabled [{whatsAppEnabled}] → {whatsAppEnabled} (409 WHATSAPP_NOT_LINKED)
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  linkWhatsAppBodySchema,
  successResponseSchema,
  WHATSAPP_CODE_LENGTH,
  whatsAppCodeBodySchema,
  whatsAppEnabledBodySchema,
  whatsAppEnabledResponseSchema,
} from '@openpug/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { AppError, conflict } from '../../lib/errors';
import { findUsersByIds, updateUser } from '../accounts/service';
import { currentUser } from '../accounts/session';
import { requireAuth } from '../auth/guard';
import { deliverInBackground, inBackground, localeOfRow, notifyTexts, setNotifyLog } from '../notify/deliver';
import { createWhatsAppSender, type WhatsAppSender } from './provider';
import { whatsAppCodes } from './schema';

export const WHATSAPP_CODE_TTL_MS = 10 * 60_000;
export const WHATSAPP_CODE_MAX_ATTEMPTS = 5;

const senders = new WeakMap<AppContext, WhatsAppSender>();
export function whatsAppSender(ctx: AppContext): WhatsAppSender {
  let s = senders.get(ctx);
  if (!s) {
    s = createWhatsAppSender(ctx.config, ctx.db, () => ctx.clock.now());
    senders.set(ctx, s);
  }
  return s;
}
/** Tests swap the sender. */
export function setWhatsAppSender(ctx: AppContext, sender: WhatsAppSender): void {
  senders.set(ctx, sender);
}

/** Sends one text to every user of `userIds` with a linked number and WhatsApp enabled (background). */
export function notifyWhatsApp(
  ctx: AppContext,
  userIds: readonly string[],
  text: (locale: 'en' | 'de') => string,
) {
  inBackground(ctx, 'whatsapp fan-out', async () => {
    const rows = await findUsersByIds(ctx.db, userIds);
    for (const row of rows) {
      if (!row.whatsAppEnabled || !row.phone) continue;
      const to = row.phone;
      const body = text(localeOfRow(row.locale));
      deliverInBackground(ctx, `whatsapp ${row.id}`, () =>
        whatsAppSender(ctx).send({ to, userId: row.id, text: body }),
      );
    }
  });
}

export function whatsAppModule(ctx: AppContext): FastifyPluginAsyncZod {
  const auth = { preValidation: requireAuth } as const;
  const codeHash = (userId: string, phone: string, code: string) =>
    createHmac('sha256', ctx.tokens.secret).update(`whatsapp:${userId}:${phone}:${code}`).digest('hex');

  ctx.bus.on('queue.phaseStarted', ({ playerIds, deadline }) => {
    const seconds = Math.max(1, Math.round((deadline - ctx.clock.now()) / 1000));
    notifyWhatsApp(ctx, playerIds, (l) => notifyTexts(l).gameFound(seconds));
  });
  ctx.bus.on('queue.matched', ({ playerIds }) => {
    notifyWhatsApp(ctx, playerIds, (l) => notifyTexts(l).matched);
  });

  return async (app) => {
    setNotifyLog(ctx, app.log);

    app.post(
      '/api/profile/linkWhatsApp',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Sends a 4-digit code to this WhatsApp number (valid 10 minutes)',
          body: linkWhatsAppBodySchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        const { phone } = request.body;
        const code = String(randomInt(0, 10 ** WHATSAPP_CODE_LENGTH)).padStart(WHATSAPP_CODE_LENGTH, '0');
        try {
          await whatsAppSender(ctx).send({
            to: phone,
            userId: row.id,
            text: notifyTexts(localeOfRow(row.locale)).whatsAppCode(code),
          });
        } catch (err) {
          request.log.error({ err }, 'WhatsApp code message failed');
          throw new AppError(503, 'SERVER_TIMEOUT_CONNECTION_ERROR');
        }
        const values = {
          userId: row.id,
          phone,
          codeHash: codeHash(row.id, phone, code),
          attempts: 0,
          expiresAt: new Date(ctx.clock.now() + WHATSAPP_CODE_TTL_MS),
        };
        await ctx.db
          .insert(whatsAppCodes)
          .values(values)
          .onConflictDoUpdate({ target: whatsAppCodes.userId, set: values });
        return { success: true };
      },
    );

    app.post(
      '/api/profile/whatsAppCode',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Checks the WhatsApp code; on success the number is linked and notifications are on',
          body: whatsAppCodeBodySchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        const { phone, code } = request.body;
        const [pending] = await ctx.db.select().from(whatsAppCodes).where(eq(whatsAppCodes.userId, row.id));
        if (!pending || pending.phone !== phone) return { success: false };
        if (
          pending.expiresAt.getTime() <= ctx.clock.now() ||
          pending.attempts >= WHATSAPP_CODE_MAX_ATTEMPTS
        ) {
          await ctx.db.delete(whatsAppCodes).where(eq(whatsAppCodes.userId, row.id));
          return { success: false };
        }
        const expected = Buffer.from(pending.codeHash, 'hex');
        const given = Buffer.from(codeHash(row.id, phone, code), 'hex');
        if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
          await ctx.db
            .update(whatsAppCodes)
            .set({ attempts: sql`${whatsAppCodes.attempts} + 1` })
            .where(eq(whatsAppCodes.userId, row.id));
          return { success: false };
        }
        // Using the code up is one conditional DELETE, so a code links exactly once.
        const used = await ctx.db
          .delete(whatsAppCodes)
          .where(and(eq(whatsAppCodes.userId, row.id), eq(whatsAppCodes.codeHash, pending.codeHash)))
          .returning();
        if (used.length === 0) return { success: false };
        await updateUser(ctx, row.id, { phone, whatsAppEnabled: true });
        return { success: true };
      },
    );

    app.post(
      '/api/profile/unlinkWhatsApp',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Removes the WhatsApp number and switches WhatsApp notifications off',
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        await ctx.db.delete(whatsAppCodes).where(eq(whatsAppCodes.userId, row.id));
        await updateUser(ctx, row.id, { phone: null, whatsAppEnabled: false });
        return { success: true };
      },
    );

    app.patch(
      '/api/profile/whatsAppEnabled',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary:
            'Toggles WhatsApp notifications (or sets them with {whatsAppEnabled}); needs a linked number',
          body: whatsAppEnabledBodySchema,
          response: { 200: whatsAppEnabledResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        if (!row.phone) throw conflict('WHATSAPP_NOT_LINKED');
        const next = request.body?.whatsAppEnabled ?? !row.whatsAppEnabled;
        const updated = await updateUser(ctx, row.id, { whatsAppEnabled: next });
        return { whatsAppEnabled: updated?.whatsAppEnabled ?? next };
      },
    );
  };
}
