/**
 * Discord link (issue 8):
 *   POST   /api/profile/discord/generate-link-code → {data: code, expiresAt} (one-time, 10 minutes)
 *   POST   /api/discord/link {code, discordId}      → {success}; the bot's call, authenticated with
 *          `Authorization: Bot <DISCORD_BOT_SECRET>` (missing/wrong → 401; no secret configured → 403)
 *   DELETE /api/profile/discord/link                → {unlinked: true}
 * 'game found' goes to linked players as a Discord DM (bot) or into the outbox (channel discord).
 */
import { timingSafeEqual } from 'node:crypto';
import {
  discordLinkCodeResponseSchema,
  discordRedeemBodySchema,
  discordUnlinkResponseSchema,
  successResponseSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { forbidden, unauthorized } from '../../lib/errors';
import { findUsersByIds, updateUser } from '../accounts/service';
import { currentUser } from '../accounts/session';
import { requireAuth } from '../auth/guard';
import { deliverInBackground, inBackground, localeOfRow, notifyTexts, setNotifyLog } from '../notify/deliver';
import { type DiscordSender, outboxDiscordSender, startDiscordBot } from './bot';
import { generateDiscordCode, redeemDiscordCode } from './service';

const senders = new WeakMap<AppContext, DiscordSender>();
export const discordSender = (ctx: AppContext) => senders.get(ctx) ?? outboxDiscordSender(ctx);
/** Tests swap the sender. */
export function setDiscordSender(ctx: AppContext, sender: DiscordSender): void {
  senders.set(ctx, sender);
}

function botSecretMatches(header: string | undefined, secret: string): boolean {
  const given = Buffer.from((header ?? '').replace(/^Bot\s+/i, ''));
  const expected = Buffer.from(secret);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function discordModule(ctx: AppContext): FastifyPluginAsyncZod {
  const auth = { preValidation: requireAuth } as const;

  ctx.bus.on('queue.phaseStarted', ({ playerIds, deadline }) => {
    inBackground(ctx, 'discord fan-out', async () => {
      const seconds = Math.max(1, Math.round((deadline - ctx.clock.now()) / 1000));
      for (const row of await findUsersByIds(ctx.db, playerIds)) {
        if (!row.discordId) continue;
        const discordId = row.discordId;
        const text = notifyTexts(localeOfRow(row.locale)).gameFound(seconds);
        deliverInBackground(ctx, `discord ${row.id}`, () =>
          discordSender(ctx).sendDirect(discordId, text, row.id),
        );
      }
    });
  });

  return async (app) => {
    setNotifyLog(ctx, app.log);
    if (ctx.config.DISCORD_BOT_TOKEN && !senders.has(ctx)) {
      const bot = await startDiscordBot(ctx, ctx.config.DISCORD_BOT_TOKEN, app.log);
      senders.set(ctx, bot);
      app.addHook('onClose', () => bot.close());
    }

    app.post(
      '/api/profile/discord/generate-link-code',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'A one-time code (valid 10 minutes) to give to the Discord bot: /link <code>',
          response: { 200: discordLinkCodeResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        const { code, expiresAt } = await generateDiscordCode(ctx, row.id);
        return { data: code, expiresAt };
      },
    );

    app.post(
      '/api/discord/link',
      {
        schema: {
          tags: ['discord'],
          summary: "The bot's redeem call (Authorization: Bot <DISCORD_BOT_SECRET>)",
          body: discordRedeemBodySchema,
          response: { 200: successResponseSchema },
        },
        onRequest: async (request) => {
          const secret = ctx.config.DISCORD_BOT_SECRET;
          if (!secret) throw forbidden('UNAUTHORIZED');
          if (!botSecretMatches(request.headers.authorization, secret)) throw unauthorized('UNAUTHORIZED');
        },
      },
      async (request) => {
        await redeemDiscordCode(ctx, request.body.code, request.body.discordId);
        return { success: true };
      },
    );

    app.delete(
      '/api/profile/discord/link',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'Unlinks the Discord account',
          response: { 200: discordUnlinkResponseSchema },
        },
      },
      async (request) => {
        const row = await currentUser(ctx, request);
        await updateUser(ctx, row.id, { discordId: null });
        return { unlinked: true };
      },
    );
  };
}
