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

const PRESENCE_SWEEP_JOB = 'presence.sweep';
/** The one row of the sweep: every instance schedules the same job, and it fires once. */
const SWEEP_KEY = 'next';

/**
 * Several instances: one of them sweeps stale "online" users each PRESENCE_SWEEP_MS. The job
 * re-arms its own row when it fires, so the jobs table holds one row for it, not one per run.
 */
function sweepPeriodically(ctx: AppContext, app: FastifyInstance): void {
  const jobs = jobsOf(ctx);
  const every = ctx.config.PRESENCE_SWEEP_MS;
  jobs.handle(PRESENCE_SWEEP_JOB, async (_job, tx, after) => {
    after.add(() => sweepStaleOnline(ctx));
    await jobs.reschedule(tx, after, PRESENCE_SWEEP_JOB, SWEEP_KEY, ctx.clock.now() + every);
  });
  // An instance that starts may be replacing one that died with sockets open: its players get the
  // grace a reloading tab gets (QUEUE_DISCONNECT_GRACE_MS) to reconnect anywhere, then the sweep
  // sets the rest offline (and the queue drops them), instead of a full PRESENCE_SWEEP_MS later.
  const armAfterGrace = (tx: Db, after: After) =>
    jobs.reschedule(
      tx,
      after,
      PRESENCE_SWEEP_JOB,
      SWEEP_KEY,
      ctx.clock.now() + ctx.config.QUEUE_DISCONNECT_GRACE_MS,
    );
  app.addHook('onReady', () => inTransaction(ctx.db, armAfterGrace, logOf(ctx)).then(() => undefined));
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
