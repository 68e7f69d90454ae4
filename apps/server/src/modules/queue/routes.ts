/**
 * Queue transport: socket `queue-message {event: join|leave|ready|decline}` (ack `{ok, data: {inQueue,
 * count}}` or `{ok:false, msg}`), `GET /api/queue` (the caller's queue situation), the accept
 * deadline handler, "last socket closed → leave the queue (not during an accept phase)" after a
 * grace period (QUEUE_DISCONNECT_GRACE_MS, a persisted deadline) so a reload keeps the place, and,
 * on (re)authentication, the current count and any running accept phase.
 */
import { errorBodySchema, queueStateSchema } from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { batched } from '../../lib/batch';
import { currentUserId, requireAuth } from '../auth';
import { disconnectJob, lastTabsClosed, restartDisconnectGraces } from './disconnect';
import {
  acceptJob,
  countDue,
  declineQueue,
  joinQueue,
  leaveQueue,
  queuedAmong,
  queueState,
  readyQueue,
} from './service';

export function queueModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.jobs.register(acceptJob, disconnectJob);

    // The schema admits the four events only (anything else: INVALID_INPUT); each is named here.
    ctx.realtime.on('queue-message', (socket, { event }) => {
      const userId = socket.data.userId as string;
      switch (event) {
        case 'join':
          return joinQueue(ctx, userId);
        case 'leave':
          return leaveQueue(ctx, userId);
        case 'decline':
          return declineQueue(ctx, userId);
        case 'ready':
          return readyQueue(ctx, userId);
      }
    });

    // Tabs closing together (a network blip, many players at once) book their graces in one
    // transaction (lib/batch.ts); a stop books none (below).
    const lastTabClosedBatched = batched((userIds: string[]) => lastTabsClosed(ctx, userIds), true);
    ctx.realtime.onSignedOut(async (_socket, userId) => {
      // A stop's sign-outs: the next start gives every queued player a grace (disconnect.ts).
      if (ctx.realtime.closing || (await ctx.realtime.socketCount(userId)) > 0) return;
      await lastTabClosedBatched(userId);
    });

    // After a crash or a deploy every queued player gets a grace from now (disconnect.ts says why).
    app.addHook('onReady', () => restartDisconnectGraces(ctx));

    // A queued player whose instance died never signs out; the presence sweep reports them.
    ctx.bus.on('presence.lost', ({ userId }) =>
      leaveQueue(ctx, userId, { tabGone: true }).then(() => undefined),
    );

    // A change on another instance: this one's sockets get the count in this one's window.
    ctx.realtime.onInstanceSignal('queue.count-due', () => countDue(ctx));
    // Signals another instance sent while Redis was away never reached this one.
    ctx.bus.on('realtime.rejoined', () => countDue(ctx));

    // Most sockets that sign in are not queued: one shared query (lib/batch.ts) says so, and only
    // a queued player's socket reads the whole queue state.
    const isQueuedBatched = batched(
      async (userIds: string[]) => new Map([...(await queuedAmong(ctx.db, userIds))].map((id) => [id, true])),
      false,
    );
    ctx.realtime.onAuthenticated(async (socket, userId) => {
      if (!(await isQueuedBatched(userId))) return;
      const state = await queueState(ctx, userId);
      if (!state.inQueue) return;
      socket.emit('PUBLIC_QUEUE_UPDATE', { count: state.count });
      if (state.phase) socket.emit('PRIVATE_QUEUE_READY', state.phase);
    });

    app.get(
      '/api/queue',
      {
        onRequest: requireAuth,
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
