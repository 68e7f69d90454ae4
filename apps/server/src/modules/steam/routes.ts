/**
 * Steam module: login and linking through Steam OpenID 2.0.
 *
 * - `GET /api/steam` (opened in the popup) redirects to the provider (checkid_setup) with
 *   return_to `PUBLIC_URL/api/steam/return` and realm `PUBLIC_URL/`.
 * - `GET /api/steam/return` verifies the assertion with the provider (check_authentication) and
 *   answers an HTML page that posts `{type:'openpug:steam', steamId: <ticket>}` to
 *   `window.opener`, targeted at PUBLIC_URL's origin, then closes. The ticket is a signed JWT
 *   valid 5 minutes, never the bare SteamID.
 * - `POST /api/steam/login {steamId: ticket}` logs in or creates the account (name null → the
 *   web shows the name dialog); `POST /api/steam {steamId: ticket}` links Steam to the logged-in
 *   account (409 STEAM_ALREADY_EXIST when another account has it).
 *
 * Provider: STEAM_OPENID_URL; unset → Steam, or with dev tools on the dev identity provider at
 * `PUBLIC_URL/api/dev/openid/login` (modules/dev). With STEAM_API_KEY, the avatar comes from
 * GetPlayerSummaries at STEAM_API_URL.
 */
import { randomBytes } from 'node:crypto';
import {
  profileSchema,
  STEAM_MESSAGE_TYPE,
  sessionResponseSchema,
  steamTicketBodySchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import { badRequest, conflict } from '../../lib/errors';
import { rateLimiter, sessionResponse } from '../accounts';
import {
  createUser,
  findUserBySteamId,
  rankOfUser,
  toProfile,
  type UserPatch,
  type UserRow,
  updateUser,
} from '../accounts/service';
import { currentUser, requireAuth } from '../auth';
import { claimNonce } from './nonces';
import { authRedirectUrl, devOpenIdUrl, OpenIdError, verifyAssertion } from './openid';
import { csgoIdOf, steamUrlOf } from './steamid';
import { signSteamTicket, verifySteamTicket } from './ticket';

export const STEAM_OPENID_DEFAULT = 'https://steamcommunity.com/openid/login';

/** The OpenID provider in use. */
export function steamProviderUrl(config: Config): string {
  return config.STEAM_OPENID_URL ?? (config.DEV_TOOLS ? devOpenIdUrl(config) : STEAM_OPENID_DEFAULT);
}
const OPENID_RETURN_FIELDS = [
  'openid.ns',
  'openid.mode',
  'openid.op_endpoint',
  'openid.claimed_id',
  'openid.identity',
  'openid.return_to',
  'openid.response_nonce',
  'openid.assoc_handle',
  'openid.signed',
  'openid.sig',
] as const;

export const steamReturnUrl = (config: Config) => `${config.PUBLIC_URL}/api/steam/return`;

/** Avatar (and persona name) from the Steam Web API; null without a key or on any failure. */
export async function fetchSteamSummary(
  config: Config,
  steamId: string,
): Promise<{ avatar: string | null; name: string | null } | null> {
  if (!config.STEAM_API_KEY) return null;
  try {
    const url = new URL(`${config.STEAM_API_URL.replace(/\/$/, '')}/ISteamUser/GetPlayerSummaries/v0002/`);
    url.searchParams.set('key', config.STEAM_API_KEY);
    url.searchParams.set('steamids', steamId);
    const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    if (!res.ok) return null;
    const body = (await res.json()) as {
      response?: { players?: Array<{ steamid?: string; avatarfull?: string; personaname?: string }> };
    };
    const player = body.response?.players?.find((p) => p.steamid === steamId);
    if (!player) return null;
    return { avatar: player.avatarfull ?? null, name: player.personaname ?? null };
  } catch {
    return null;
  }
}

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
/** JSON safe inside a <script> element. */
const scriptJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028|\u2029/g, '');

