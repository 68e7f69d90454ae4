/**
 * Queue transport: socket `queue-message {event: join|leave|ready}` (ack `{ok, data: {inQueue,
 * count}}` or `{ok:false, msg}`), `GET /api/queue` (the caller's queue situation), the accept
 * deadline handler, "last socket closed → leave the queue (not during an accept phase)" and, on
 * (re)authentication, the current count and any running accept phase.
 */
import { errorBodySchema, queueMessageSchema, queueStateSchema } from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { jobsOf } from '../../jobs';
import { currentUserId, requireAuth } from '../auth/guard';
import { ACCEPT_JOB, acceptTimedOut, joinQueue, leaveQueue, queueState, readyQueue } from './service';

export function queueModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    jobsOf(ctx).handle(ACCEPT_JOB, (job, tx, after) => acceptTimedOut(ctx, tx, after, job.key));

    ctx.realtime.on('queue-message', queueMessageSchema, (socket, { event }) => {
      const userId = socket.data.userId as string;
      if (event === 'join') return joinQueue(ctx, userId);
      if (event === 'leave') return leaveQueue(ctx, userId);
      return readyQueue(ctx, userId);
    });

    ctx.realtime.onSignedOut(async (_socket, userId) => {
      if ((await ctx.realtime.socketCount(userId)) > 0) return;
      await leaveQueue(ctx, userId, { onlyOutsidePhase: true });
    });

    ctx.realtime.onAuthenticated(async (socket, userId) => {
      const state = await queueState(ctx, userId);
      if (!state.inQueue) return;
      socket.emit('PUBLIC_QUEUE_UPDATE', { count: state.count });
      if (state.phase) socket.emit('PRIVATE_QUEUE_READY', state.phase);
    });

    app.get(
      '/api/queue',
      {
        preHandler: requireAuth,
        schema: {
          tags: ['queue'],
          summary: "The caller's queue situation: count, joinedAt, running accept phase, live match",
          security: [{ bearer: [] }],
          response: { 200: queueStateSchema, 401: errorBodySchema },
        },
      },
      async (request) => queueState(ctx, currentUserId(request)),
    );
  };
}
