/**
 * Presence module: wires socket sign-in/out and the bus events 'status.patch' and 'user.renamed'
 * to the status object (see service.ts for what it owns).
 */
import { socialRoom, userStatusPatchSchema } from '@openpug/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { type After, inTransaction, jobsOf, logOf } from '../../jobs';
import {
  markMaybeOffline,
  markOnline,
  patchStatus,
  resetStaleOnline,
  stopPushing,
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

export const PRESENCE_SWEEP_JOB = 'presence.sweep';

/**
 * Several instances: one of them (a persisted job keyed by its time slot, so every instance
 * schedules the same row and it fires once) sweeps stale "online" users each PRESENCE_SWEEP_MS,
 * then schedules the next slot.
 */
function sweepPeriodically(ctx: AppContext, app: FastifyInstance): void {
  const jobs = jobsOf(ctx);
  const every = ctx.config.PRESENCE_SWEEP_MS;
  const scheduleNext = (tx: Db, after: After) => {
    const slot = (Math.floor(ctx.clock.now() / every) + 1) * every;
    return jobs.schedule(tx, after, PRESENCE_SWEEP_JOB, String(slot), slot);
  };
  jobs.handle(PRESENCE_SWEEP_JOB, async (_job, tx, after) => {
    after.add(() => sweepStaleOnline(ctx).then(() => undefined));
    await scheduleNext(tx, after);
  });
  app.addHook('onReady', () => inTransaction(ctx.db, scheduleNext, logOf(ctx)).then(() => undefined));
}

export function presenceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.realtime.onAuthenticated((_socket, userId) => markOnline(ctx, userId));
    ctx.realtime.onSignedOut(async (_socket, userId) => {
      await markMaybeOffline(ctx, userId);
    });
    ctx.bus.on('status.patch', async ({ userId, patch }) => {
      await patchStatus(ctx, userId, userStatusPatchSchema.parse(patch));
    });
    ctx.bus.on('user.renamed', ({ userId, name }) => {
      ctx.realtime.toRoom(socialRoom(userId), 'socialChangedName', { userId, name });
    });
    if (!ctx.config.REDIS_URL) app.addHook('onReady', () => resetStaleOnline(ctx));
    else sweepPeriodically(ctx, app);
    app.addHook('preClose', async () => stopPushing(ctx));
  };
}
