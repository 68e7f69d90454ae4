/**
 * Chat moderation in the product's rooms (docs/contract.md §3, Chat moderation), the same calls
 * on Synapse and on the embedded homeserver: the bot, which created every product room and holds
 * power level 100 there, acts through the Client-Server API.
 *
 * - Who: an admin in the global room and every match room; a match's captain in that match's
 *   room, against its players (never an admin or a captain: CHAT_TARGET_PROTECTED). Anybody else,
 *   or a room the product does not own (direct chats), is refused.
 * - What: `redact` a message (any sender), `mute`/`unmute` (the member's power level goes to
 *   SILENCED_LEVEL, below `events_default`, or back), `kick` (membership `leave`; a player in a
 *   match joins again with the next match update), `ban` / `unban` (Matrix ban; an unbanned player
 *   is joined again server-side, as at provisioning).
 * - Every action is audited (`chat.moderate`: the room, the action, the message).
 *
 * A product ban (moderation module) also bans from the global room: `followProductBan`.
 */
import { type ChatModeration, productUserIdOf } from '@openpug/shared';
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { findUserById } from '../accounts/service';
import { isCaptain } from '../matches';
import { activeSanction, recordAudit } from '../moderation';
import { MatrixCallError } from './matrix-admin';
import { chatRooms } from './schema';
import {
  accountRow,
  chat,
  ensureBot,
  ensureGlobalRoom,
  matrixIdOfUser,
  refresh,
  setSilencedIn,
} from './service';

type RoomRow = typeof chatRooms.$inferSelect;

/** A chat server failure the caller cannot fix: 503 CHAT_UNAVAILABLE (the action did not happen). */
function unavailable(err: unknown): never {
  if (err instanceof MatrixCallError) throw new AppError(503, 'CHAT_UNAVAILABLE');
  throw err;
}

/**
 * Joins a player to a product room again after an unban, with their own token (as provisioning
 * does); a match room is invite-only, so the bot invites first. Nothing for a player without a
 * chat account, or one whose product ban keeps them out of the chat.
 */
async function rejoin(ctx: AppContext, room: RoomRow, userId: string): Promise<void> {
  const row = await accountRow(ctx, userId);
  if (!row || (await activeSanction(ctx, ctx.db, userId, 'ban'))) return;
  const s = chat(ctx);
  const bot = await ensureBot(ctx);
  const live = await refresh(ctx, row, bot.accessToken);
  if (room.kind === 'match') await s.admin.invite(bot.accessToken, room.roomId, live.matrixUserId);
  await s.admin.join(live.accessToken, room.roomId);
}

export async function moderateChat(ctx: AppContext, actorId: string, input: ChatModeration): Promise<void> {
  const [room] = await ctx.db.select().from(chatRooms).where(eq(chatRooms.roomId, input.roomId));
  if (!room) throw notFound();
  const actor = await findUserById(ctx.db, actorId);
  const isAdmin = actor?.role === 'ADMIN';
  if (!isAdmin && !(room.kind === 'match' && (await isCaptain(ctx.db, room.key, actorId))))
    throw forbidden('UNAUTHORIZED');
  const s = chat(ctx);
  const bot = await ensureBot(ctx);

  let targetMxid: string;
  let targetUserId: string | null;
  if (input.action === 'redact') {
    const event = await s.admin.event(bot.accessToken, room.roomId, input.eventId as string);
    if (!event) throw notFound();
    targetMxid = event.sender;
    targetUserId = productUserIdOf(event.sender);
  } else {
    targetUserId = input.userId as string;
    if (targetUserId === actorId) throw badRequest('CANNOT_SANCTION_YOURSELF');
    if (!(await findUserById(ctx.db, targetUserId))) throw notFound('USER_DOES_NOT_EXIST');
    targetMxid = matrixIdOfUser(ctx, targetUserId);
  }
  if (!isAdmin && targetUserId !== actorId) {
    const target = targetUserId ? await findUserById(ctx.db, targetUserId) : null;
    if (!target || target.role === 'ADMIN' || (await isCaptain(ctx.db, room.key, target.id)))
      throw forbidden('CHAT_TARGET_PROTECTED');
  }

  let before: unknown = null;
  try {
    switch (input.action) {
      case 'redact':
        await s.admin.redactWithReason(
          bot.accessToken,
          room.roomId,
          input.eventId as string,
          `mod-${ctx.clock.now()}-${Math.random().toString(36).slice(2)}`,
          input.reason,
        );
        break;
      case 'mute':
      case 'unmute':
        before = {
          muted: await setSilencedIn(ctx, bot.accessToken, room.roomId, targetMxid, input.action === 'mute'),
        };
        break;
      case 'kick': {
        const membership = await s.admin.membershipOf(bot.accessToken, room.roomId, targetMxid);
        before = { membership };
        if (membership !== 'join' && membership !== 'invite') throw conflict('CHAT_NOT_A_MEMBER');
        await s.admin.membership(bot.accessToken, room.roomId, 'kick', targetMxid, input.reason);
        break;
      }
      case 'ban':
        before = { membership: await s.admin.membershipOf(bot.accessToken, room.roomId, targetMxid) };
        await s.admin.membership(bot.accessToken, room.roomId, 'ban', targetMxid, input.reason);
        break;
      case 'unban': {
        const membership = await s.admin.membershipOf(bot.accessToken, room.roomId, targetMxid);
        before = { membership };
        if (membership !== 'ban') throw conflict('CHAT_NOT_BANNED');
        await s.admin.membership(bot.accessToken, room.roomId, 'unban', targetMxid, input.reason);
        await rejoin(ctx, room, targetUserId as string);
        break;
      }
    }
  } catch (err) {
    unavailable(err);
  }
  await recordAudit(ctx, ctx.db, {
    actorId,
    action: 'chat.moderate',
    targetType: 'user',
    targetId: targetUserId ?? targetMxid,
    reason: input.reason ?? null,
    before,
    after: {
      action: input.action,
      room: room.kind === 'global' ? 'global' : `match ${room.key}`,
      roomId: room.roomId,
      ...(input.eventId ? { eventId: input.eventId } : {}),
    },
  });
}

/**
 * A product ban bans from the global room too (with the sanction's reason); when no ban runs any
 * more, the player is unbanned and joined again. Called after a ban is created, lifted or ends.
 */
export async function followProductBan(ctx: AppContext, userId: string): Promise<void> {
  const ban = await activeSanction(ctx, ctx.db, userId, 'ban');
  const s = chat(ctx);
  const bot = await ensureBot(ctx);
  const roomId = await ensureGlobalRoom(ctx);
  const mxid = matrixIdOfUser(ctx, userId);
  const membership = await s.admin.membershipOf(bot.accessToken, roomId, mxid);
  if (ban) {
    if (membership !== 'ban') await s.admin.membership(bot.accessToken, roomId, 'ban', mxid, ban.reason);
    return;
  }
  if (membership !== 'ban') return;
  await s.admin.membership(bot.accessToken, roomId, 'unban', mxid);
  await rejoin(ctx, { kind: 'global', key: 'global', roomId }, userId);
}
