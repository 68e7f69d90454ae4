/**
 * Discord link codes: `generateDiscordCode` gives a short-lived one-time code (only its SHA-256 is
 * stored); `redeemDiscordCode` (the bot's /link command and POST /api/discord/link) uses it up in
 * one conditional UPDATE and sets the user's discordId.
 * DM failures: `recordDmFailure` keeps the last refused DM (JSON error 50007) for Settings;
 * a delivered DM, a re-link and an unlink clear it.
 * Accept-phase DMs: `rememberAcceptDm` keeps where each went, `takeAcceptDms` hands them over once
 * (to edit them when the phase ends).
 */
import { createHash, randomInt } from 'node:crypto';
import type { Locale } from '@openpug/shared';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { batchedRows } from '../../lib/batch';
import { conflict, notFound } from '../../lib/errors';
import { findUserByDiscordId, findUsersByIds, updateUser } from '../accounts/service';
import { deliverInBackground, inBackground, localeOfRow } from '../notify';
import { type DiscordSender, type GatewayStarter, outboxDiscordSender } from './bot';
import type { LeaderElector } from './lease';
import { discordAcceptDms, discordDmFailures, discordLinkCodes } from './schema';

export const DISCORD_CODE_TTL_MS = 10 * 60_000;
/** No 0/O/1/I/L: easy to type into Discord. */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 8;

const hashCode = (code: string) => createHash('sha256').update(code.trim().toUpperCase()).digest('hex');

export async function generateDiscordCode(
  ctx: AppContext,
  userId: string,
): Promise<{ code: string; expiresAt: number }> {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  const now = ctx.clock.now();
  const expiresAt = now + DISCORD_CODE_TTL_MS;
  // A new code replaces the user's unused ones.
  await ctx.db
    .delete(discordLinkCodes)
    .where(and(eq(discordLinkCodes.userId, userId), isNull(discordLinkCodes.usedAt)));
  await ctx.db
    .insert(discordLinkCodes)
    .values({ codeHash: hashCode(code), userId, expiresAt: new Date(expiresAt) });
  return { code, expiresAt };
}

/** Links `discordId` to the code's user. 404 NOT_FOUND_OR_ALREADY_USED for unknown/used/expired codes,
 * 409 DISCORD_ALREADY_LINKED when that Discord account belongs to another user (the code stays usable). */
export async function redeemDiscordCode(
  ctx: AppContext,
  code: string,
  discordId: string,
): Promise<{ userId: string }> {
  const now = new Date(ctx.clock.now());
  const valid = and(
    eq(discordLinkCodes.codeHash, hashCode(code)),
    isNull(discordLinkCodes.usedAt),
    gt(discordLinkCodes.expiresAt, now),
  );
  const [pending] = await ctx.db.select().from(discordLinkCodes).where(valid);
  if (!pending) throw notFound('NOT_FOUND_OR_ALREADY_USED');
  // discord_id is unique: the one holder, if it is not the user linking now, keeps it.
  const holder = await findUserByDiscordId(ctx.db, discordId);
  if (holder && holder.id !== pending.userId) throw conflict('DISCORD_ALREADY_LINKED');
  const [row] = await ctx.db.update(discordLinkCodes).set({ usedAt: now }).where(valid).returning();
  if (!row) throw notFound('NOT_FOUND_OR_ALREADY_USED');
  try {
    await updateUser(ctx, row.userId, { discordId });
  } catch (err) {
    const e = err as { code?: string; cause?: { code?: string } };
    if (e?.code === '23505' || e?.cause?.code === '23505') throw conflict('DISCORD_ALREADY_LINKED');
    throw err;
  }
  await clearDmFailure(ctx, row.userId);
  return { userId: row.userId };
}

export async function unlinkDiscord(ctx: AppContext, userId: string): Promise<void> {
  await updateUser(ctx, userId, { discordId: null });
  await clearDmFailure(ctx, userId);
}

/** Discord refused a DM to `discordId` for good (`code`, e.g. 50007: the player does not accept DMs). */
export async function recordDmFailure(
  ctx: AppContext,
  userId: string,
  discordId: string,
  code: number,
): Promise<void> {
  const failedAt = new Date(ctx.clock.now());
  await ctx.db
    .insert(discordDmFailures)
    .values({ userId, discordId, code, failedAt })
    .onConflictDoUpdate({ target: discordDmFailures.userId, set: { discordId, code, failedAt } });
}

