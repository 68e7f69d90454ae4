/**
 * Presence module: wires socket sign-in/out and the bus events 'status.patch' and 'user.renamed'
 * to the status object (see service.ts for what it owns).
 */
import { socialRoom, userStatusPatchSchema } from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { markMaybeOffline, markOnline, patchStatus, resetStaleOnline, stopPushing } from './service';

declare module '../../events' {
  interface DomainEvents {
    /** The accounts module renamed a user; friends get socialChangedName. */
    'user.renamed': { userId: string; name: string | null };
  }
}

export function presenceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    ctx.realtime.onAuthenticated((_socket, userId) => markOnline(ctx, userId));
    ctx.realtime.onSignedOut((_socket, userId) => markMaybeOffline(ctx, userId));
    ctx.bus.on('status.patch', async ({ userId, patch }) => {
      await patchStatus(ctx, userId, userStatusPatchSchema.parse(patch));
    });
    ctx.bus.on('user.renamed', ({ userId, name }) => {
      ctx.realtime.toRoom(socialRoom(userId), 'socialChangedName', { userId, name });
    });
    if (!ctx.config.REDIS_URL) app.addHook('onReady', () => resetStaleOnline(ctx));
    app.addHook('preClose', async () => stopPushing(ctx));
  };
}
