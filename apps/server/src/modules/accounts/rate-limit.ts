/**
 * Per-IP rate limit (RATE_LIMIT_PER_MIN requests per minute and bucket; 0 = off) for the calls
 * people could hammer: login, register, forgot, reset, verify, Steam login and code checks.
 * Fixed one-minute windows in memory of this instance; over the limit → 429 TOO_MANY_REQUESTS.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';

export function rateLimiter(ctx: AppContext, bucket: string) {
  const windows = new Map<string, { start: number; count: number }>();
  return async (request: FastifyRequest): Promise<void> => {
    const limit = ctx.config.RATE_LIMIT_PER_MIN;
    if (limit <= 0) return;
    const now = ctx.clock.now();
    if (windows.size > 10_000) {
      for (const [k, w] of windows) if (now - w.start >= 60_000) windows.delete(k);
    }
    const key = `${bucket}:${request.ip}`;
    const w = windows.get(key);
    if (!w || now - w.start >= 60_000) {
      windows.set(key, { start: now, count: 1 });
      return;
    }
    w.count += 1;
    if (w.count > limit) throw new AppError(429, 'TOO_MANY_REQUESTS');
  };
}
