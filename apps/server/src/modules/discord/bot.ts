/**
 * The Discord bot (discord.js), when DISCORD_BOT_TOKEN is set:
 * - the gateway session with the global slash commands `/link <code>` (redeems a link code for the
 *   caller's Discord account) and `/queue join|leave|status` (queue-bot.ts), and the Accept/Decline
 *   buttons of the accept-phase DM. Only the instance holding the `discord-gateway` lease logs it in
 *   (routes.ts, lease.ts): one session per deployment, so one instance answers each interaction;
 * - direct messages (the accept-phase DM, its edit when the phase ends) from every instance over
 *   the REST API (rest.ts).
 * Without a token, 'game found' for linked users lands in the dev outbox (channel discord).
 */
import { DISCORD_QUEUE_SUBCOMMANDS, type Locale } from '@openpug/shared';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { storeOutboxMessage } from '../mail/service';
import { answerAcceptButton, answerQueueCommand, type BotMessage } from './queue-bot';
import { redeemDiscordCode } from './service';
import { botTexts, localeOfDiscord } from './texts';

/** Where a sent DM is, to edit it later (null: the outbox, nothing to edit). */
export type SentDm = { channelId: string; messageId: string } | null;

export interface DiscordSender {
  readonly kind: 'rest' | 'outbox';
  sendDirect(discordId: string, message: BotMessage, userId: string): Promise<SentDm>;
  /** Edits a DM the bot sent (its text; `components: []` removes the buttons). */
  editDirect(channelId: string, messageId: string, message: BotMessage): Promise<void>;
  close(): Promise<void>;
}

export function outboxDiscordSender(ctx: AppContext): DiscordSender {
  return {
    kind: 'outbox',
    sendDirect: async (discordId, message, userId) => {
      await storeOutboxMessage(
        ctx.db,
        { channel: 'discord', to: discordId, userId, text: message.content },
        ctx.clock.now(),
      );
      return null;
    },
    editDirect: async () => {},
    close: async () => {},
  };
}

/** What `/link <code>` answers, in the caller's Discord language (also used by tests, without Discord). */
export async function handleLinkCommand(
  ctx: AppContext,
  discordUserId: string,
  code: string,
  locale: Locale = 'en',
): Promise<{ ok: boolean; reply: string }> {
  const t = botTexts(locale);
  try {
    await redeemDiscordCode(ctx, code, discordUserId);
    return { ok: true, reply: t.linked };
  } catch (err) {
    if (err instanceof AppError && err.status === 409) return { ok: false, reply: t.linkTaken };
    if (err instanceof AppError) return { ok: false, reply: t.linkCodeUnknown };
    throw err;
  }
}

