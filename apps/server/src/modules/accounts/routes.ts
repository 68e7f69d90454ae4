/**
 * The accounts module's plugin (docs/contract.md §4, §7): sign-up, login, token refresh, e-mail
 * verification, password reset, the own profile and settings, voice-server (TeamSpeak) linking,
 * and users as other players see them (the directory, the user card). The handlers check the
 * request and call the rules: credentials.ts, profile.ts, voice-link.ts, directory.ts.
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
  forgotBodySchema,
  forgotResponseSchema,
  idParamsSchema,
  isId,
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
  TOKEN_VALIDITY_MINUTES,
  teamSpeakCodeBodySchema,
  tokenResponseSchema,
  userCardSchema,
  usersPageSchema,
  usersQuerySchema,
  verifyBodySchema,
  verifyResponseSchema,
  voiceIdentitySchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/errors';
import { bearerToken, currentUser, requireAuth } from '../auth';
import { recentResultsColumn, reliabilityColumn } from '../matches';
import { changePassword, logIn, resetPassword, sendResetLink, signUp, verifyLink } from './credentials';
import { directory, userCard } from './directory';
import { ownProfile, updateProfile } from './profile';
import { rateLimiter } from './rate-limit';
import { dummyPasswordHash } from './service';
import { localeFromHeader } from './session';
import { checkVoiceLinkCode, sendVoiceLinkCode, unlinkedVoiceIdentities, unlinkVoice } from './voice-link';

// Auth before validation: without a valid token the answer is 401 whatever the body.
const auth = { preValidation: requireAuth } as const;

export function accountsModule(ctx: AppContext): FastifyPluginAsyncZod {
  const limit = (bucket: string) => rateLimiter(ctx, bucket);

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
        await signUp(ctx, body, locale, request.log);
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
        return logIn(ctx, request.body.email, request.body.password);
      },
    );

    app.get(
      '/api/token',
      {
        ...auth,
        schema: {
          tags: ['accounts'],
          summary: `A fresh session token (valid ${TOKEN_VALIDITY_MINUTES} minutes)`,
          response: { 200: tokenResponseSchema },
        },
      },
      async (request) => {
        const row = currentUser(request);
        return ctx.tokens.sign(row.id, row.sessionGeneration);
      },
    );

    // --- Verification and password reset ---

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
        return verifyLink(ctx, request.body.id);
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
        await sendResetLink(ctx, request.body.email, request.log);
        return { sent: true as const, email: request.body.email };
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
        await resetPassword(ctx, request.body.id, request.body.password);
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
        return ownProfile(ctx, currentUser(request));
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
        return updateProfile(ctx, currentUser(request), request.body, request.log);
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
        const { oldPassword, newPassword } = request.body;
        const keepToken = bearerToken(request.headers.authorization) ?? undefined;
        return changePassword(ctx, currentUser(request), oldPassword, newPassword, keepToken);
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
        currentUser(request);
        return unlinkedVoiceIdentities(ctx);
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
        await sendVoiceLinkCode(ctx, currentUser(request), request.body.teamSpeakId, request.log);
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
        const { teamSpeakId, code } = request.body;
        return { success: await checkVoiceLinkCode(ctx, currentUser(request), teamSpeakId, code) };
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
        await unlinkVoice(ctx, currentUser(request));
        return { success: true };
      },
    );

    // --- Users as other players see them ---

    app.get(
      '/api/users',
      {
        onRequest: requireAuth,
        schema: {
          tags: ['users'],
          summary: 'Player directory: paged, sorted by name|elo|createdAt, filter = name substring',
          security: [{ bearer: [] }],
          querystring: usersQuerySchema,
          response: { 200: usersPageSchema },
        },
      },
      async (request) => {
        return directory(ctx, request.query, currentUser(request).role === 'ADMIN');
      },
    );

    app.get(
      '/api/users/:id',
      {
        schema: {
          tags: ['users'],
          summary: 'Public user card: name, avatar, Steam link, Elo, rank, status, recent results',
          params: idParamsSchema,
          response: { 200: userCardSchema },
        },
      },
      async (request) => {
        if (!isId(request.params.id)) throw badRequest('ID_MALFORMED');
        const card = await userCard(ctx, request.params.id, {
          recentResults: recentResultsColumn,
          reliability: reliabilityColumn,
        });
        if (!card) throw notFound();
        return card;
      },
    );
  };
}
