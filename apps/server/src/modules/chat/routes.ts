/**
 * Chat module (docs/contract.md §1, §3, §7): Matrix accounts for every user, the global and match rooms, the
 * `matrix` credentials at login (through the accounts module's provider hook) and
 * GET /api/users/matrixavatar/:sender. Service functions in ./service.ts; the embedded homeserver
 * itself lives in src/homeserver.
 */
import {
  chatModerationSchema,
  chatSessionResponseSchema,
  matrixAvatarParamsSchema,
  productUserIdOf,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { embeddedServerName, embeddedSharedSecret } from '../../homeserver';
import { AppError, errorResponses } from '../../lib/errors';
import { setChatRevoker, setMatrixSessionProvider } from '../accounts';
import { findUserById } from '../accounts/service';
import { currentUserId, requireAuth } from '../auth';
import { activeSanction } from '../moderation';
import { identiconSvg } from './identicon';
import { fetchTransport, type Transport } from './matrix-admin';
import { moderateChat } from './moderation';
import {
  closeMatchRoomWork,
  joinMatchRoomSoon,
  leaveMatchRoomSoon,
  matrixSessionFor,
  provisionUser,
  registerChatService,
  revokeChatSessions,
} from './service';

export const chatModule =
  (ctx: AppContext): FastifyPluginAsyncZod =>
  async (app) => {
    const external = ctx.config.MATRIX_HOMESERVER_URL;
    let transport: Transport;
    if (external) {
      transport = fetchTransport(external);
    } else {
      // The embedded homeserver, reached in-process through the same HTTP routes.
      transport = async (method, url, body, token) => {
        const res = await app.inject({
          method: method as 'GET',
          url,
          ...(body !== undefined ? { payload: body as object } : {}),
          headers: token ? { authorization: `Bearer ${token}` } : {},
        });
        let json: Record<string, unknown> = {};
        try {
          json = res.body ? JSON.parse(res.body) : {};
        } catch {
          json = {};
        }
        return { status: res.statusCode, json };
      };
    }
    registerChatService(
      ctx,
      transport,
      external ? (ctx.config.MATRIX_SHARED_SECRET ?? '') : embeddedSharedSecret(ctx.config),
      external ? (ctx.config.MATRIX_SERVER_NAME ?? '') : embeddedServerName(ctx.config),
      // What browsers are told: Synapse's public address, never necessarily the internal one.
      external ? (ctx.config.MATRIX_PUBLIC_URL ?? external) : ctx.config.PUBLIC_URL,
    );
    // A banned player gets no chat credentials (a muted one does: they read, the power levels keep them from writing).
    setMatrixSessionProvider(ctx, async (userId) =>
      (await activeSanction(ctx, ctx.db, userId, 'ban')) ? null : matrixSessionFor(ctx, userId),
    );
    setChatRevoker(ctx, (userId) => revokeChatSessions(ctx, userId));
    ctx.bus.on('user.created', async ({ userId }) => {
      try {
        await provisionUser(ctx, userId);
      } catch (err) {
        // Login provisions again; a homeserver outage must not fail sign-up.
        app.log.warn({ err, userId }, 'matrix provisioning failed');
      }
    });
    // A match's room holds its players: each joins when the matches module puts them in the match.
    // A player replaced in a match (substitute, admin swap) leaves its room; the newcomer joins it
    // through the status patch below.
    ctx.bus.on('match.substituted', ({ matchId, out }) => leaveMatchRoomSoon(ctx, matchId, out.userId));
    // A closing app lets the join under way end and drops the rest before its database goes.
    app.addHook('onClose', () => closeMatchRoomWork(ctx));
    ctx.bus.on('status.patch', ({ userId, patch }) => {
      const match = patch.match;
      if (match?.active && match.matchId) joinMatchRoomSoon(ctx, match.matchId, userId);
    });

    // The chat credentials again, for a tab that keeps its session while its chat token was
    // revoked (its own password change revokes every chat token of the account).
    app.get(
      '/api/chat/session',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['chat'],
          summary: 'Chat credentials for the signed-in player',
          response: { 200: chatSessionResponseSchema },
        },
      },
      async (request) => {
        const userId = currentUserId(request);
        if (await activeSanction(ctx, ctx.db, userId, 'ban')) return { matrix: null };
        try {
          return { matrix: await matrixSessionFor(ctx, userId) };
        } catch (err) {
          request.log.warn({ err, userId }, 'chat session failed');
          throw new AppError(503, 'CHAT_UNAVAILABLE');
        }
      },
    );

    // Chat moderation in the global and match rooms (./moderation.ts): admins, and a match's
    // captains in its room.
    app.post(
      '/api/chat/moderation',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['chat'],
          summary:
            'Redact, mute, unmute, kick, ban or unban in a product chat room (admins; captains in their match room)',
          security: [{ bearer: [] }],
          body: chatModerationSchema,
          response: {
            200: z.object({ ok: z.literal(true) }),
            ...errorResponses(400, 401, 403, 404, 409, 422, 503),
          },
        },
      },
      async (request) => {
        await moderateChat(ctx, currentUserId(request), request.body);
        return { ok: true as const };
      },
    );

    app.get(
      '/api/users/matrixavatar/:sender',
      { schema: { tags: ['chat'], params: matrixAvatarParamsSchema } },
      async (request, reply) => {
        const { sender } = request.params;
        const userId = productUserIdOf(sender);
        const user = userId ? await findUserById(ctx.db, userId) : null;
        if (user?.avatar)
          return reply.header('cache-control', 'public, max-age=300').redirect(user.avatar, 302);
        return reply
          .header('content-type', 'image/svg+xml')
          .header('cache-control', 'public, max-age=86400')
          .send(identiconSvg(sender));
      },
    );
  };
