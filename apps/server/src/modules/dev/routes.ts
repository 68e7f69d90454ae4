/**
 * Dev tools (only when `ctx.config.DEV_TOOLS`, never with NODE_ENV=production):
 *
 * - `GET /api/dev/outbox?to=<address-or-user-id>` → `{docs:[{_id, channel, to, subject, text,
 *   createdAt}]}` newest first, and the same as a page at `/dev/outbox`. The outbox holds every
 *   account's verification and reset links, so only a client on this machine (loopback, after
 *   TRUST_PROXY) or an admin's Bearer token may read it: 401 anonymous, 403 for a player.
 * - `POST /api/dev/voice/identities {name}` → `{id, name}`: a simulated voice identity connects;
 *   `DELETE /api/dev/voice/identities/:id` disconnects it (simulated voice server only).
 * - `POST /api/dev/simulator/presence {userId, onServer}` → `{ok: true}`: the embedded game
 *   server keeps a player off its servers (a no-show before the game, a leaver once live) or lets
 *   them on again (simulator provider only; loopback or an admin's token).
 * - The dev identity provider standing in for Steam: a tiny OpenID 2.0 provider at
 *   `/api/dev/openid/login`. GET (checkid_setup) shows a page where you pick a SteamID64;
 *   approving redirects to the relying party's return_to with a positive assertion signed with
 *   HMAC-SHA256; POST (check_authentication) answers `is_valid:true` only for an untampered,
 *   unused assertion. The Steam module's normal return handler verifies it exactly as it would
 *   verify Steam's.
 */
