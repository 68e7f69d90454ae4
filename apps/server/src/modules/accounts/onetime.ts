/**
 * One-time links (verification, password reset): a random id goes into the e-mail; only its
 * SHA-256 is stored. Consuming is one conditional UPDATE, so a link works exactly once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNotNull, isNull, lte, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { accountTokens, pendingSignups } from './schema';

export const VERIFY_TTL_MS = 7 * 24 * 60 * 60_000;
export const RESET_TTL_MS = 60 * 60_000;

const hashId = (id: string) => createHash('sha256').update(id).digest('hex');

export async function issueOneTimeId(
  ctx: AppContext,
  input: { userId: string; kind: 'verify' | 'reset'; email: string },
): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.db.insert(accountTokens).values({
    idHash: hashId(id),
    userId: input.userId,
    kind: input.kind,
    email: input.email,
    expiresAt: new Date(now + (input.kind === 'reset' ? RESET_TTL_MS : VERIFY_TTL_MS)),
    createdAt: new Date(now),
  });
  return id;
}

/** An unused, unexpired link of this kind (without using it up). */
export async function peekOneTimeId(ctx: AppContext, id: string, kind: 'verify' | 'reset') {
  const [row] = await ctx.db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.idHash, hashId(id)),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, new Date(ctx.clock.now())),
      ),
    )
    .limit(1);
  return row ?? null;
}

/** Uses the link up; null when it is unknown, used or expired (or someone else was faster). */
export async function consumeOneTimeId(ctx: AppContext, id: string, kind: 'verify' | 'reset') {
  const now = new Date(ctx.clock.now());
  const [row] = await ctx.db
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.idHash, hashId(id)),
        eq(accountTokens.kind, kind),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Voids every open link of this kind for a user (after a reset, all older reset links die). */
export async function voidOneTimeIds(
  ctx: AppContext,
  userId: string,
  kind: 'verify' | 'reset',
): Promise<void> {
  await ctx.db
    .update(accountTokens)
    .set({ usedAt: new Date(ctx.clock.now()) })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.kind, kind), isNull(accountTokens.usedAt)));
}

/** Stores a sign-up until its link is opened (docs/contract.md §4); returns the link's secret id. */
export async function issuePendingSignup(
  ctx: AppContext,
  input: { email: string; name: string; passwordHash: string; locale: string },
): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.db.insert(pendingSignups).values({
    idHash: hashId(id),
    ...input,
    expiresAt: new Date(now + VERIFY_TTL_MS),
    createdAt: new Date(now),
  });
  return id;
}

/**
 * Deletes the sign-ups confirmed or expired: they are of no use and hold a name, an address and
 * a password hash. Every sign-up call runs it, whichever branch it takes.
 */
export async function sweepPendingSignups(ctx: AppContext): Promise<void> {
  await ctx.db
    .delete(pendingSignups)
    .where(or(isNotNull(pendingSignups.usedAt), lte(pendingSignups.expiresAt, new Date(ctx.clock.now()))));
}

/** Uses a sign-up link up; null when it is unknown, used or expired (or someone else was faster). */
export async function consumePendingSignup(ctx: AppContext, id: string) {
  const now = new Date(ctx.clock.now());
  const [row] = await ctx.db
    .update(pendingSignups)
    .set({ usedAt: now })
    .where(
      and(
        eq(pendingSignups.idHash, hashId(id)),
        isNull(pendingSignups.usedAt),
        gt(pendingSignups.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}
