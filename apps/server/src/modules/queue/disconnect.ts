/**
 * "Last tab closed -> leave the queue" after a grace (QUEUE_DISCONNECT_GRACE_MS, a persisted
 * deadline), so that a reload keeps the place; not during an accept phase, whose own deadline
 * settles it.
 */
import { isNull } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, jobField, logOf } from '../../jobs';
import { queueEntries } from './schema';
import { leaveQueue, queuedAmongLocked } from './service';

/**
 * The grace deadline after a player's last tab closed (or, at start-up, for every queued player):
 * it leaves the queue only if the player is still without a tab by then; a reconnect in between
 * needs no cancelling. The leave runs after the job's own transaction. Key `<userId>@<since>`.
 */
export const disconnectJob = defineJob({
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

/**
 * lastTabClosed for many players at once (sockets closing together): one transaction, and a grace
 * only for those who are queued. Most closed tabs belong to players who are not: a deadline for
 * each of them was a jobs row and a statement per closed tab (a stop with 10,000
 * sockets ran past its 10 s limit on them). The read waits for the queue's entry lock, so a join still
 * committing when the tab closed is seen.
 */
export async function lastTabsClosed(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<Map<string, true>> {
  const now = ctx.clock.now();
  await inTransaction(
    ctx.db,
    async (tx, after) => {
      for (const userId of await queuedAmongLocked(ctx, tx, userIds))
        await armDisconnectGrace(ctx, tx, after, userId, now);
    },
    logOf(ctx),
  );
  return new Map(userIds.map((id) => [id, true]));
}

/**
 * At start-up every player queued outside an accept phase gets the same grace as a closed tab,
 * from now (the deadline leaves the queue only if they have no socket anywhere by then): after a
 * crash nobody signed out, and a graceful stop arms nothing for its own sockets
 * (Realtime.closing). Players in an accept phase are settled by its own deadline. Graces armed
 * before the stop (tabs closed earlier) give way to these: after a restart slower than the grace
 * (a deploy on a busy machine) they would fire at once, before any tab could reconnect, and empty
 * the queue. Another instance's closed tab waits at most one grace longer; the queued players of
 * an instance that stops for good are settled by the presence sweep ('presence.lost').
 */
export async function restartDisconnectGraces(ctx: AppContext): Promise<void> {
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
}