export async function clearDmFailure(ctx: AppContext, userId: string): Promise<void> {
  await ctx.db.delete(discordDmFailures).where(eq(discordDmFailures.userId, userId));
}

/** When the last DM to the user's current Discord account was refused (ms), or null. */
export async function dmFailedAt(
  ctx: AppContext,
  userId: string,
  discordId: string | null,
): Promise<number | null> {
  if (!discordId) return null;
  const [row] = await ctx.db
    .select({ failedAt: discordDmFailures.failedAt })
    .from(discordDmFailures)
    .where(and(eq(discordDmFailures.userId, userId), eq(discordDmFailures.discordId, discordId)));
  return row ? row.failedAt.getTime() : null;
}

/** Where the accept-phase DM to `userId` went (to edit it when the phase ends). */
export async function rememberAcceptDm(
  ctx: AppContext,
  row: { phaseId: string; userId: string; channelId: string; messageId: string },
): Promise<void> {
  await ctx.db.insert(discordAcceptDms).values(row).onConflictDoNothing();
}

/** The phase's DMs (or the one to `userId`), deleted as they are read: each is edited once, by whoever takes it. */
export function takeAcceptDms(ctx: AppContext, phaseId: string, userId?: string) {
  const ofPhase = eq(discordAcceptDms.phaseId, phaseId);
  return ctx.db
    .delete(discordAcceptDms)
    .where(userId ? and(ofPhase, eq(discordAcceptDms.userId, userId)) : ofPhase)
    .returning();
}

/**
 * takeAcceptDms of a whole phase; the phases that end in one turn of the event loop share one
 * statement (lib/batch.ts): a queue batch that starts ten matches ends ten phases.
 */
export function takeAcceptDmsSoon(ctx: AppContext, phaseId: string): Promise<AcceptDmRow[]> {
  ctx.state.discord.acceptDmTaker ??= batchedRows(
    (phaseIds: string[]) =>
      ctx.db.delete(discordAcceptDms).where(inArray(discordAcceptDms.phaseId, phaseIds)).returning(),
    (row) => row.phaseId,
  );
  return ctx.state.discord.acceptDmTaker(phaseId);
}
type AcceptDmRow = typeof discordAcceptDms.$inferSelect;

// The sender DMs go through: the REST client once the bot is configured (routes.ts), else the
// dev outbox; tests swap it.
/** The Discord module's per-app state (`ctx.state.discord`). */
export interface DiscordModuleState {
  /** Where DMs go; unset: the dev outbox. */
  sender?: DiscordSender;
  /** How the gateway logs in; tests replace it before the app is ready. */
  gatewayStarter?: GatewayStarter;
  /** This instance's claim on the gateway lease (only with DISCORD_BOT_TOKEN). */
  leader?: LeaderElector;
  /** takeAcceptDmsSoon's statement, made on first use. */
  acceptDmTaker?: (phaseId: string) => Promise<AcceptDmRow[]>;
}
export const discordSender = (ctx: AppContext) => ctx.state.discord.sender ?? outboxDiscordSender(ctx);
export const hasDiscordSender = (ctx: AppContext) => ctx.state.discord.sender !== undefined;
export function setDiscordSender(ctx: AppContext, sender: DiscordSender): void {
  ctx.state.discord.sender = sender;
}

/** A DM to every user of `userIds` with a linked Discord account, in their language (background, retried). */
export function notifyDiscord(
  ctx: AppContext,
  userIds: readonly string[],
  text: (locale: Locale) => string,
): void {
  inBackground(ctx, 'discord fan-out', async () => {
    for (const row of await findUsersByIds(ctx.db, userIds)) {
      if (!row.discordId) continue;
      const discordId = row.discordId;
      const message = text(localeOfRow(row.locale));
      deliverInBackground(ctx, `discord ${row.id}`, () =>
        discordSender(ctx)
          .sendDirect(discordId, { content: message }, row.id)
          .then(() => undefined),
      );
    }
  });
}
