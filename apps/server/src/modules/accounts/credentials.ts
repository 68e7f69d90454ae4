/**
 * Sign-up, login, the verification and reset links and the password change: what the routes of
 * routes.ts call (docs/contract.md §4). The refusals are the catalogue keys listed in routes.ts.
 */
import type { Locale, SessionResponse } from '@openpug/shared';
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { badRequest, forbidden, notFound, unauthorized } from '../../lib/errors';
import { type Email, queueMail } from '../mail/service';
import { accountMail, resetLinkLabel } from './mails';
import {
  consumeOneTimeId,
  consumePendingSignup,
  issueOneTimeId,
  issuePendingSignup,
  peekOneTimeId,
  sweepPendingSignups,
  voidOneTimeIds,
} from './onetime';
import { users } from './schema';
import {
  checkLoginPassword,
  createUser,
  findUserByEmail,
  findUserById,
  hashPassword,
  localeOf,
  setPassword,
  type UserRow,
  updateUser,
  verifyPassword,
} from './service';
import { applyAdminSeed, sessionResponse } from './session';

export const MAX_FAILED_LOGINS = 5;
export const BLOCK_MS = 2 * 60 * 60_000;

/** Where a failure to store an account mail is logged (the request's logger). */
export type MailLog = { error(obj: object, msg: string): void };

export const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/** Sends an account mail: SMTP in the background, the dev outbox at once. */
export async function deliverAccountMail(
  ctx: AppContext,
  kind: string,
  mail: Email,
  log: MailLog,
): Promise<void> {
  try {
    if (ctx.mailer.kind === 'smtp') {
      // Stored and sent by a job (mail/queue.ts): a slow or unreachable mail server neither holds
      // nor undoes the sign-up, and a crash does not lose the mail; retried with the notifiers'
      // back-off, each attempt logged without the address or link, failures in /metrics.
      await queueMail(ctx, kind, mail);
    } else {
      await ctx.mailer.send(mail); // the dev outbox: stored at once, readable right away
    }
  } catch (err) {
    log.error({ err, kind }, 'storing account e-mail failed');
  }
}

/** A verification, e-mail change or reset link to `email`. */
export async function sendAccountMail(
  ctx: AppContext,
  kind: 'verify' | 'emailChange' | 'reset',
  row: UserRow,
  email: string,
  log: MailLog,
): Promise<void> {
  const id = await issueOneTimeId(ctx, {
    userId: row.id,
    kind: kind === 'reset' ? 'reset' : 'verify',
    email,
  });
  const path = kind === 'reset' ? 'reset' : 'verify';
  const link = `${ctx.config.PUBLIC_URL}/${path}/${id}`;
  await deliverAccountMail(
    ctx,
    kind,
    accountMail(kind, localeOf(row.locale), link, email, row.id, row.name),
    log,
  );
}

/**
 * A sign-up: a verification link to a new address, a "you already have an account" mail to a
 * known one. Both branches do the same work (one argon2 hash, one lookup, one mail) and the caller
 * gives the same answer, so a sign-up never tells whether an address has an account
 * (docs/contract.md §4).
 */
export async function signUp(
  ctx: AppContext,
  body: { email: string; name: string; password: string },
  locale: Locale,
  log: MailLog,
): Promise<void> {
  const [existing, passwordHash] = await Promise.all([
    findUserByEmail(ctx.db, body.email),
    hashPassword(body.password),
    sweepPendingSignups(ctx),
  ]);
  if (existing?.email) {
    const ownerLocale = localeOf(existing.locale);
    const mail = accountMail(
      'signupExisting',
      ownerLocale,
      `${ctx.config.PUBLIC_URL}/login`,
      existing.email,
      existing.id,
      existing.name,
      { label: resetLinkLabel(ownerLocale), link: `${ctx.config.PUBLIC_URL}/forgot` },
    );
    await deliverAccountMail(ctx, 'signupExisting', mail, log);
  } else {
    const id = await issuePendingSignup(ctx, { email: body.email, name: body.name, passwordHash, locale });
    const link = `${ctx.config.PUBLIC_URL}/verify/${id}`;
    const mail = accountMail('verify', localeOf(locale), link, body.email, null, body.name);
    await deliverAccountMail(ctx, 'verify', mail, log);
  }
}

/**
 * Claims one login attempt before the password is hashed: one conditional UPDATE, so concurrent
 * attempts are counted one after another and at most MAX_FAILED_LOGINS of them reach the hash.
 * Every attempt counts as a failure until it succeeds; the attempt that takes the last slot
 * blocks the account for BLOCK_MS right away (its success lifts the block again). An expired
 * block starts the count afresh. Returns the attempt's number, or null while the account is blocked.
 */
