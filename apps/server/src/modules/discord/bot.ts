/**
 * The Discord bot (discord.js), when DISCORD_BOT_TOKEN is set:
 * - the gateway session with the global `/link <code>` slash command, which redeems a link code for
 *   the caller's Discord account. Only the instance holding the `discord-gateway` lease logs it in
 *   (routes.ts, lease.ts): one session per deployment, so one instance answers each interaction;
 * - 'game found' direct messages from every instance over the REST API (rest.ts).
 * Without a token, 'game found' for linked users lands in the dev outbox (channel discord).
 */
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { storeOutboxMessage } from '../mail/mailer';
import { redeemDiscordCode } from './service';

export interface DiscordSender {
  readonly kind: 'rest' | 'outbox';
  sendDirect(discordId: string, text: string, userId: string): Promise<void>;
  close(): Promise<void>;
}

export function outboxDiscordSender(ctx: AppContext): DiscordSender {
  return {
    kind: 'outbox',
    sendDirect: (discordId, text, userId) =>
      storeOutboxMessage(ctx.db, { channel: 'discord', to: discordId, userId, text }, ctx.clock.now()),
    close: async () => {},
  };
}

/** What `/link <code>` answers (also used by tests, without Discord). */
export async function handleLinkCommand(
  ctx: AppContext,
  discordUserId: string,
  code: string,
): Promise<{ ok: boolean; reply: string }> {
  try {
    await redeemDiscordCode(ctx, code, discordUserId);
    return {
      ok: true,
      reply: 'Your Discord account is now linked to openpug. You will get a message when a game is found.',
    };
  } catch (err) {
    if (err instanceof AppError && err.status === 409)
      return { ok: false, reply: 'This Discord account is already linked to another openpug account.' };
    if (err instanceof AppError)
      return {
        ok: false,
        reply: 'This code is unknown, expired or already used. Create a new one in your openpug settings.',
      };
    throw err;
  }
}

/** What the /link handler uses of a discord.js ChatInputCommandInteraction (tests pass a stub). */
export interface LinkInteraction {
  readonly user: { readonly id: string };
  readonly options: { getString(name: string, required: true): string };
  deferReply(options: { flags: number }): Promise<unknown>;
  editReply(options: { content: string }): Promise<unknown>;
}

/** MessageFlags.Ephemeral: only the caller sees the answer. */
export const EPHEMERAL = 1 << 6;

interface Log {
  info(o: object, m: string): void;
  error(o: object, m: string): void;
}

/**
 * `/link <code>`: acknowledges first, then works. Discord invalidates an interaction that is not
 * answered within 3 seconds; a deferred answer ("thinking…", type 5
 * DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE) may be edited for 15 minutes
 * (https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction,
 * #edit-original-interaction-response). So: deferReply (ephemeral) before any database work, then
 * editReply with the result. When the acknowledgement fails (too late, or answered elsewhere)
 * the code is left unused.
 */
export async function onLinkInteraction(
  ctx: AppContext,
  interaction: LinkInteraction,
  log: Log,
): Promise<void> {
  try {
    await interaction.deferReply({ flags: EPHEMERAL });
  } catch (err) {
    log.error({ err }, 'Discord: acknowledging /link failed');
    return;
  }
  let content: string;
  try {
    content = (await handleLinkCommand(ctx, interaction.user.id, interaction.options.getString('code', true)))
      .reply;
  } catch (err) {
    log.error({ err }, 'Discord: /link failed');
    content = 'Something went wrong. Please try again in a minute.';
  }
  try {
    await interaction.editReply({ content });
  } catch (err) {
    log.error({ err }, 'Discord: answering /link failed');
  }
}

export interface DiscordGateway {
  close(): Promise<void>;
}
export type GatewayStarter = (ctx: AppContext, token: string, log: Log) => Promise<DiscordGateway>;

/** Logs the gateway client in (only the leader calls this) and handles `/link`. */
export const startDiscordGateway: GatewayStarter = async (ctx, token, log) => {
  const { Client, Events, GatewayIntentBits, SlashCommandBuilder } = await import('discord.js');
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    rest: { api: ctx.config.DISCORD_API_URL },
  });
  const command = new SlashCommandBuilder()
    .setName('link')
    .setDescription('Link your Discord account to openpug')
    .addStringOption((o) =>
      o.setName('code').setDescription('The code from your openpug settings').setRequired(true),
    );

  client.once(Events.ClientReady, async (ready) => {
    log.info({ user: ready.user.tag }, 'Discord gateway ready');
    try {
      await ready.application.commands.set([command.toJSON()]);
    } catch (err) {
      log.error({ err }, 'Discord: registering /link failed');
    }
  });
  client.on(Events.InteractionCreate, (interaction) => {
    if (!interaction.isChatInputCommand() || interaction.commandName !== 'link') return;
    void onLinkInteraction(ctx, interaction, log);
  });
  client.login(token).catch((err) => log.error({ err }, 'Discord gateway login failed'));
  return { close: () => client.destroy() };
};
