/**
 * The queue in Discord (docs/contract.md §4, "The queue in Discord"), without discord.js: what
 * `/queue join|leave|status` answers and what the accept-phase DM's buttons do. Both go through
 * the queue service the web socket uses (joinQueue, leaveQueue, readyQueue, declineQueue), so the
 * rules, refusals and cooldowns are the same; a refusal answers the catalogue text in the linked
 * player's language. The DM itself and its edit at the end of the phase: `promptFor`, `endedFor`.
 */
import {
  type DiscordAcceptButton,
  type DiscordQueueSubcommand,
  discordAcceptButtonId,
  discordAcceptButtonSchema,
  discordQueueSubcommandSchema,
  type Locale,
} from '@openpug/shared';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/errors';
import { findUserByDiscordId } from '../accounts/service';
import { localeOfRow } from '../notify';
import {
  acceptedCountOf,
  acceptPhaseById,
  declineQueue,
  joinQueue,
  leaveQueue,
  type PhaseEnded,
  phaseIdOfPlayer,
  queueState,
  readyQueue,
} from '../queue/service';
import { type BotTexts, botTexts, errorText, localeOfDiscord } from './texts';

/** A message as the bot sends it (https://discord.com/developers/docs/resources/message#create-message). */
export interface BotMessage {
  content: string;
  /** Action rows of buttons (https://discord.com/developers/docs/components/reference#action-row); [] removes them. */
  components?: ActionRow[];
}
interface ActionRow {
  type: 1;
  components: Array<{ type: 2; style: 3 | 4; label: string; custom_id: string }>;
}

/** ButtonStyle Success (3) and Danger (4): components/reference#button-button-styles. */
const SUCCESS = 3 as const;
const DANGER = 4 as const;

/** The caller as Discord names them: their user id and their client's locale. */
export interface DiscordCaller {
  discordId: string;
  locale?: string | null;
}

/** The openpug account linked to a Discord user, with the language to answer in. */
async function linkedPlayer(ctx: AppContext, caller: DiscordCaller) {
  const row = await findUserByDiscordId(ctx.db, caller.discordId);
  return row ? { id: row.id, locale: localeOfRow(row.locale) } : null;
}

const settingsUrl = (ctx: AppContext) => `${ctx.config.PUBLIC_URL}/settings`;
const matchUrl = (ctx: AppContext, matchId: string) =>
  `${ctx.config.PUBLIC_URL}/match/${encodeURIComponent(matchId)}`;

/** The catalogue text of a refusal, with what the player can do about it where there is something. */
async function refusalText(ctx: AppContext, err: AppError, userId: string, locale: Locale): Promise<string> {
  const t = botTexts(locale);
  const text = errorText(locale, err.key);
  if (err.key === 'VOICE_NOT_LINKED' || err.key === 'NAME_REQUIRED' || err.key === 'STEAM_NOT_LINKED')
    return `${text}. ${t.settingsHint(settingsUrl(ctx))}`;
  if (err.key === 'QUEUE_COOLDOWN') {
    const cooldown = (await queueState(ctx, userId)).cooldown;
    return cooldown ? `${text}. ${t.cooldownUntil(cooldown.endsAt)}` : text;
  }
  return text;
}

async function statusText(ctx: AppContext, userId: string, t: BotTexts): Promise<string> {
  const state = await queueState(ctx, userId);
  const lines = [t.status(state.count), state.inQueue ? t.statusIn : t.statusOut];
  if (state.phase) lines.push(t.statusPhase(state.phase.deadline));
  if (state.matchId) lines.push(t.statusMatch(matchUrl(ctx, state.matchId)));
  if (state.cooldown) lines.push(t.statusCooldown(state.cooldown.endsAt));
  return lines.join('\n');
}

/**
 * `/queue <subcommand>`: the answer (shown only to the caller). An unknown subcommand (the
 * registered command was changed under us) is refused like bad input.
 */
export async function answerQueueCommand(
  ctx: AppContext,
  caller: DiscordCaller,
  subcommand: string,
): Promise<string> {
  const player = await linkedPlayer(ctx, caller);
  const locale = player?.locale ?? localeOfDiscord(caller.locale);
  const t = botTexts(locale);
  if (!player) return t.notLinked(settingsUrl(ctx));
  const sub = discordQueueSubcommandSchema.safeParse(subcommand);
  if (!sub.success) return errorText(locale, 'INVALID_INPUT');
  try {
    return await runSubcommand(ctx, player.id, sub.data, t);
  } catch (err) {
    if (err instanceof AppError) return refusalText(ctx, err, player.id, locale);
    throw err;
  }
}

async function runSubcommand(
  ctx: AppContext,
  userId: string,
  sub: DiscordQueueSubcommand,
  t: BotTexts,
): Promise<string> {
  switch (sub) {
    case 'join':
      return t.joined((await joinQueue(ctx, userId, 'discord')).count);
    case 'leave':
      return t.left((await leaveQueue(ctx, userId)).count);
    case 'status':
      return statusText(ctx, userId, t);
  }
}

