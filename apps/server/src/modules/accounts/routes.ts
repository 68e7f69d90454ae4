/**
 * Accounts HTTP API (docs/contract.md §4, §7): sign-up, login, token refresh, e-mail verification, password
 * reset, the own profile and settings, and voice-server (TeamSpeak) linking.
 *
 * Status codes of refusals: 400 WRONG_CREDENTIALS (login: unknown e-mail or wrong password, the
 * same answer after the same work) / WRONG_PASSWORD (password change), 403 BLOCKED_USER /
 * BANNER_NOT_UNLOCKED / SOUND_NOT_UNLOCKED, 404 USER_DOES_NOT_EXIST / NOT_FOUND_OR_ALREADY_VERIFIED /
 * NOT_FOUND_OR_ALREADY_USED / NOT_FOUND,
 * 409 EMAIL_ALREADY_EXISTS (e-mail change only; a sign-up never tells) / TEAMSPEAK_ALREADY_LINKED, 422 validation keys, 429 TOO_MANY_REQUESTS,
 * 401 only for a missing/invalid token (the web logs out on 401).
 *
 * A password reset or change starts a new session generation: every token issued before is a 401
 * from then on (modules/auth/tokens.ts); the change answers the caller a fresh token.
 */
import {
  changePasswordBodySchema,
  changePasswordResponseSchema,
  DEFAULT_SOUND,
  forgotBodySchema,
  forgotResponseSchema,
  linkTeamSpeakBodySchema,
  loginBodySchema,
  okResponseSchema,
  profileSchema,
  profileUpdateBodySchema,
  registerBodySchema,
  registerResponseSchema,
  resetBodySchema,
  sessionResponseSchema,
  successResponseSchema,
  teamSpeakCodeBodySchema,
  tokenResponseSchema,
  VOICE_LINK_CODE_LENGTH,
  verifyBodySchema,
  verifyResponseSchema,
  voiceIdentitySchema,
} from '@openpug/shared';
import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError, badRequest, conflict, forbidden, notFound, unauthorized } from '../../lib/errors';
import { verificationCodes } from '../../lib/verification-code';
import { bearerToken, requireAuth } from '../auth/guard';
import { unlocksOf } from '../drops/service';
import type { Email } from '../mail/mailer';
import { queueMail } from '../mail/queue';
import { VoiceIdentityNotConnectedError } from '../voice/types';
import { accountMail, resetLinkLabel, voiceCodeMessage } from './mails';
import {
  consumeOneTimeId,
  consumePendingSignup,
  issueOneTimeId,
  issuePendingSignup,
  peekOneTimeId,
  sweepPendingSignups,
  voidOneTimeIds,
} from './onetime';
import { rateLimiter } from './rate-limit';
import { users, voiceLinkCodes } from './schema';
import {
  checkLoginPassword,
  createUser,
  dummyPasswordHash,
  findUserByEmail,
  findUserById,
  hashPassword,
  localeOf,
  rankOfUser,
  setPassword,
  toProfile,
  type UserRow,
  updateUser,
  verifyPassword,
} from './service';
import { applyAdminSeed, currentUser, localeFromHeader, sessionResponse } from './session';

export const MAX_FAILED_LOGINS = 5;
export const BLOCK_MS = 2 * 60 * 60_000;
export const VOICE_CODE_TTL_MS = 10 * 60_000;
export const VOICE_CODE_MAX_ATTEMPTS = 5;

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

const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

// Auth before validation: without a valid token the answer is 401 whatever the body.
const auth = { preValidation: requireAuth } as const;

