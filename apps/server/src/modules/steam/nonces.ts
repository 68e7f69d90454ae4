/**
 * OpenID response nonces: each is used once across every instance (the table is shared); old
 * nonces go as new ones come (twice the age an assertion may have, openid.ts NONCE_MAX_AGE_MS).
 */
import { lt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { NONCE_MAX_AGE_MS } from './openid';
import { openidNonces } from './schema';

/** True for the first use of the nonce, false for a replay. */
export async function claimNonce(ctx: AppContext, nonce: string): Promise<boolean> {
  const now = ctx.clock.now();
  await ctx.db.delete(openidNonces).where(lt(openidNonces.seenAt, now - 2 * NONCE_MAX_AGE_MS));
  const claimed = await ctx.db
    .insert(openidNonces)
    .values({ nonce, seenAt: now })
    .onConflictDoNothing()
    .returning({ nonce: openidNonces.nonce });
  return claimed.length === 1;
}
