/**
 * Discord link (issue 8):
 *   POST   /api/profile/discord/generate-link-code → {data: code, expiresAt} (one-time, 10 minutes)
 *   POST   /api/discord/link {code, discordId}      → {success}; the bot's call, authenticated with
 *          `Authorization: Bot <DISCORD_BOT_SECRET>` (missing/wrong → 401; no secret configured → 403)
 *   DELETE /api/profile/discord/link                → {unlinked: true}
 *   GET    /api/profile/discord                     → {discordId, dmFailedAt} (Settings: DMs refused?)
 * An accept phase goes to every linked player of it as a Discord DM with Accept/Decline buttons
 * (REST API, from any instance), edited when the phase ends; without a bot token a plain 'game
 * found' lands in the outbox (channel discord). With DISCORD_BOT_TOKEN, every instance competes for
 * the `discord-gateway` lease; only its holder logs the gateway client in and answers /link,
 * /queue and the buttons.
 */
import { randomUUID } from 'node:crypto';
import {
  discordLinkCodeResponseSchema,
  discordRedeemBodySchema,
  discordStatusResponseSchema,
  discordUnlinkResponseSchema,
  type Locale,
  successResponseSchema,
} from '@openpug/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context';
import { logOf } from '../../jobs';
import { forbidden, unauthorized } from '../../lib/errors';
import { sameSecret } from '../../lib/secrets';
import { findUsersByIds, findUsersByIdsSoon } from '../accounts/service';
import { currentUser, requireAuth } from '../auth';
import { deliverInBackground, inBackground, localeOfRow, notifyTexts } from '../notify';
import { acceptPhaseById } from '../queue/service';
import { type DiscordGateway, type GatewayStarter, startDiscordGateway } from './bot';
import { LeaderElector, Lease } from './lease';
import { endedFor, promptFor } from './queue-bot';
import { restDiscordSender } from './rest';
import {
  discordSender,
  dmFailedAt,
  generateDiscordCode,
  hasDiscordSender,
  redeemDiscordCode,
  rememberAcceptDm,
  setDiscordSender,
  takeAcceptDms,
  takeAcceptDmsSoon,
  unlinkDiscord,
} from './service';
import { botTexts } from './texts';

export const GATEWAY_LEASE = 'discord-gateway';

/** Tests replace the gateway login (before the app is ready). */
export function setDiscordGatewayStarter(ctx: AppContext, starter: GatewayStarter): void {
  ctx.state.discord.gatewayStarter = starter;
}
/** This instance's claim on the gateway lease (only with DISCORD_BOT_TOKEN). */
export const discordLeaderOf = (ctx: AppContext): LeaderElector | undefined => ctx.state.discord.leader;

function botSecretMatches(header: string | undefined, secret: string): boolean {
  return sameSecret((header ?? '').replace(/^Bot\s+/i, ''), secret);
}

/**
 * Keeps where the accept DM went. The phase may have ended while it was on its way (a quick
 * decline): then nobody will edit it later, so it says so now.
 */
async function keepAcceptDm(
  ctx: AppContext,
  phaseId: string,
  userId: string,
  locale: Locale,
  sent: { channelId: string; messageId: string },
): Promise<void> {
  await rememberAcceptDm(ctx, { phaseId, userId, ...sent });
  const phase = await acceptPhaseById(ctx.db, phaseId);
  if (!phase || phase.status === 'open') return;
  if ((await takeAcceptDms(ctx, phaseId, userId)).length === 0) return;
  await discordSender(ctx).editDirect(sent.channelId, sent.messageId, {
    content: botTexts(locale).phaseOver,
    components: [],
  });
}

export function discordModule(ctx: AppContext): FastifyPluginAsyncZod {
  const auth = { preValidation: requireAuth } as const;

  // Every linked player of the phase gets the DM, whether or not a tab is open: away from the tab
  // the DM is how they hear of it, and a press counts once wherever it comes from.
  ctx.bus.on('queue.phaseStarted', ({ phaseId, playerIds, deadline }) => {
    inBackground(ctx, 'discord fan-out', async () => {
      const seconds = Math.max(1, Math.round((deadline - ctx.clock.now()) / 1000));
      for (const row of await findUsersByIdsSoon(ctx, playerIds)) {
        if (!row.discordId) continue;
        const discordId = row.discordId;
        const locale = localeOfRow(row.locale);
        deliverInBackground(ctx, `discord ${row.id}`, async () => {
          const sender = discordSender(ctx);
          // The outbox has no buttons: it gets the plain 'game found'.
          const message =
            sender.kind === 'rest'
              ? promptFor(locale, phaseId, row.id, deadline)
              : { content: notifyTexts(locale).gameFound(seconds) };
          const sent = await sender.sendDirect(discordId, message, row.id);
          // Sent: never throw from here on, or withRetries would send the DM again.
          if (sent)
            await keepAcceptDm(ctx, phaseId, row.id, locale, sent).catch((err) =>
              logOf(ctx).error({ err, userId: row.id }, 'Discord: keeping the accept DM failed'),
            );
        });
      }
    });
  });

  // The phase is over: its DMs lose their buttons and say how it ended, for each player.
  ctx.bus.on('queue.phaseEnded', (ended) => {
    inBackground(ctx, 'discord phase end', async () => {
      const dms = await takeAcceptDmsSoon(ctx, ended.phaseId);
      if (dms.length === 0) return;
      const rows = new Map(
        (
          await findUsersByIds(
            ctx.db,
            dms.map((d) => d.userId),
          )
        ).map((r) => [r.id, r]),
      );
      for (const dm of dms) {
        const message = endedFor(ctx, localeOfRow(rows.get(dm.userId)?.locale), ended, dm.userId);
        deliverInBackground(ctx, `discord edit ${dm.userId}`, () =>
          discordSender(ctx).editDirect(dm.channelId, dm.messageId, message),
        );
      }
    });
  });

  return async (app) => {
    const token = ctx.config.DISCORD_BOT_TOKEN;
    if (token) {
      if (!hasDiscordSender(ctx)) {
        const rest = restDiscordSender(ctx, token, app.log);
        setDiscordSender(ctx, rest);
        app.addHook('onClose', () => rest.close());
      }
      let gateway: DiscordGateway | null = null;
      const leaseMs = ctx.config.DISCORD_LEASE_MS;
      const elector = new LeaderElector(
        new Lease(ctx.db, ctx.clock, GATEWAY_LEASE, randomUUID(), leaseMs),
        Math.floor(leaseMs / 3),
        {
          log: app.log,
          onLead: async () => {
            gateway = await (ctx.state.discord.gatewayStarter ?? startDiscordGateway)(ctx, token, app.log);
          },
          onStepDown: async () => {
            const closing = gateway;
            gateway = null;
            await closing?.close();
          },
        },
      );
      ctx.state.discord.leader = elector;
      app.addHook('onReady', async () => {
        await elector.start();
      });
      // Before the database closes: the gateway stops, then the lease row goes (another takes over).
      app.addHook('onClose', () => elector.stop());
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
        const row = currentUser(request);
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
        const row = currentUser(request);
        await unlinkDiscord(ctx, row.id);
        return { unlinked: true };
      },
    );

    app.get(
      '/api/profile/discord',
      {
        ...auth,
        schema: {
          tags: ['profile'],
          summary: 'The linked Discord account and whether Discord refused the last direct message to it',
          response: { 200: discordStatusResponseSchema },
        },
      },
      async (request) => {
        const row = currentUser(request);
        return { discordId: row.discordId, dmFailedAt: await dmFailedAt(ctx, row.id, row.discordId) };
      },
    );
  };
}
