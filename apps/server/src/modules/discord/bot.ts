/**
 * The Discord bot (discord.js), started inside the server when DISCORD_BOT_TOKEN is set: a global
 * `/link <code>` slash command that redeems a link code for the caller's Discord account, and a
 * 'game found' direct message to linked players. Without a token, 'game found' for linked users
 * lands in the dev outbox (channel discord).
 */
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { storeOutboxMessage } from '../mail/mailer';
import { redeemDiscordCode } from './service';

export interface DiscordSender {
  readonly kind: 'bot' | 'outbox';
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

export async function startDiscordBot(
  ctx: AppContext,
  token: string,
  log: { info(o: object, m: string): void; error(o: object, m: string): void },
): Promise<DiscordSender> {
  const { Client, Events, GatewayIntentBits, MessageFlags, SlashCommandBuilder } = await import('discord.js');
  const client = new Client({ intents: [GatewayIntentBits.Guilds, GatewayIntentBits.DirectMessages] });
  const command = new SlashCommandBuilder()
    .setName('link')
    .setDescription('Link your Discord account to openpug')
    .addStringOption((o) =>
      o.setName('code').setDescription('The code from your openpug settings').setRequired(true),
    );

  client.once(Events.ClientReady, async (ready) => {
    log.info({ user: ready.user.tag }, 'Discord bot ready');
    try {
      await ready.application.commands.set([command.toJSON()]);
    } catch (err) {
      log.error({ err }, 'Discord: registering /link failed');
    }
  });
  client.on(Events.InteractionCreate, async (interaction) => {
    if (!interaction.isChatInputCommand() || interaction.commandName !== 'link') return;
    try {
      const result = await handleLinkCommand(
        ctx,
        interaction.user.id,
        interaction.options.getString('code', true),
      );
      await interaction.reply({ content: result.reply, flags: MessageFlags.Ephemeral });
    } catch (err) {
      log.error({ err }, 'Discord: /link failed');
    }
  });
  client.login(token).catch((err) => log.error({ err }, 'Discord bot login failed'));

  return {
    kind: 'bot',
    async sendDirect(discordId, text) {
      const user = await client.users.fetch(discordId);
      await user.send(text);
    },
    async close() {
      await client.destroy();
    },
  };
}
