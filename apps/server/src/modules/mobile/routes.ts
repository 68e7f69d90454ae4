/**
 * Mobile queue app (issue 8):
 *   POST   /api/mobile/link                   → {url, expiresAt}: a one-time login link for the
 *          caller's phone (`{PUBLIC_URL}/m?u=<userId>&t=<token>`, 10 minutes, used once). The QR
 *          dialog encodes it; the long-lived session token never goes into it (links.ts).
 *   POST   /api/mobile/exchange {u, t}        → the session ({user, token, expiresAt, matrix});
 *   GET    /api/mobile/exchange?u=&t=          the same. Unknown/used/expired/other user → 404.
 *   GET    /api/push/vapid                    → {publicKey}
 *   POST   /api/push/subscriptions {endpoint, keys} → {success}   (auth; push.ts storeSubscription)
 *   DELETE /api/push/subscriptions {endpoint}       → {success}   (auth)
 * 'game found' is pushed to every subscription of the ten when an accept phase starts.
 * Joining or leaving on one device shows on the others through the status every socket of the
 * user hears (privateUserUpdate {status}: web features/queue/queueSync.ts).
 */
import {
  mobileExchangeSchema,
  mobileLinkResponseSchema,
  pushSubscriptionSchema,
  pushUnsubscribeSchema,
  sessionResponseSchema,
  successResponseSchema,
  vapidKeyResponseSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { sessionResponse } from '../accounts';
import { findUserById } from '../accounts/service';
import { currentUser, requireAuth } from '../auth';
import { issueMobileLink, redeemMobileLink } from './links';
import { initVapidKeys, pushGameFound, removeSubscription, storeSubscription, vapidKeys } from './push';

export function mobileModule(ctx: AppContext): FastifyPluginAsyncZod {
  const auth = { preValidation: requireAuth } as const;

  ctx.bus.on('queue.phaseStarted', ({ playerIds, deadline }) => pushGameFound(ctx, playerIds, deadline));

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
        const row = currentUser(request);
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
        const row = currentUser(request);
        const { endpoint, keys } = request.body;
        await storeSubscription(ctx, row.id, endpoint, keys);
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
        const row = currentUser(request);
        await removeSubscription(ctx, row.id, request.body.endpoint);
        return { success: true };
      },
    );
  };
}