const buttonRow = (phaseId: string, userId: string, t: BotTexts, withAccept: boolean): ActionRow => {
  const button = (action: 'accept' | 'decline', style: 3 | 4, label: string) => ({
    type: 2 as const,
    style,
    label,
    custom_id: discordAcceptButtonId({ action, phaseId, userId }),
  });
  const decline = button('decline', DANGER, t.decline);
  return { type: 1, components: withAccept ? [button('accept', SUCCESS, t.accept), decline] : [decline] };
};

/** The accept-phase DM: the deadline and both buttons. */
export function promptFor(locale: Locale, phaseId: string, userId: string, deadline: number): BotMessage {
  const t = botTexts(locale);
  return { content: t.prompt(deadline), components: [buttonRow(phaseId, userId, t, true)] };
}

/** The DM once the phase is over, as `userId` sees it; the buttons go. */
export function endedFor(ctx: AppContext, locale: Locale, ended: PhaseEnded, userId: string): BotMessage {
  const t = botTexts(locale);
  const content =
    ended.outcome === 'matched'
      ? t.matched(matchUrl(ctx, ended.matchId))
      : ended.outcome === 'declined'
        ? ended.declinedBy === userId
          ? t.youDeclined
          : t.otherDeclined
        : ended.accepted.includes(userId)
          ? t.timedOutKept
          : t.timedOutKicked;
  return { content, components: [] };
}

/**
 * What pressing a button answers: `update` edits the DM the button is on (the press counted, or
 * the phase is over), `reply` is a separate message only the presser sees (the button is not
 * theirs, or not valid), leaving the DM as it is.
 */
export type ButtonAnswer = { update: BotMessage } | { reply: string };

/**
 * A press on Accept or Decline. Counts exactly like the web's ready/decline (same service calls);
 * a press for a phase that is over (or that the player is no longer in) changes nothing and says so.
 */
export async function answerAcceptButton(
  ctx: AppContext,
  caller: DiscordCaller,
  customId: string,
): Promise<ButtonAnswer> {
  const player = await linkedPlayer(ctx, caller);
  const locale = player?.locale ?? localeOfDiscord(caller.locale);
  const t = botTexts(locale);
  const button = discordAcceptButtonSchema.safeParse(customId);
  if (!button.success) return { reply: t.badButton };
  if (!player) return { reply: t.notLinked(settingsUrl(ctx)) };
  if (player.id !== button.data.userId) return { reply: t.notYours };
  const { phaseId } = button.data;
  if (!(await inOpenPhase(ctx, player.id, phaseId)))
    return { update: await overFor(ctx, locale, button.data) };
  try {
    return { update: await press(ctx, player.id, button.data, locale) };
  } catch (err) {
    // The phase ended between the check and the press (another player's decline, the deadline).
    if (err instanceof AppError) return { update: await overFor(ctx, locale, button.data) };
    throw err;
  }
}

async function inOpenPhase(ctx: AppContext, userId: string, phaseId: string): Promise<boolean> {
  return (await phaseIdOfPlayer(ctx.db, userId)) === phaseId;
}

async function press(
  ctx: AppContext,
  userId: string,
  button: DiscordAcceptButton,
  locale: Locale,
): Promise<BotMessage> {
  const { phaseId } = button;
  if (button.action === 'decline') {
    await declineQueue(ctx, userId);
    return endedFor(ctx, locale, { phaseId, playerIds: [], outcome: 'declined', declinedBy: userId }, userId);
  }
  await readyQueue(ctx, userId);
  const phase = await acceptPhaseById(ctx.db, phaseId);
  if (phase?.status === 'matched' && phase.matchId)
    return endedFor(
      ctx,
      locale,
      { phaseId, playerIds: [], outcome: 'matched', matchId: phase.matchId },
      userId,
    );
  const t = botTexts(locale);
  // Decline stays: the web lets an accepted player decline too (queue/service.ts declineQueue).
  return {
    content: t.acceptedWaiting(await acceptedCount(ctx, phaseId)),
    components: [buttonRow(phaseId, userId, t, false)],
  };
}

const acceptedCount = (ctx: AppContext, phaseId: string) => acceptedCountOf(ctx.db, phaseId);

/** A press after the end: what became of the phase, for this player. */
async function overFor(ctx: AppContext, locale: Locale, button: DiscordAcceptButton): Promise<BotMessage> {
  const phase = await acceptPhaseById(ctx.db, button.phaseId);
  const t = botTexts(locale);
  if (phase?.status === 'matched' && phase.matchId && phase.playerIds.includes(button.userId))
    return { content: t.matched(matchUrl(ctx, phase.matchId)), components: [] };
  return { content: t.phaseOver, components: [] };
}
