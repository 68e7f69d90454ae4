/**
 * Friends module: the friend calls of docs/contract.md §7 (`/api/friends…`), the socket events
 * `join-social` / `leave-social`, and joining friends' social rooms when a socket signs in.
 */
import {
  answerFriendRequestResponseSchema,
  answerFriendRequestSchema,
  createFriendRequestResponseSchema,
  createFriendRequestSchema,
  deleteFriendRequestResponseSchema,
  friendRequestsResponseSchema,
  friendsResponseSchema,
  idParamsSchema,
  removeFriendResponseSchema,
  socialRoom,
  userIdParamsSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { batched } from '../../lib/batch';
import { currentUserId, requireAuth } from '../auth';
import {
  answerRequest,
  assertId,
  deleteRequest,
  friendIdsOfMany,
  joinSocial,
  listFriends,
  listRequests,
  removeFriend,
  sendRequest,
} from './service';

export function friendsModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // --- socket: social rooms ---
    // Sockets signing in together share one query (lib/batch.ts).
    const friendIdsOfBatched = batched((userIds: string[]) => friendIdsOfMany(ctx, userIds), [] as string[]);
    ctx.realtime.onAuthenticated(async (socket, userId) => {
      const ids = await friendIdsOfBatched(userId);
      if (ids.length > 0) await socket.join(ids.map(socialRoom));
    });
    ctx.realtime.onSignedOut(async (socket) => {
      for (const room of [...socket.rooms]) if (room.startsWith('social:')) await socket.leave(room);
    });
    ctx.realtime.on('join-social', async (socket, friendId) => {
      await joinSocial(ctx, socket.data.userId!, friendId);
      await socket.join(socialRoom(friendId));
      return { userId: friendId };
    });
    // Leaving is always allowed (it only narrows what the socket receives), so a client that
    // leaves after a removal is not refused.
    ctx.realtime.on('leave-social', async (socket, friendId) => {
      await socket.leave(socialRoom(friendId));
      return { userId: friendId };
    });

    // --- HTTP ---
    const common = { tags: ['friends'], security: [{ bearer: [] }] };

    app.get(
      '/api/friends',
      {
        onRequest: requireAuth,
        schema: {
          tags: common.tags,
          security: common.security,
          summary: 'My friends with rank, Elo and live status',
          response: { 200: friendsResponseSchema },
        },
      },
      async (request) => ({ friends: await listFriends(ctx, currentUserId(request)) }),
    );

    app.get(
      '/api/friends/requests',
      {
        onRequest: requireAuth,
        schema: {
          tags: common.tags,
          security: common.security,
          summary: 'Pending friend requests I received and sent',
          response: { 200: friendRequestsResponseSchema },
        },
      },
      async (request) => listRequests(ctx, currentUserId(request)),
    );

    app.post(
      '/api/friends',
      {
        onRequest: requireAuth,
        schema: {
          tags: common.tags,
          security: common.security,
          summary: 'Send a friend request to {recipient} (a user id)',
          body: createFriendRequestSchema,
          response: { 200: createFriendRequestResponseSchema },
        },
      },
      async (request) => {
        const created = await sendRequest(ctx, currentUserId(request), request.body.recipient);
        return { ...created, msg: 'REQUEST_SENT' as const };
      },
    );

    app.patch(
      '/api/friends/:id',
      {
        onRequest: requireAuth,
        schema: {
          tags: common.tags,
          security: common.security,
          summary: 'Answer a received friend request: accepted true accepts, false declines',
          params: idParamsSchema,
          body: answerFriendRequestSchema,
          response: { 200: answerFriendRequestResponseSchema },
        },
      },
      async (request) => {
        const me = currentUserId(request);
        assertId(request.params.id);
        const result = await answerRequest(ctx, me, request.params.id, request.body.accepted);
        return {
          ...result,
          msg: request.body.accepted
            ? ('ACCEPTED_SUCCESSFULLY' as const)
            : ('DECLINED_SUCCESSFULLY' as const),
        };
      },
    );

    app.delete(
      '/api/friends/:id',
      {
        onRequest: requireAuth,
        schema: {
          tags: common.tags,
          security: common.security,
          summary: 'Cancel a sent (or decline a received) pending friend request',
          params: idParamsSchema,
          response: { 200: deleteFriendRequestResponseSchema },
        },
      },
      async (request) => {
        const msg = await deleteRequest(ctx, currentUserId(request), request.params.id);
        return { _id: request.params.id, msg };
      },
    );

    app.delete(
      '/api/friends/existing/:userId',
      {
        onRequest: requireAuth,
        schema: {
          tags: common.tags,
          security: common.security,
          summary: 'Remove a friend',
          params: userIdParamsSchema,
          response: { 200: removeFriendResponseSchema },
        },
      },
      async (request) => {
        await removeFriend(ctx, currentUserId(request), request.params.userId);
        return { _id: request.params.userId, msg: 'REMOVED_SUCCESSFULLY' as const };
      },
    );
  };
}
