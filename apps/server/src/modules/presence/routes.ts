/**
 * Presence module: wires socket sign-in/out and the bus events 'status.patch' and 'user.renamed'
 * to the status object (see service.ts for what it owns).
 */
import { socialRoom, userStatusPatchSchema } from '@openpug/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, defineJob, inTransaction, logOf } from '../../jobs';
import { batched } from '../../lib/batch';
import {
  markMaybeOfflineMany,
  markOnlineMany,
  patchStatusTogether,
  resetStaleOnline,
  sweepStaleOnline,
} from './service';

declare module '../../events' {
  interface DomainEvents {
    /** The accounts module renamed a user; friends get socialChangedName. */
    'user.renamed': { userId: string; name: string | null };
    /** A user was online on an instance that died; the sweep set them offline. */
    'presence.lost': { userId: string };
  }
}

/**
 * Several instances: one of them sweeps stale "online" users each PRESENCE_SWEEP_MS. The job
 * has one row (every instance schedules it, it fires once) that re-arms itself when it fires.
 */
const sweepJob = defineJob({
  kind: 'presence.sweep',
  payload: z.object({}),
  singleRow: 'next',
  handle: async (ctx, tx, after) => {
    after.add(() => sweepStaleOnline(ctx));
    await ctx.jobs.reschedule(tx, after, sweepJob, {}, ctx.clock.now() + ctx.config.PRESENCE_SWEEP_MS);
  },
});

function sweepPeriodically(ctx: AppContext, app: FastifyInstance): void {
  ctx.jobs.register(sweepJob);
  // An instance that starts may be replacing one that died with sockets open: its players get the
  // grace a reloading tab gets (QUEUE_DISCONNECT_GRACE_MS) to reconnect anywhere, then the sweep
  // sets the rest offline (and the queue drops them), instead of a full PRESENCE_SWEEP_MS later.
  const armAfterGrace = (tx: Db, after: After) =>
    ctx.jobs.reschedule(tx, after, sweepJob, {}, ctx.clock.now() + ctx.config.QUEUE_DISCONNECT_GRACE_MS);
  app.addHook('onReady', () => inTransaction(ctx.db, armAfterGrace, logOf(ctx)).then(() => undefined));
}

export function presenceModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Sockets signing in together share one read and one write (lib/batch.ts).
    const markOnlineBatched = batched((userIds: string[]) => markOnlineMany(ctx, userIds), true);
    ctx.realtime.onAuthenticated(async (_socket, userId) => {
      await markOnlineBatched(userId);
    });
    const markMaybeOfflineBatched = batched((userIds: string[]) => markMaybeOfflineMany(ctx, userIds), false);
    ctx.realtime.onSignedOut(async (_socket, userId) => {
      await markMaybeOfflineBatched(userId);
    });
    ctx.bus.on('status.patch', async ({ userId, patch }) => {
      await patchStatusTogether(ctx, userId, userStatusPatchSchema.parse(patch));
    });
    ctx.bus.on('user.renamed', ({ userId, name }) => {
      ctx.realtime.toRoom(socialRoom(userId), 'socialChangedName', { userId, name });
    });
    if (!ctx.config.REDIS_URL) app.addHook('onReady', () => resetStaleOnline(ctx));
    else sweepPeriodically(ctx, app);
  };
}
