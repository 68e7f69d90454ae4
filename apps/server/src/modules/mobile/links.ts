/**
 * One-time login links for the player's phone (`POST /api/mobile/link`, the QR dialog):
 * `{PUBLIC_URL}/m?u=<userId>&t=<token>`, valid MOBILE_LINK_TTL_MS, used once; only the token's
 * hash is stored, and the long-lived session token never goes into a link.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { mobileLoginTokens } from './schema';

export const MOBILE_LINK_TTL_MS = 10 * 60_000;
const hashToken = (t: string) => createHash('sha256').update(t).digest('hex');

export async function issueMobileLink(
  ctx: AppContext,
  userId: string,
): Promise<{ url: string; expiresAt: number }> {
  const token = randomBytes(24).toString('base64url');
  const expiresAt = ctx.clock.now() + MOBILE_LINK_TTL_MS;
  await ctx.db
    .insert(mobileLoginTokens)
    .values({ tokenHash: hashToken(token), userId, expiresAt: new Date(expiresAt) });
  const url = `${ctx.config.PUBLIC_URL}/m?u=${encodeURIComponent(userId)}&t=${token}`;
  return { url, expiresAt };
}

/** Uses the link up; the user id must be the one it was issued to. */
export async function redeemMobileLink(ctx: AppContext, userId: string, token: string): Promise<string> {
  const now = new Date(ctx.clock.now());
  const [row] = await ctx.db
    .update(mobileLoginTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(mobileLoginTokens.tokenHash, hashToken(token)),
        eq(mobileLoginTokens.userId, userId),
        isNull(mobileLoginTokens.usedAt),
        gt(mobileLoginTokens.expiresAt, now),
      ),
    )
    .returning();
  if (!row) throw notFound('NOT_FOUND_OR_ALREADY_USED');
  return row.userId;
}