export function popupPage(targetOrigin: string, message: object, text: string, nonce: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>openpug – Steam</title>
<style>body{background:#121212;color:#eee;font-family:system-ui,sans-serif;display:grid;place-items:center;height:100vh;margin:0}</style>
</head><body><p id="msg">${escapeHtml(text)}</p>
<script nonce="${nonce}">
(function () {
  var message = ${scriptJson(message)};
  if (window.opener) { window.opener.postMessage(message, ${scriptJson(targetOrigin)}); window.close(); }
})();
</script></body></html>`;
}

export function steamModule(ctx: AppContext): FastifyPluginAsyncZod {
  const targetOrigin = new URL(ctx.config.PUBLIC_URL).origin;

  const steamFields = async (steamId: string): Promise<UserPatch> => {
    const summary = await fetchSteamSummary(ctx.config, steamId);
    return {
      steamId,
      csgoId: csgoIdOf(steamId),
      steamUrl: steamUrlOf(steamId),
      ...(summary?.avatar ? { avatar: summary.avatar } : {}),
    };
  };

  const ticketOf = async (ticket: string): Promise<string> => {
    const steamId = await verifySteamTicket(ctx.tokens.secret, ticket, ctx.clock.now());
    // 400, not 401: a bad ticket must not log a signed-in user out.
    if (!steamId) throw badRequest('BAD_TOKEN');
    return steamId;
  };

  return async (app) => {
    app.get(
      '/api/steam',
      {
        schema: {
          tags: ['steam'],
          summary: 'Starts Steam OpenID login (open in a popup, 600 wide, ≥ 630 high)',
        },
      },
      async (_request, reply) => {
        const url = authRedirectUrl(
          steamProviderUrl(ctx.config),
          steamReturnUrl(ctx.config),
          `${ctx.config.PUBLIC_URL}/`,
        );
        return reply.redirect(url, 302);
      },
    );

    app.get(
      '/api/steam/return',
      {
        schema: {
          tags: ['steam'],
          summary: 'OpenID return: verifies with the provider and posts a signed ticket to the opener',
          // The OpenID 2.0 positive assertion (OpenID Authentication 2.0 §10.1); every field is sent
          // back unchanged to check_authentication, so unknown ones pass through. Named fields (not a
          // record) so the OpenAPI document describes real query parameters.
          querystring: z.looseObject(
            Object.fromEntries(OPENID_RETURN_FIELDS.map((field) => [field, z.string().optional()])),
          ),
        },
      },
      async (request, reply) => {
        const query: Record<string, string> = {};
        for (const [k, v] of Object.entries(request.query)) if (typeof v === 'string') query[k] = v;
        const nonce = randomBytes(16).toString('base64');
        reply
          .header('content-type', 'text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .header(
            'content-security-policy',
            `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'`,
          );
        try {
          const steamId = await verifyAssertion(query, {
            providerUrl: steamProviderUrl(ctx.config),
            returnTo: steamReturnUrl(ctx.config),
            now: ctx.clock.now(),
            claimNonce: (nonce) => claimNonce(ctx, nonce),
          });
          const ticket = await signSteamTicket(ctx.tokens.secret, steamId, ctx.clock.now());
          return reply.send(
            popupPage(
              targetOrigin,
              { type: STEAM_MESSAGE_TYPE, steamId: ticket },
              'Signed in with Steam. You can close this window.',
              nonce,
            ),
          );
        } catch (err) {
          const reason = err instanceof OpenIdError ? err.message : 'error';
          request.log.warn({ reason }, 'Steam OpenID assertion refused');
          return reply
            .status(400)
            .send(
              popupPage(
                targetOrigin,
                { type: STEAM_MESSAGE_TYPE, error: 'BAD_TOKEN' },
                'Steam login failed. Please try again.',
                nonce,
              ),
            );
        }
      },
    );

    app.post(
      '/api/steam/login',
      {
        onRequest: rateLimiter(ctx, 'steamLogin'),
        schema: {
          tags: ['steam'],
          summary: 'Log in (or sign up) with the ticket from the Steam popup',
          body: steamTicketBodySchema,
          response: { 200: sessionResponseSchema },
        },
      },
      async (request) => {
        const steamId = await ticketOf(request.body.steamId);
        let row: UserRow | null = await findUserBySteamId(ctx.db, steamId);
        if (!row) {
          try {
            row = await createUser(ctx, { ...(await steamFields(steamId)), name: null, locale: 'en' });
          } catch (err) {
            // Two popups at once: the other one created it.
            row = await findUserBySteamId(ctx.db, steamId);
            if (!row) throw err;
          }
        }
        return sessionResponse(ctx, row);
      },
    );

    app.post(
      '/api/steam',
      {
        preValidation: requireAuth,
        schema: {
          tags: ['steam'],
          summary: 'Link Steam to the logged-in account with the ticket from the popup',
          security: [{ bearer: [] }],
          body: steamTicketBodySchema,
          response: { 200: profileSchema },
        },
      },
      async (request) => {
        const me = currentUser(request);
        const steamId = await ticketOf(request.body.steamId);
        const owner = await findUserBySteamId(ctx.db, steamId);
        if (owner && owner.id !== me.id) throw conflict('STEAM_ALREADY_EXIST');
        const fields = await steamFields(steamId);
        if (me.avatar && fields.avatar) delete fields.avatar;
        let row: UserRow | null;
        try {
          row = await updateUser(ctx, me.id, fields);
        } catch {
          throw conflict('STEAM_ALREADY_EXIST');
        }
        if (!row) throw badRequest('USER_DOES_NOT_EXIST');
        return toProfile(row, await rankOfUser(ctx, row));
      },
    );
  };
}
