/**
 * WhatsApp (issue 8): link a number with a 4-digit code sent over WhatsApp, toggle notifications,
 * unlink. Listens to the queue: 'game found' when an accept phase starts and the result when the
 * match is set, to every player with WhatsApp enabled and not paused, in their language, in the
 * background, as approved template messages (provider.ts). The status webhook records what became
 * of each message; a number WhatsApp could not reach is paused until it is linked again.
 *
 *   POST  /api/profile/linkWhatsApp {phone}          → {success}   (code valid 10 minutes)
 *   POST  /api/profile/whatsAppCode {phone, code}    → {success}   (wrong/expired/used → false)
 *   POST  /api/profile/unlinkWhatsApp                → {success}
 *   PATCH /api/profile/whatsAppEnabled [{whatsAppEnabled}] → {whatsAppEnabled} (409 WHATSAPP_NOT_LINKED)
 *   GET   /api/profile/whatsAppStatus                → {linked, enabled, paused, failure}
 *   GET   /api/whatsapp/webhook?hub.mode&hub.verify_token&hub.challenge → the challenge (403)
 *   POST  /api/whatsapp/webhook (X-Hub-Signature-256) → {received}  (401 bad signature, 400 bad JSON)
 */
import { createHmac } from 'node:crypto';
import {
  linkWhatsAppBodySchema,
  successResponseSchema,
  WHATSAPP_CODE_LENGTH,
  whatsAppCodeBodySchema,
  whatsAppEnabledBodySchema,
  whatsAppEnabledResponseSchema,
  whatsAppStatusResponseSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { AppError, badRequest, conflict, forbidden, unauthorized } from '../../lib/errors';
import { sameSecret } from '../../lib/secrets';
import { verificationCodes } from '../../lib/verification-code';
import { updateUser } from '../accounts/service';
import { currentUser, requireAuth } from '../auth';
import { localeOfRow, notifyTexts } from '../notify';
import { whatsAppCodes } from './schema';
import {
  clearWhatsAppDelivery,
  DELIVERY_STATUSES,
  notifyWhatsApp,
  recordStatuses,
  type StatusUpdate,
  sendWhatsApp,
  whatsAppStatusOf,
} from './service';

export { setWhatsAppSender, whatsAppSender } from './service';

export const WHATSAPP_CODE_TTL_MS = 10 * 60_000;
export const WHATSAPP_CODE_MAX_ATTEMPTS = 5;

/** `sha256=<hex>` of X-Hub-Signature-256 against the HMAC-SHA256 of the raw body, in constant time. */
export function validSignature(secret: string | undefined, header: unknown, raw: Buffer): boolean {
  if (!secret || typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const hex = header.slice('sha256='.length);
  if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  return sameSecret(Buffer.from(hex, 'hex'), expected);
}

/** The part of Meta's `messages` webhook that carries statuses; everything else is ignored. */
const statusNotificationSchema = z.object({
  entry: z
    .array(
      z.object({
        changes: z
          .array(
            z.object({
              value: z
                .object({
                  statuses: z
                    .array(
                      z.object({
                        id: z.string(),
                        status: z.string(),
                        errors: z.array(z.object({ code: z.number().int().optional() })).optional(),
                      }),
                    )
                    .optional(),
                })
                .optional(),
            }),
          )
          .optional(),
      }),
    )
    .optional(),
});

function statusUpdatesOf(body: z.infer<typeof statusNotificationSchema>): StatusUpdate[] {
  const out: StatusUpdate[] = [];
  for (const entry of body.entry ?? [])
    for (const change of entry.changes ?? [])
      for (const s of change.value?.statuses ?? []) {
        if (!(DELIVERY_STATUSES as readonly string[]).includes(s.status)) continue;
        out.push({
          id: s.id,
          status: s.status as StatusUpdate['status'],
          errorCode: s.errors?.[0]?.code ?? null,
        });
      }
  return out;
}

export function whatsAppModule(ctx: AppContext): FastifyPluginAsyncZod {
  const auth = { preValidation: requireAuth } as const;
  const codes = verificationCodes(ctx, whatsAppCodes, whatsAppCodes.phone, {
    purpose: 'whatsapp',
    length: WHATSAPP_CODE_LENGTH,
    ttlMs: WHATSAPP_CODE_TTL_MS,
    maxAttempts: WHATSAPP_CODE_MAX_ATTEMPTS,
  });

  // Template game_found: {{1}} = seconds left to accept. Template matched: {{1}} = the match room.
  ctx.bus.on('queue.phaseStarted', ({ playerIds, deadline }) => {
    const seconds = Math.max(1, Math.round((deadline - ctx.clock.now()) / 1000));
    notifyWhatsApp(ctx, playerIds, 'game_found', (l) => ({
      params: [String(seconds)],
      text: notifyTexts(l).gameFound(seconds),
    }));
  });
  ctx.bus.on('queue.matched', ({ playerIds, matchId }) => {
    const url = `${ctx.config.PUBLIC_URL}/match/${encodeURIComponent(matchId)}`;
    notifyWhatsApp(ctx, playerIds, 'matched', (l) => ({ params: [url], text: notifyTexts(l).matched }));
  });

  return async (app) => {
    app.post(
      '/api/profile/linkWhatsApp',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Sends a 4-digit code to this WhatsApp number (valid 10 minutes)',
          body: linkWhatsAppBodySchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = currentUser(request);
        const { phone } = request.body;
        const locale = localeOfRow(row.locale);
        await codes.issue(row.id, phone, async (code) => {
          try {
            // Authentication template: body {{1}} and the copy-code button both carry the code.
            await sendWhatsApp(ctx, {
              to: phone,
              userId: row.id,
              kind: 'code',
              locale,
              params: [code],
              text: notifyTexts(locale).whatsAppCode(code),
            });
          } catch (err) {
            request.log.error({ err }, 'WhatsApp code message failed');
            throw new AppError(503, 'SERVER_TIMEOUT_CONNECTION_ERROR');
          }
        });
        return { success: true };
      },
    );

    app.post(
      '/api/profile/whatsAppCode',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Checks the WhatsApp code; on success the number is linked and notifications are on',
          body: whatsAppCodeBodySchema,
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = currentUser(request);
        const { phone, code } = request.body;
        if (!(await codes.check(row.id, phone, code))) return { success: false };
        await clearWhatsAppDelivery(ctx, row.id);
        await updateUser(ctx, row.id, { phone, whatsAppEnabled: true });
        return { success: true };
      },
    );

    app.post(
      '/api/profile/unlinkWhatsApp',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Removes the WhatsApp number and switches WhatsApp notifications off',
          response: { 200: successResponseSchema },
        },
      },
      async (request) => {
        const row = currentUser(request);
        await codes.discard(row.id);
        await clearWhatsAppDelivery(ctx, row.id);
        await updateUser(ctx, row.id, { phone: null, whatsAppEnabled: false });
        return { success: true };
      },
    );

    app.patch(
      '/api/profile/whatsAppEnabled',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary:
            'Toggles WhatsApp notifications (or sets them with {whatsAppEnabled}); needs a linked number',
          body: whatsAppEnabledBodySchema,
          response: { 200: whatsAppEnabledResponseSchema },
        },
      },
      async (request) => {
        const row = currentUser(request);
        if (!row.phone) throw conflict('WHATSAPP_NOT_LINKED');
        const next = request.body?.whatsAppEnabled ?? !row.whatsAppEnabled;
        const updated = await updateUser(ctx, row.id, { whatsAppEnabled: next });
        return { whatsAppEnabled: updated?.whatsAppEnabled ?? next };
      },
    );

    app.get(
      '/api/profile/whatsAppStatus',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary:
            'The WhatsApp link and whether messages are paused because the number could not be reached',
          response: { 200: whatsAppStatusResponseSchema },
        },
      },
      async (request) => whatsAppStatusOf(ctx, currentUser(request)),
    );

    // Meta's webhook (graph-api/webhooks/getting-started, "Verification Requests"): the dashboard
    // sends hub.mode=subscribe, hub.verify_token and hub.challenge; answer the challenge when the
    // token matches WHATSAPP_VERIFY_TOKEN.
    app.get(
      '/api/whatsapp/webhook',
      {
        schema: {
          tags: ['whatsapp'],
          summary: 'Webhook verification handshake (answers hub.challenge as text)',
          querystring: z.object({
            'hub.mode': z.string().max(100).optional(),
            'hub.verify_token': z.string().max(500).optional(),
            'hub.challenge': z.string().max(500).optional(),
          }),
        },
      },
      async (request, reply) => {
        const q = request.query;
        const token = ctx.config.WHATSAPP_VERIFY_TOKEN;
        if (!token || q['hub.mode'] !== 'subscribe' || !sameSecret(q['hub.verify_token'] ?? '', token))
          throw forbidden('WHATSAPP_VERIFY_TOKEN_INVALID');
        return reply.type('text/plain; charset=utf-8').send(q['hub.challenge'] ?? '');
      },
    );

    // Event notifications ("Event Notifications" / "Validating Payloads"): X-Hub-Signature-256 is
    // sha256=<HMAC-SHA256 of the raw payload with the app secret>, so this route alone reads its
    // JSON body as bytes (its own encapsulated scope) and parses it after the signature holds.
    await app.register(async (scope) => {
      scope.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
        done(null, body),
      );
      scope.post(
        '/api/whatsapp/webhook',
        {
          schema: {
            tags: ['whatsapp'],
            summary: 'Message status notifications from the WhatsApp Cloud API (signed)',
            response: { 200: z.object({ received: z.number().int() }) },
          },
        },
        async (request) => {
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          if (!validSignature(ctx.config.WHATSAPP_APP_SECRET, request.headers['x-hub-signature-256'], raw))
            throw unauthorized('WHATSAPP_SIGNATURE_INVALID');
          let json: unknown;
          try {
            json = JSON.parse(raw.toString('utf8'));
          } catch {
            throw badRequest('MALFORMED_JSON');
          }
          const parsed = statusNotificationSchema.safeParse(json);
          if (!parsed.success) throw badRequest('INVALID_INPUT');
          const updates = statusUpdatesOf(parsed.data);
          for (const u of updates)
            if (u.status === 'failed')
              request.log.warn(
                { messageId: u.id, errorCode: u.errorCode },
                'WhatsApp reports a failed message',
              );
          const paused = await recordStatuses(ctx, updates);
          if (paused.length) request.log.warn({ userIds: paused }, 'WhatsApp paused for unreachable numbers');
          return { received: updates.length };
        },
      );
    });
  };
}