async function claimLoginAttempt(ctx: AppContext, userId: string, now: number): Promise<number | null> {
  const count = sql`(CASE WHEN ${users.blockedUntil} IS NOT NULL THEN 0 ELSE LEAST(${users.failedLogins}, ${MAX_FAILED_LOGINS - 1}) END) + 1`;
  const blockUntil = new Date(now + BLOCK_MS).toISOString();
  const [claimed] = await ctx.db
    .update(users)
    .set({
      failedLogins: count,
      blockedUntil: sql`CASE WHEN ${count} >= ${MAX_FAILED_LOGINS} THEN ${blockUntil}::timestamptz ELSE NULL END`,
    })
    .where(and(eq(users.id, userId), or(isNull(users.blockedUntil), lte(users.blockedUntil, new Date(now)))))
    .returning({ failedLogins: users.failedLogins });
  return claimed ? claimed.failedLogins : null;
}

/** Login with e-mail and password; the session answer, or WRONG_CREDENTIALS / BLOCKED_USER. */
export async function logIn(ctx: AppContext, email: string, password: string): Promise<SessionResponse> {
  const row = await findUserByEmail(ctx.db, email);
  if (!row) {
    // The same work and the same answer as a wrong password: nobody learns whether an account
    // has this address.
    await checkLoginPassword(null, password);
    throw badRequest('WRONG_CREDENTIALS');
  }
  const attempt = await claimLoginAttempt(ctx, row.id, ctx.clock.now());
  if (attempt === null) throw forbidden('BLOCKED_USER');
  if (!(await checkLoginPassword(row.passwordHash, password))) {
    // The attempt that took the last slot has already blocked the account.
    if (attempt >= MAX_FAILED_LOGINS) throw forbidden('BLOCKED_USER');
    throw badRequest('WRONG_CREDENTIALS');
  }
  const current = (await updateUser(ctx, row.id, { failedLogins: 0, blockedUntil: null })) ?? row;
  return sessionResponse(ctx, current);
}

/** A sign-up link: creates the account (verified) and signs it in; 404 when the address was taken meanwhile. */
async function confirmSignup(ctx: AppContext, id: string) {
  const signup = await consumePendingSignup(ctx, id);
  if (!signup || (await findUserByEmail(ctx.db, signup.email)))
    throw notFound('NOT_FOUND_OR_ALREADY_VERIFIED');
  let row: UserRow;
  try {
    row = await createUser(ctx, {
      email: signup.email,
      name: signup.name,
      passwordHash: signup.passwordHash,
      locale: localeOf(signup.locale),
      role: 'USER',
      verified: true,
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw notFound('NOT_FOUND_OR_ALREADY_VERIFIED');
    throw err;
  }
  return { verified: true, session: await sessionResponse(ctx, await applyAdminSeed(ctx, row)) };
}

/** The id of a verification link: a sign-up's (creates the account) or an address change's. */
export async function verifyLink(
  ctx: AppContext,
  id: string,
): Promise<{ verified: boolean; session?: SessionResponse }> {
  const token = await peekOneTimeId(ctx, id, 'verify');
  if (!token) return confirmSignup(ctx, id);
  const row = await findUserById(ctx.db, token.userId);
  // The link only counts for the address it was sent to, while that is still the account's.
  if (!row || row.verified || row.email !== token.email) throw notFound('NOT_FOUND_OR_ALREADY_VERIFIED');
  if (!(await consumeOneTimeId(ctx, id, 'verify'))) throw notFound('NOT_FOUND_OR_ALREADY_VERIFIED');
  const verified = await updateUser(ctx, row.id, { verified: true });
  if (verified) await applyAdminSeed(ctx, verified);
  return { verified: true };
}

/** A reset link to the address, if an account has it (the caller answers the same either way). */
export async function sendResetLink(ctx: AppContext, email: string, log: MailLog): Promise<void> {
  const row = await findUserByEmail(ctx.db, email);
  if (row?.email) await sendAccountMail(ctx, 'reset', row, row.email, log);
}

/** A new password with the id of a reset link (single use). */
export async function resetPassword(ctx: AppContext, id: string, password: string): Promise<void> {
  if (!(await peekOneTimeId(ctx, id, 'reset'))) throw notFound('NOT_FOUND_OR_ALREADY_USED');
  const passwordHash = await hashPassword(password);
  const token = await consumeOneTimeId(ctx, id, 'reset');
  if (!token) throw notFound('NOT_FOUND_OR_ALREADY_USED');
  // Ends every session of the account (a reset is what someone does whose password leaked) and
  // lifts a login block: the mail proves the owner.
  const row = await setPassword(ctx, token.userId, passwordHash, { failedLogins: 0, blockedUntil: null });
  if (!row) throw notFound('NOT_FOUND_OR_ALREADY_USED');
  await voidOneTimeIds(ctx, row.id, 'reset');
}

/**
 * The password change (the current one is needed): ends every other session and answers a fresh
 * token, since the caller's own (`keepToken`) died with the old generation.
 */
export async function changePassword(
  ctx: AppContext,
  row: UserRow,
  oldPassword: string,
  newPassword: string,
  keepToken: string | undefined,
) {
  if (!(await verifyPassword(row.passwordHash, oldPassword))) throw badRequest('WRONG_PASSWORD');
  const updated = await setPassword(ctx, row.id, await hashPassword(newPassword), {}, keepToken);
  if (!updated) throw unauthorized('BAD_TOKEN');
  return { ok: true as const, ...(await ctx.tokens.sign(updated.id, updated.sessionGeneration)) };
}