export function accountsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const limit = (bucket: string) => rateLimiter(ctx, bucket);

  /** Sends an account mail: SMTP in the background, the dev outbox at once. */
  const deliverAccountMail = async (
    kind: string,
    mail: Email,
    log: { error(obj: object, msg: string): void },
  ) => {
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
  };

  const sendAccountMail = async (
    kind: 'verify' | 'emailChange' | 'reset',
    row: UserRow,
    email: string,
    log: { error(obj: object, msg: string): void },
  ) => {
    const id = await issueOneTimeId(ctx, {
      userId: row.id,
      kind: kind === 'reset' ? 'reset' : 'verify',
      email,
    });
    const path = kind === 'reset' ? 'reset' : 'verify';
    const link = `${ctx.config.PUBLIC_URL}/${path}/${id}`;
    await deliverAccountMail(
      kind,
      accountMail(kind, localeOf(row.locale), link, email, row.id, row.name),
      log,
    );
  };

  const voiceCodes = verificationCodes(ctx, voiceLinkCodes, voiceLinkCodes.teamSpeakId, {
    purpose: 'voice',
    length: VOICE_LINK_CODE_LENGTH,
    ttlMs: VOICE_CODE_TTL_MS,
    maxAttempts: VOICE_CODE_MAX_ATTEMPTS,
  });

  return async (app) => {
    app.addHook('onClose', async () => {
      await ctx.mailer.close();
    });
    // Hashed once now, so the first login of an unknown address takes no longer than the others.
    app.addHook('onReady', async () => {
      await dummyPasswordHash();
    });

    // --- Sign-up, login, token ---

    app.post(
      '/api/register',
      {
        onRequest: limit('register'),
        schema: {
          tags: ['accounts'],
          summary:
            'Sign up with name, e-mail and password; the account exists once the mailed link is opened',
          body: registerBodySchema,
          response: { 202: registerResponseSchema },
        },
      },
      async (request, reply) => {
        const body = request.body;
        const locale = body.locale ?? localeFromHeader(request.headers['accept-language']);
        // Both branches do the same work (one argon2 hash, one lookup, one mail) and give the same
        // answer, so a sign-up never tells whether an address has an account (docs/contract.md §4).
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
          await deliverAccountMail('signupExisting', mail, request.log);
        } else {
          const id = await issuePendingSignup(ctx, {
            email: body.email,
            name: body.name,
            passwordHash,
            locale,
          });
          const link = `${ctx.config.PUBLIC_URL}/verify/${id}`;
          const mail = accountMail('verify', localeOf(locale), link, body.email, null, body.name);
          await deliverAccountMail('verify', mail, request.log);
        }
        return reply.status(202).send({ sent: true as const, email: body.email });
      },
    );

    app.post(
      '/api/login',
      {
        onRequest: limit('login'),
        schema: {
          tags: ['accounts'],
          summary: 'Log in with e-mail and password (5 failures block the account for 2 hours)',
          body: loginBodySchema,
          response: { 200: sessionResponseSchema },
        },
      },
      async (request) => {
        const { email, password } = request.body;
        const row = await findUserByEmail(ctx.db, email);
        if (!row) {
          // The same work and the same answer as a wrong password: nobody learns whether an
          // account has this address.
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
      },
    );

    app.get(
      '/api/token',
      {
        ...auth,
        schema: {
          tags: ['accounts'],
          summary: 'A fresh session token (valid 1440 minutes)',
          response: { 200: tokenResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        return ctx.tokens.sign(row.id, row.sessionGeneration);
      },
    );

    // --- Verification and password reset ---

    /** A sign-up link: creates the account (verified) and signs it in; 404 when the address was taken meanwhile. */
    const confirmSignup = async (id: string) => {
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
    };

    app.post(
      '/api/verify',
      {
        onRequest: limit('verify'),
        schema: {
          tags: ['accounts'],
          summary: 'Verify the e-mail address with the id from the verification link',
          body: verifyBodySchema,
          response: { 200: verifyResponseSchema },
        },
      },
      async (request) => {
        const { id } = request.body;
        const token = await peekOneTimeId(ctx, id, 'verify');
        if (!token) return confirmSignup(id);
        const row = token ? await findUserById(ctx.db, token.userId) : null;
        // The link only counts for the address it was sent to, while that is still the account's.
        if (!token || !row || row.verified || row.email !== token.email)
          throw notFound('NOT_FOUND_OR_ALREADY_VERIFIED');
        if (!(await consumeOneTimeId(ctx, id, 'verify'))) throw notFound('NOT_FOUND_OR_ALREADY_VERIFIED');
        const verified = await updateUser(ctx, row.id, { verified: true });
        if (verified) await applyAdminSeed(ctx, verified);
        return { verified: true };
      },
    );

    app.post(
      '/api/forgot',
      {
        onRequest: limit('forgot'),
        schema: {
          tags: ['accounts'],
          summary: 'Send a password-reset link (same answer whether or not the account exists)',
          body: forgotBodySchema,
          response: { 200: forgotResponseSchema },
        },
      },
      async (request) => {
        const { email } = request.body;
        const row = await findUserByEmail(ctx.db, email);
        if (row?.email) await sendAccountMail('reset', row, row.email, request.log);
        return { sent: true as const, email };
      },
    );

    app.post(
      '/api/reset',
      {
        onRequest: limit('reset'),
        schema: {
          tags: ['accounts'],
          summary: 'Set a new password with the id from the reset link (single use, 1 hour)',
          body: resetBodySchema,
          response: { 200: okResponseSchema },
        },
      },
      async (request) => {
        const { id, password } = request.body;
        if (!(await peekOneTimeId(ctx, id, 'reset'))) throw notFound('NOT_FOUND_OR_ALREADY_USED');
        const passwordHash = await hashPassword(password);
        const token = await consumeOneTimeId(ctx, id, 'reset');
        if (!token) throw notFound('NOT_FOUND_OR_ALREADY_USED');
        // Ends every session of the account (a reset is what someone does whose password leaked)
        // and lifts a login block: the mail proves the owner.
        const row = await setPassword(ctx, token.userId, passwordHash, {
          failedLogins: 0,
          blockedUntil: null,
        });
        if (!row) throw notFound('NOT_FOUND_OR_ALREADY_USED');
        await voidOneTimeIds(ctx, row.id, 'reset');
        return { ok: true as const };
      },
    );

    // --- Profile ---

    app.get(
      '/api/profile',
      {
        ...auth,
        schema: { tags: ['profile'], summary: 'The own profile', response: { 200: profileSchema } },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        return toProfile(row, await rankOfUser(ctx, row));
      },
    );

    app.patch(
      '/api/profile',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Change name, e-mail (re-verification), sound, banner (only unlocked) or language',
          body: profileUpdateBodySchema,
          response: { 200: profileSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        const body = request.body;
        const patch: Partial<UserRow> = {};
        if (body.banner !== undefined && body.banner !== row.banner) {
          if (!row.unlockedBanners.includes(body.banner)) throw forbidden('BANNER_NOT_UNLOCKED');
          patch.banner = body.banner;
        }
        // Sounds are unlocked by drops (none stored on the user); the default is everybody's.
        if (body.sound !== undefined && body.sound !== row.sound) {
          if (body.sound !== DEFAULT_SOUND && !(await unlocksOf(ctx, row.id)).sounds.includes(body.sound))
            throw forbidden('SOUND_NOT_UNLOCKED');
          patch.sound = body.sound;
        }
        const emailChanged = body.email !== undefined && body.email !== row.email;
        if (emailChanged && body.email) {
          const other = await findUserByEmail(ctx.db, body.email);
          if (other && other.id !== row.id) throw conflict('EMAIL_ALREADY_EXISTS');
          patch.email = body.email;
          patch.verified = false;
        }
        if (body.name !== undefined) patch.name = body.name;
        if (body.locale !== undefined) patch.locale = body.locale;
        let updated: UserRow | null;
        try {
          updated = await updateUser(ctx, row.id, patch);
        } catch (err) {
          if (isUniqueViolation(err)) throw conflict('EMAIL_ALREADY_EXISTS');
          throw err;
        }
        if (!updated) throw notFound('USER_DOES_NOT_EXIST');
        if (emailChanged && updated.email)
          await sendAccountMail('emailChange', updated, updated.email, request.log);
        return toProfile(updated, await rankOfUser(ctx, updated));
      },
    );

    app.post(
      '/api/profile/changePassword',
      {
        ...auth,
        onRequest: limit('password'),
        schema: {
          tags: ['profile'],
          summary:
            'Change the password (needs the current one); signs out every other session and answers a fresh token',
          body: changePasswordBodySchema,
          response: { 200: changePasswordResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        if (!(await verifyPassword(row.passwordHash, request.body.oldPassword)))
          throw badRequest('WRONG_PASSWORD');
        const updated = await setPassword(
          ctx,
          row.id,
          await hashPassword(request.body.newPassword),
          {},
          bearerToken(request.headers.authorization) ?? undefined,
        );
        if (!updated) throw unauthorized('BAD_TOKEN');
        // The caller's own token died with the old generation: it carries on with this one.
        return { ok: true as const, ...(await ctx.tokens.sign(updated.id, updated.sessionGeneration)) };
      },
    );

    // --- Voice server (TeamSpeak) linking ---

    app.get(
      '/api/profile/teamSpeakUsers',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Connected voice identities that no account has linked yet',
          response: { 200: z.array(voiceIdentitySchema) },
        },
      },
      async (request) => {
        await currentUser(ctx, request);
        const connected = await ctx.voice.listClients();
        if (connected.length === 0) return [];
        const linked = await ctx.db
          .select({ id: users.teamSpeakId })
          .from(users)
          .where(
            inArray(
              users.teamSpeakId,
              connected.map((c) => c.id),
            ),
          );
        const taken = new Set(linked.map((l) => l.id));
        return connected.filter((c) => !taken.has(c.id));
      },
    );

    app.post(
      '/api/profile/linkTeamSpeak',
      {
        ...auth,
        onRequest: limit('voiceLink'),
        schema: {
          tags: ['profile'],
          summary: 'The voice bot sends a 4-digit code to this identity (valid 10 minutes)',
          body: linkTeamSpeakBodySchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        const { teamSpeakId } = request.body;
        if (!(await ctx.voice.isConnected(teamSpeakId))) throw notFound('NOT_FOUND');
        const [owner] = await ctx.db
          .select({ id: users.id })
          .from(users)
          .where(eq(users.teamSpeakId, teamSpeakId));
        if (owner && owner.id !== row.id) throw conflict('TEAMSPEAK_ALREADY_LINKED');
        await voiceCodes.issue(row.id, teamSpeakId, async (code) => {
          try {
            await ctx.voice.sendPrivateMessage(teamSpeakId, voiceCodeMessage(localeOf(row.locale), code));
          } catch (err) {
            if (err instanceof VoiceIdentityNotConnectedError) throw notFound('NOT_FOUND');
            request.log.error({ err }, 'voice bot message failed');
            throw new AppError(503, 'SERVER_TIMEOUT_CONNECTION_ERROR');
          }
        });
        return { success: true };
      },
    );

    app.post(
      '/api/profile/teamSpeakCode',
      {
        ...auth,
        onRequest: limit('voiceCode'),
        schema: {
          tags: ['profile'],
          summary: 'Check the code from the voice bot; on success the identity is linked',
          body: teamSpeakCodeBodySchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        const { teamSpeakId, code } = request.body;
        // Someone else may have linked this identity since the code was sent.
        const unclaimed = async () => {
          const [owner] = await ctx.db
            .select({ id: users.id })
            .from(users)
            .where(eq(users.teamSpeakId, teamSpeakId));
          if (owner && owner.id !== row.id) throw conflict('TEAMSPEAK_ALREADY_LINKED');
        };
        if (!(await voiceCodes.check(row.id, teamSpeakId, code, unclaimed))) return { success: false };
        // The nickname it has now (the code just reached it there), so Settings can name it.
        const teamSpeakName =
          (await ctx.voice.listClients()).find((client) => client.id === teamSpeakId)?.name || null;
        try {
          await updateUser(ctx, row.id, { teamSpeakId, teamSpeakName });
        } catch (err) {
          if (isUniqueViolation(err)) throw conflict('TEAMSPEAK_ALREADY_LINKED');
          throw err;
        }
        await ctx.bus.emit('status.patch', {
          userId: row.id,
          patch: { teamSpeak: await ctx.voice.isConnected(teamSpeakId) },
        });
        return { success: true };
      },
    );

    app.post(
      '/api/profile/unlinkTeamSpeak',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Unlink the voice identity',
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        await voiceCodes.discard(row.id);
        if (row.teamSpeakId) {
          await updateUser(ctx, row.id, { teamSpeakId: null, teamSpeakName: null });
          await ctx.bus.emit('status.patch', { userId: row.id, patch: { teamSpeak: false } });
        }
        return { success: true };
      },
    );
  };
}