import { createHmac, randomBytes } from 'node:crypto';
import {
  devVoiceIdentityBodySchema,
  outboxQuerySchema,
  outboxResponseSchema,
  voiceIdentitySchema,
} from '@openpug/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../lib/errors';
import { isLoopbackAddress } from '../../lib/outbound';
import { sameSecret } from '../../lib/secrets';
import { findUserById } from '../accounts/service';
import { requireAdmin } from '../auth';
import { providerOf, SimulatorProvider } from '../gameservers/service';
import { listOutbox } from '../mail/service';
import { rosterKey } from '../matches';
import { claimedIdPrefix, devOpenIdUrl, OPENID_NS } from '../steam';
import { SimulatedVoiceServer } from '../voice';

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
const linkify = (s: string) => escapeHtml(s).replace(/https?:\/\/[^\s<]+/g, (u) => `<a href="${u}">${u}</a>`);

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{background:#121212;color:#e0e0e0;font-family:system-ui,sans-serif;margin:0;padding:24px;max-width:900px}
h1{font-size:20px}a{color:#90caf9}.msg{border:1px solid #333;border-radius:8px;padding:12px;margin:12px 0;background:#1e1e1e}
.meta{color:#9e9e9e;font-size:13px}pre{white-space:pre-wrap;font-family:inherit}
input,button{font-size:16px;padding:8px;border-radius:6px;border:1px solid #555;background:#2a2a2a;color:#eee}
button{background:#1976d2;border-color:#1976d2;cursor:pointer}
</style></head><body>${body}</body></html>`;

/**
 * The client's own address (request.ip honours X-Forwarded-For only from TRUST_PROXY peers) on
 * loopback, or else an admin's token. Runs before validation, like the other guards.
 */
async function loopbackOrAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (isLoopbackAddress(request.ip)) return;
  await requireAdmin(request, reply);
}

const randomSteamId64 = () => (76561197960265728n + BigInt(randomBytes(4).readUInt32BE(0)) + 1n).toString();

export function devModule(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    if (!ctx.config.DEV_TOOLS) return;

    // --- Outbox ---

    app.get(
      '/api/dev/outbox',
      {
        preValidation: loopbackOrAdmin,
        schema: {
          tags: ['dev'],
          summary: 'Dev outbox: every message the product would have sent, newest first',
          querystring: outboxQuerySchema,
          response: { 200: outboxResponseSchema },
        },
      },
      async (request) => ({ docs: await listOutbox(ctx.db, request.query.to) }),
    );

    app.get(
      '/dev/outbox',
      { preValidation: loopbackOrAdmin, schema: { hide: true, querystring: outboxQuerySchema } },
      async (request, reply) => {
        const docs = await listOutbox(ctx.db, request.query.to);
        const items = docs
          .map(
            (m) =>
              `<div class="msg"><div class="meta">${escapeHtml(m.channel)} · to ${escapeHtml(m.to)} · ${new Date(
                m.createdAt,
              ).toISOString()}</div><strong>${escapeHtml(m.subject)}</strong><pre>${linkify(m.text)}</pre></div>`,
          )
          .join('');
        reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
        return page(
          'Dev outbox',
          `<h1>Dev outbox</h1><form method="get"><input name="to" placeholder="address or user id" value="${escapeHtml(
            request.query.to ?? '',
          )}"> <button>Filter</button></form>${items || '<p>No messages yet.</p>'}`,
        );
      },
    );

    // --- Simulated voice identities ---

    app.post(
      '/api/dev/voice/identities',
      {
        schema: {
          tags: ['dev'],
          summary: 'A simulated voice identity connects to the simulated voice server',
          body: devVoiceIdentityBodySchema,
          response: { 200: voiceIdentitySchema },
        },
      },
      async (request) => {
        if (!(ctx.voice instanceof SimulatedVoiceServer)) throw badRequest('INVALID_INPUT');
        return ctx.voice.connect(request.body.name);
      },
    );

    app.delete(
      '/api/dev/voice/identities/:id',
      {
        schema: {
          tags: ['dev'],
          summary: 'A simulated voice identity disconnects',
          params: z.object({ id: z.string().min(1).max(200) }),
          response: { 200: z.object({ ok: z.literal(true) }) },
        },
      },
      async (request) => {
        if (!(ctx.voice instanceof SimulatedVoiceServer)) throw badRequest('INVALID_INPUT');
        if (!ctx.voice.disconnect(request.params.id)) throw notFound('NOT_FOUND');
        return { ok: true as const };
      },
    );

    // --- The embedded game server: who stays off it ---

    app.post(
      '/api/dev/simulator/presence',
      {
        preValidation: loopbackOrAdmin,
        schema: {
          tags: ['dev'],
          summary: 'The simulated game server keeps a player off its servers, or lets them on again',
          body: z.object({ userId: z.string().min(1).max(64), onServer: z.boolean() }),
          response: { 200: z.object({ ok: z.literal(true) }) },
        },
      },
      async (request) => {
        const sim = providerOf(ctx);
        if (!(sim instanceof SimulatorProvider)) throw badRequest('INVALID_INPUT');
        const user = await findUserById(ctx.db, request.body.userId);
        if (!user) throw notFound('NOT_FOUND');
        const key = rosterKey({ userId: user.id, steamId: user.steamId ?? null });
        if (request.body.onServer) sim.arrive(key);
        else sim.leave(key);
        return { ok: true as const };
      },
    );

    // --- Dev identity provider (OpenID 2.0, stands in for Steam) ---

    const endpoint = devOpenIdUrl(ctx.config);
    const key = createHmac('sha256', ctx.tokens.secret).update('dev-openid-provider').digest();
    const usedNonces = new Set<string>();
    const SIGNED = ['op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'];
    const signatureOf = (fields: Record<string, string>, signed: string[]) =>
      createHmac('sha256', key)
        .update(signed.map((f) => `${f}:${fields[`openid.${f}`] ?? ''}\n`).join(''))
        .digest('base64');
    const allowedReturnTo = (url: string) => url.startsWith(`${ctx.config.PUBLIC_URL}/`);

    // check_authentication arrives form-encoded.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );

    const openIdQuery = z.record(z.string(), z.union([z.string(), z.array(z.string())]));
    const stringsOf = (q: Record<string, string | string[]>) =>
      Object.fromEntries(Object.entries(q).filter((e): e is [string, string] => typeof e[1] === 'string'));

    app.get(
      '/api/dev/openid/login',
      { schema: { hide: true, querystring: openIdQuery } },
      async (request, reply) => {
        const q = stringsOf(request.query);
        const returnTo = q['openid.return_to'] ?? '';
        if (q['openid.mode'] !== 'checkid_setup' || !allowedReturnTo(returnTo))
          throw badRequest('INVALID_INPUT');
        reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store');
        return page(
          'Dev identity – stands in for Steam',
          `<h1>Dev identity</h1><p class="meta">This page stands in for Steam's login while dev tools are on.
Pick the SteamID64 to sign in as; the same id always means the same account.</p>
<form method="get" action="/api/dev/openid/approve">
<input type="hidden" name="return_to" value="${escapeHtml(returnTo)}">
<label>SteamID64 <input name="steamId" value="${randomSteamId64()}" pattern="\\d{17}" required></label>
<button type="submit">Sign in</button></form>`,
        );
      },
    );

    app.get(
      '/api/dev/openid/approve',
      {
        schema: {
          hide: true,
          querystring: z.object({
            return_to: z.string(),
            steamId: z.string().regex(/^\d{17}$/, 'ID_MALFORMED'),
          }),
        },
      },
      async (request, reply) => {
        const { return_to: returnTo, steamId } = request.query;
        if (!allowedReturnTo(returnTo)) throw badRequest('INVALID_INPUT');
        const claimed = `${claimedIdPrefix(endpoint)}${steamId}`;
        const fields: Record<string, string> = {
          'openid.ns': OPENID_NS,
          'openid.mode': 'id_res',
          'openid.op_endpoint': endpoint,
          'openid.claimed_id': claimed,
          'openid.identity': claimed,
          'openid.return_to': returnTo,
          'openid.response_nonce': `${new Date(ctx.clock.now()).toISOString().slice(0, 19)}Z${randomBytes(6).toString('hex')}`,
          'openid.assoc_handle': 'dev',
          'openid.signed': SIGNED.join(','),
        };
        fields['openid.sig'] = signatureOf(fields, SIGNED);
        const url = new URL(returnTo);
        for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
        return reply.redirect(url.toString(), 302);
      },
    );

    app.post(
      '/api/dev/openid/login',
      { schema: { hide: true, body: z.record(z.string(), z.string()) } },
      async (request, reply) => {
        const b = request.body;
        const signed = (b['openid.signed'] ?? '').split(',');
        const given = Buffer.from(b['openid.sig'] ?? '', 'base64');
        const expected = Buffer.from(signatureOf(b, signed), 'base64');
        const nonce = b['openid.response_nonce'] ?? '';
        const valid =
          b['openid.mode'] === 'check_authentication' &&
          SIGNED.every((f) => signed.includes(f)) &&
          sameSecret(given, expected) &&
          !usedNonces.has(nonce);
        if (valid) usedNonces.add(nonce);
        reply.header('content-type', 'text/plain; charset=utf-8');
        return `ns:${OPENID_NS}\nis_valid:${valid ? 'true' : 'false'}\n`;
      },
    );
  };
}