/** What the /link handler uses of a discord.js ChatInputCommandInteraction (tests pass a stub). */
export interface LinkInteraction {
  readonly user: { readonly id: string };
  readonly locale?: string;
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
 * Every interaction is acknowledged first and worked on after. Discord invalidates an interaction
 * that is not answered within 3 seconds; a deferred answer (type 5
 * DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE, "thinking…", or for a button type 6
 * DEFERRED_UPDATE_MESSAGE) may then be edited for 15 minutes
 * (https://discord.com/developers/docs/interactions/receiving-and-responding#responding-to-an-interaction,
 * #interaction-response-object-interaction-callback-type, #edit-original-interaction-response).
 * When the acknowledgement fails (too late, or answered elsewhere) nothing is done: the player sees
 * "The application did not respond" and nothing changed for them.
 */
async function acknowledgeThenAnswer<T>(
  log: Log,
  label: string,
  steps: {
    acknowledge(): Promise<unknown>;
    work(): Promise<T>;
    failed: T;
    answer(result: T): Promise<unknown>;
  },
): Promise<void> {
  try {
    await steps.acknowledge();
  } catch (err) {
    log.error({ err }, `Discord: acknowledging ${label} failed`);
    return;
  }
  let result: T;
  try {
    result = await steps.work();
  } catch (err) {
    log.error({ err }, `Discord: ${label} failed`);
    result = steps.failed;
  }
  try {
    await steps.answer(result);
  } catch (err) {
    log.error({ err }, `Discord: answering ${label} failed`);
  }
}

/** `/link <code>`: deferReply (ephemeral) before any database work, then editReply with the result. */
export function onLinkInteraction(ctx: AppContext, interaction: LinkInteraction, log: Log): Promise<void> {
  const locale = localeOfDiscord(interaction.locale);
  return acknowledgeThenAnswer(log, '/link', {
    acknowledge: () => interaction.deferReply({ flags: EPHEMERAL }),
    work: async () =>
      (await handleLinkCommand(ctx, interaction.user.id, interaction.options.getString('code', true), locale))
        .reply,
    failed: botTexts(locale).failed,
    answer: (content) => interaction.editReply({ content }),
  });
}

/** What the /queue handler uses of a discord.js ChatInputCommandInteraction. */
export interface QueueInteraction {
  readonly user: { readonly id: string };
  /** The caller's Discord language (receiving-and-responding#interaction-object-interaction-structure). */
  readonly locale: string;
  readonly options: { getSubcommand(required: true): string };
  deferReply(options: { flags: number }): Promise<unknown>;
  editReply(options: { content: string; allowedMentions: { parse: [] } }): Promise<unknown>;
}

/** `/queue join|leave|status`: an answer only the caller sees (flags EPHEMERAL). */
export function onQueueInteraction(ctx: AppContext, interaction: QueueInteraction, log: Log): Promise<void> {
  const caller = { discordId: interaction.user.id, locale: interaction.locale };
  return acknowledgeThenAnswer(log, '/queue', {
    acknowledge: () => interaction.deferReply({ flags: EPHEMERAL }),
    work: () => answerQueueCommand(ctx, caller, interaction.options.getSubcommand(true)),
    failed: botTexts(localeOfDiscord(interaction.locale)).failed,
    answer: (content) => interaction.editReply({ content, allowedMentions: { parse: [] } }),
  });
}

/** What the Accept/Decline handler uses of a discord.js ButtonInteraction. */
export interface AcceptButtonInteraction {
  readonly user: { readonly id: string };
  readonly locale: string;
  readonly customId: string;
  deferUpdate(): Promise<unknown>;
  editReply(options: BotMessage): Promise<unknown>;
  followUp(options: { content: string; flags: number }): Promise<unknown>;
}

/**
 * A press on the accept-phase DM: acknowledged with DEFERRED_UPDATE_MESSAGE (type 6, no loading
 * state), then the DM the button is on is edited (editReply after deferUpdate edits the message
 * the component is attached to: receiving-and-responding#edit-original-interaction-response), or
 * a follow-up only the presser sees (flags EPHEMERAL, #create-followup-message) says why nothing
 * happened.
 */
export function onAcceptButton(
  ctx: AppContext,
  interaction: AcceptButtonInteraction,
  log: Log,
): Promise<void> {
  const caller = { discordId: interaction.user.id, locale: interaction.locale };
  return acknowledgeThenAnswer(log, 'an accept button', {
    acknowledge: () => interaction.deferUpdate(),
    work: () => answerAcceptButton(ctx, caller, interaction.customId),
    failed: { reply: botTexts(localeOfDiscord(interaction.locale)).failed },
    answer: (a) =>
      'update' in a
        ? interaction.editReply(a.update)
        : interaction.followUp({ content: a.reply, flags: EPHEMERAL }),
  });
}

export interface DiscordGateway {
  close(): Promise<void>;
}
export type GatewayStarter = (ctx: AppContext, token: string, log: Log) => Promise<DiscordGateway>;

/** The global application commands: `/link <code>` and `/queue join|leave|status`. */
export async function botCommands() {
  const { SlashCommandBuilder } = await import('discord.js');
  const link = new SlashCommandBuilder()
    .setName('link')
    .setDescription('Link your Discord account to openpug')
    .setDescriptionLocalizations({ de: 'Verknüpfe dein Discord-Konto mit openpug' })
    .addStringOption((o) =>
      o
        .setName('code')
        .setDescription('The code from your openpug settings')
        .setDescriptionLocalizations({ de: 'Der Code aus deinen openpug-Einstellungen' })
        .setRequired(true),
    );
  const sub = {
    join: ['Join the queue', 'Tritt der Warteschlange bei'],
    leave: ['Leave the queue', 'Verlasse die Warteschlange'],
    status: ['How many are queued, and whether you are', 'Wie viele warten, und ob du dabei bist'],
  } as const;
  const queue = new SlashCommandBuilder()
    .setName('queue')
    .setDescription('The openpug queue')
    .setDescriptionLocalizations({ de: 'Die openpug-Warteschlange' });
  for (const name of DISCORD_QUEUE_SUBCOMMANDS)
    queue.addSubcommand((s) =>
      s.setName(name).setDescription(sub[name][0]).setDescriptionLocalizations({ de: sub[name][1] }),
    );
  return [link.toJSON(), queue.toJSON()];
}

/** Logs the gateway client in (only the leader calls this); handles `/link`, `/queue` and the accept buttons. */
export const startDiscordGateway: GatewayStarter = async (ctx, token, log) => {
  const { Client, Events, GatewayIntentBits } = await import('discord.js');
  // Interactions arrive without any intent (gateway-events#interaction-create); Guilds is what
  // discord.js expects for its guild cache.
  const client = new Client({
    intents: [GatewayIntentBits.Guilds],
    rest: { api: ctx.config.DISCORD_API_URL },
  });
  const commands = await botCommands();

  client.once(Events.ClientReady, async (ready) => {
    log.info({ user: ready.user.tag }, 'Discord gateway ready');
    try {
      // PUT /applications/{application.id}/commands: Bulk Overwrite Global Application Commands
      // (interactions/application-commands#bulk-overwrite-global-application-commands).
      await ready.application.commands.set(commands);
    } catch (err) {
      log.error({ err }, 'Discord: registering the commands failed');
    }
  });
  client.on(Events.InteractionCreate, (interaction) => {
    if (interaction.isChatInputCommand() && interaction.commandName === 'link')
      void onLinkInteraction(ctx, interaction, log);
    else if (interaction.isChatInputCommand() && interaction.commandName === 'queue')
      void onQueueInteraction(ctx, interaction, log);
    else if (interaction.isButton() && interaction.customId.startsWith('queue:'))
      void onAcceptButton(ctx, interaction, log);
  });
  client.login(token).catch((err) => log.error({ err }, 'Discord gateway login failed'));
  return { close: () => client.destroy() };
};
