/**
 * Mobile queue app (issue 8):
 *   POST   /api/mobile/link                   → {url, expiresAt}: a one-time login link for the
 *          caller's phone (`{PUBLIC_URL}/m?u=<userId>&t=<token>`, 10 minutes, used once). The QR
 *          dialog encodes it; the long-lived session token never goes into it.
 *   POST   /api/mobile/exchange {u, t}        → the session ({user, token, expiresAt, matrix});
 *   GET    /api/mobile/exchange?u=&t=          the same. Unknown/used/expired/other user → 404.
 *   GET    /api/push/vapid                    → {publicKey}
 *   POST   /api/push/subscriptions {endpoint, keys} → {success}   (auth)
 *   DELETE /api/push/subscriptions {endpoint}       → {success}   (auth)
 * 'game found' is pushed to every subscription of the ten when an accept phase starts.
 * PRIVATE_QUEUE_SYNC {inQueue} tells all of a user's sockets that their queue membership changed.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  mobileExchangeSchema,
  mobileLinkResponseSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
  sessionResponseSchema,
  successResponseSchema,
  vapidKeyResponseSchema,
} from '@openpug/shared';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { conflict, notFound, unprocessable } from '../../lib/errors';
import { BlockedAddressError, checkUserUrl } from '../../lib/outbound';
import { currentUser, sessionResponse } from '../accounts';
import { findUserById } from '../accounts/service';
import { requireAuth } from '../auth';
import { initVapidKeys, pushGameFound, vapidKeys } from './push';
import { mobileLoginTokens, pushSubscriptions } from './schema';

export const MOBILE_LINK_TTL_MS = 10 * 60_000;
const hashToken = (t: string) => createHash('sha256').update(t).digest('hex');

export async function issueMobileLink(
  ctx: AppContext,
  userId: string,
): Promise<{ url: string; expiresAt: number }> {
  const token = randomBytes(24).toString('base64url');
  const expiresAt = ctx.clock.now() + MOBILE_LINK_TTL_MS;
  await ctx.db
    .insert(mobileLoginTokens)
    .values({ tokenHash: hashToken(token), userId, expiresAt: new Date(expiresAt) });
  const url = `${ctx.config.PUBLIC_URL}/m?u=${encodeURIComponent(userId)}&t=${token}`;
  return { url, expiresAt };
}

/** Uses the link up; the user id must be the one it was issued to. */
export async function redeemMobileLink(ctx: AppContext, userId: string, token: string): Promise<string> {
  const now = new Date(ctx.clock.now());
  const [row] = await ctx.db
    .update(mobileLoginTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(mobileLoginTokens.tokenHash, hashToken(token)),
        eq(mobileLoginTokens.userId, userId),
        isNull(mobileLoginTokens.usedAt),
        gt(mobileLoginTokens.expiresAt, now),
      ),
    )
    .returning();
  if (!row) throw notFound('NOT_FOUND_OR_ALREADY_USED');
  return row.userId;
}

export function mobileModule(ctx: AppContext): FastifyPluginAsyncZod {
  const auth = { preValidation: requireAuth } as const;

  ctx.bus.on('queue.phaseStarted', ({ playerIds, deadline }) => pushGameFound(ctx, playerIds, deadline));
  // Joining or leaving on one device shows on the others (the phone and the desktop tab).
  ctx.bus.on('status.patch', ({ userId, patch }) => {
    if (typeof patch.inQueue === 'boolean')
      ctx.realtime.toUser(userId, 'PRIVATE_QUEUE_SYNC', { inQueue: patch.inQueue });
  });

  return async (app) => {
    await initVapidKeys(ctx);

    app.post(
      '/api/mobile/link',
      {
        ...auth,
        schema: {
          tags: ['mobile'],
          summary: 'A one-time login link for the mobile queue app (what the QR code encodes)',
          response: { 200: mobileLinkResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        return issueMobileLink(ctx, row.id);
      },
    );

    const exchange = async (u: string, t: string) => {
      const userId = await redeemMobileLink(ctx, u, t);
      const row = await findUserById(ctx.db, userId);
      if (!row) throw notFound('NOT_FOUND_OR_ALREADY_USED');
      return sessionResponse(ctx, row);
    };
    app.post(
      '/api/mobile/exchange',
      {
        schema: {
          tags: ['mobile'],
          summary: 'Signs the phone in with a one-time link (used once)',
          body: mobileExchangeSchema,
          response: { 200: sessionResponseSchema },
        },
      },
      (request) => exchange(request.body.u, request.body.t),
    );
    app.get(
      '/api/mobile/exchange',
      {
        schema: {
          tags: ['mobile'],
          summary: 'Same as POST, with the link parameters in the query',
          querystring: mobileExchangeSchema,
          response: { 200: sessionResponseSchema },
        },
      },
      (request) => exchange(request.query.u, request.query.t),
    );

    app.get(
      '/api/push/vapid',
      {
        schema: { tags: ['mobile'], summary: 'VAPID public key', response: { 200: vapidKeyResponseSchema } },
      },
      async () => ({ publicKey: vapidKeys(ctx).publicKey }),
    );

    app.post(
      '/api/push/subscriptions',
      {
        ...auth,
        schema: {
          tags: ['mobile'],
          summary: "Stores this browser's push subscription",
          body: pushSubscriptionSchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        const { endpoint, keys } = request.body;
        try {
          checkUserUrl(endpoint, { allow: ctx.config.OUTBOUND_ALLOW });
        } catch (err) {
          if (err instanceof BlockedAddressError) throw unprocessable('PUSH_ENDPOINT_NOT_PUBLIC');
          throw err;
        }
        const values = {
          endpoint,
          userId: row.id,
          p256dh: keys.p256dh,
          auth: keys.auth,
          createdAt: new Date(ctx.clock.now()),
        };
        // A subscription belongs to the player who made it: the same endpoint from another account
        // is refused (the browser then makes a new subscription for its new player).
        const stored = await ctx.db
          .insert(pushSubscriptions)
          .values(values)
          .onConflictDoUpdate({
            target: pushSubscriptions.endpoint,
            set: values,
            setWhere: eq(pushSubscriptions.userId, row.id),
          })
          .returning({ endpoint: pushSubscriptions.endpoint });
        if (stored.length === 0) throw conflict('PUSH_ENDPOINT_TAKEN');
        return { success: true };
      },
    );

    app.delete(
      '/api/push/subscriptions',
      {
        ...auth,
        schema: {
          tags: ['mobile'],
          summary: 'Removes a push subscription of the caller',
          body: pushUnsubscribeSchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        await ctx.db
          .delete(pushSubscriptions)
          .where(
            and(eq(pushSubscriptions.endpoint, request.body.endpoint), eq(pushSubscriptions.userId, row.id)),
          );
        return { success: true };
      },
    );
  };
}
