/**
 * Queue transport: socket `queue-message {event: join|leave|ready|decline}` (ack `{ok, data: {inQueue,
 * count}}` or `{ok:false, msg}`), `GET /api/queue` (the caller's queue situation), the accept
 * deadline handler, "last socket closed → leave the queue (not during an accept phase)" after a
 * grace period (QUEUE_DISCONNECT_GRACE_MS, a persisted deadline) so a reload keeps the place, and,
 * on (re)authentication, the current count and any running accept phase.
 */
import { errorBodySchema, queueStateSchema } from '@openpug/shared';
import { isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { batched } from '../../lib/batch';
import { currentUserId, requireAuth } from '../auth';
import { queueEntries } from './schema';
import {
  acceptJob,
  declineQueue,
  joinQueue,
  leaveQueue,
  queuedAmong,
  queueState,
  readyQueue,
} from './service';

/**
 * The grace deadline after a player's last tab closed (or, at start-up, for every queued player):
 * it leaves the queue only if the player is still without a tab by then; a reconnect in between
 * needs no cancelling. The leave runs after the job's own transaction. Key `<userId>@<since>`.
 */
const disconnectJob = defineJob({
  kind: 'queue.disconnect',
  payload: z.object({
    userId: jobField.id,
    // When the grace began; rows from before typed jobs say `start-<ms>` for the start-up grace.
    since: z.union([jobField.time, z.string().regex(/^start-\d+$/)]),
  }),
  separator: '@',
  handle: async (ctx, _tx, after, { userId }) => {
    after.add(async () => {
      if ((await ctx.realtime.socketCount(userId)) > 0) return;
      await leaveQueue(ctx, userId, { tabGone: true });
    });
  },
});

/** The queue place of a player without a tab waits QUEUE_DISCONNECT_GRACE_MS from `since` for them. */
const armDisconnectGrace = (ctx: AppContext, tx: Db, after: After, userId: string, since: number) =>
  ctx.jobs.schedule(
    tx,
    after,
    disconnectJob,
    { userId, since },
    since + ctx.config.QUEUE_DISCONNECT_GRACE_MS,
  );

/** A player's last tab closed (signed out): their place waits QUEUE_DISCONNECT_GRACE_MS for them. */
export async function lastTabClosed(ctx: AppContext, userId: string): Promise<void> {
  await lastTabsClosed(ctx, [userId]);
}

/** lastTabClosed for many players at once (a restart closes every socket): one transaction. */
async function lastTabsClosed(ctx: AppContext, userIds: readonly string[]): Promise<Map<string, true>> {
  const now = ctx.clock.now();
  await inTransaction(
    ctx.db,
    async (tx, after) => {
      for (const userId of userIds) await armDisconnectGrace(ctx, tx, after, userId, now);
    },
    logOf(ctx),
  );
  return new Map(userIds.map((id) => [id, true]));
}

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

    // Sockets closing together (a restart) arm their graces in one transaction (lib/batch.ts).
    const lastTabClosedBatched = batched((userIds: string[]) => lastTabsClosed(ctx, userIds), true);
    ctx.realtime.onSignedOut(async (_socket, userId) => {
      if ((await ctx.realtime.socketCount(userId)) > 0) return;
      await lastTabClosedBatched(userId);
    });

    // After a crash nobody signed out: every player queued outside an accept phase gets the same
    // grace as a closed tab (the deadline leaves the queue only if they have no socket anywhere by
    // then). Players in an accept phase are settled by its own deadline.
    // A graceful stop did sign everyone out, and armed their graces from the moment it stopped. A
    // restart slower than the grace (a deploy on a busy machine) would fire those at once, before
    // any tab could reconnect, and empty the queue; so they give way to the graces armed here,
    // which run from now. Another instance's closed tab waits at most one grace longer.
    app.addHook('onReady', async () => {
      const now = ctx.clock.now();
      await inTransaction(
        ctx.db,
        async (tx, after) => {
          await ctx.jobs.cancelAll(tx, after, disconnectJob);
          const queued = await tx
            .select({ userId: queueEntries.userId })
            .from(queueEntries)
            .where(isNull(queueEntries.phaseId));
          for (const { userId } of queued) await armDisconnectGrace(ctx, tx, after, userId, now);
        },
        logOf(ctx),
      );
    });

    // A queued player whose instance died never signs out; the presence sweep reports them.
    ctx.bus.on('presence.lost', ({ userId }) =>
      leaveQueue(ctx, userId, { tabGone: true }).then(() => undefined),
    );

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
