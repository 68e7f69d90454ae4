/**
 * Per-IP rate limit (RATE_LIMIT_PER_MIN requests per minute and bucket; 0 = off) for the calls
 * people could hammer: login, register, forgot, reset, verify, Steam login and code checks.
 * Fixed one-minute windows counted in the database, so several instances behind one proxy share
 * the limit; over the limit → 429 TOO_MANY_REQUESTS.
 */
import { lt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { rateLimitWindows } from './schema';

const WINDOW_MS = 60_000;
/** Ended windows are deleted every this many counted calls (per instance). */
const PRUNE_EVERY = 500;

/** Counts one call of `key` in its current window; returns the count including this call. */
export async function countCall(ctx: AppContext, key: string, now: number): Promise<number> {
  const expired = sql`${rateLimitWindows.windowStart} <= ${now - WINDOW_MS}`;
  const [row] = await ctx.db
    .insert(rateLimitWindows)
    .values({ key, windowStart: now, count: 1 })
    .onConflictDoUpdate({
      target: rateLimitWindows.key,
      set: {
        count: sql`case when ${expired} then 1 else ${rateLimitWindows.count} + 1 end`,
        windowStart: sql`case when ${expired} then ${now} else ${rateLimitWindows.windowStart} end`,
      },
    })
    .returning({ count: rateLimitWindows.count });
  return row?.count ?? 1;
}

export function rateLimiter(ctx: AppContext, bucket: string) {
  let calls = 0;
  return async (request: FastifyRequest): Promise<void> => {
    const limit = ctx.config.RATE_LIMIT_PER_MIN;
    if (limit <= 0) return;
    const now = ctx.clock.now();
    if (++calls % PRUNE_EVERY === 0)
      await ctx.db.delete(rateLimitWindows).where(lt(rateLimitWindows.windowStart, now - WINDOW_MS));
    if ((await countCall(ctx, `${bucket}:${request.ip}`, now)) > limit)
      throw new AppError(429, 'TOO_MANY_REQUESTS');
  };
}
