/**
 * Chat module service: every product user gets a Matrix account (provisioned on `user.created`
 * and lazily at login), the global room (#global:<server>) every user joins, one room per match
 * for its players, and the Matrix session returned at login. Works against Synapse
 * (MATRIX_HOMESERVER_URL + MATRIX_SHARED_SECRET) and the embedded homeserver through the same
 * MatrixAdmin calls.
 *
 * Match rooms: players only. Spectators are not members and cannot read them (the room is
 * invite-only with shared history for members); the match page shows the chat to its players.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import {
  directRoomAliasLocalpart,
  GLOBAL_ROOM_ALIAS_LOCALPART,
  globalRoomAlias,
  type MatrixSession,
  matchRoomAliasLocalpart,
  matchRoomName,
  matrixUserId,
} from '@openpug/shared';
import { and, eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { findUserById } from '../accounts/service';
import { isMatchOver } from '../matches';
import { loadMatch } from '../matches/service';
import { chatBlocked } from '../moderation';
import { MatrixAdmin, MatrixCallError, type SentEvent, type Transport } from './matrix-admin';
import { chatAccounts, chatRooms } from './schema';

// A product ban's chat consequences, for the moderation module (moderation.ts imports this file
// back and uses it only inside functions).
export { followProductBan } from './moderation';

export interface ChatService {
  admin: MatrixAdmin;
  /** Known once the bot has an account (from its Matrix id). */
  serverName: string;
  homeserverUrl: string;
  inflight: Map<string, Promise<AccountRow>>;
  /** Match-room joins and leaves under way: the last step of each match (inMatchRoomOrder). */
  matchRoomJoins: Map<string, Promise<void>>;
  /** The last match-room step of any match: they run one after another. */
  roomWork: Promise<void>;
  /** The app is closing: steps still in line are dropped (closeMatchRoomWork). */
  closing: boolean;
  /** Matches the line found over (final), newest last, at most OVER_MATCHES_KEPT (joinMatchRoomSoon). */
  overMatches: Set<string>;
}

type AccountRow = typeof chatAccounts.$inferSelect;
/** The chat module's per-app state (`ctx.state.chat`): its service once the module registered. */
export interface ChatModuleState {
  service?: ChatService;
}
const BOT = 'system';
const BOT_LOCALPART = 'openpug';

export function registerChatService(
  ctx: AppContext,
  transport: Transport,
  sharedSecret: string,
  serverName: string,
  homeserverUrl: string,
) {
  const service: ChatService = {
    admin: new MatrixAdmin(transport, sharedSecret),
    serverName,
    homeserverUrl,
    inflight: new Map(),
    matchRoomJoins: new Map(),
    roomWork: Promise.resolve(),
    closing: false,
    overMatches: new Set(),
  };
  ctx.state.chat.service = service;
  return service;
}

export function chat(ctx: AppContext): ChatService {
  const s = ctx.state.chat.service;
  if (!s) throw new Error('chat module not registered');
  return s;
}

export const chatServerName = (ctx: AppContext) => chat(ctx).serverName;

/** The user's Matrix id (whether or not provisioned yet). */
export const matrixIdOfUser = (ctx: AppContext, userId: string) => matrixUserId(userId, chat(ctx).serverName);

// Passwords are random; they are kept encrypted so a database dump alone cannot log in.
function key(ctx: AppContext): Buffer {
  return createHmac('sha256', ctx.tokens.secret).update('openpug matrix passwords').digest();
}
function encrypt(ctx: AppContext, text: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key(ctx), iv);
  const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
}
function decrypt(ctx: AppContext, value: string): string | null {
  try {
    const [iv, tag, data] = value.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', key(ctx), iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

export async function accountRow(ctx: AppContext, userId: string): Promise<AccountRow | null> {
  const [row] = await ctx.db.select().from(chatAccounts).where(eq(chatAccounts.userId, userId));
  return row ?? null;
}

async function saveAccount(
  ctx: AppContext,
  userId: string,
  matrixId: string,
  password: string,
  login: { accessToken: string; deviceId: string },
) {
  const row: AccountRow = {
    userId,
    matrixUserId: matrixId,
    passwordEnc: encrypt(ctx, password),
    accessToken: login.accessToken,
    deviceId: login.deviceId,
    createdAt: ctx.clock.now(),
  };
  await ctx.db
    .insert(chatAccounts)
    .values(row)
    .onConflictDoUpdate({ target: chatAccounts.userId, set: { ...row, createdAt: undefined } });
  return row;
}

/** Stores the bot's account unless one is stored already; answers the stored one. */
async function insertBotIfAbsent(
  ctx: AppContext,
  matrixId: string,
  password: string,
  login: { accessToken: string; deviceId: string },
): Promise<AccountRow> {
  await ctx.db
    .insert(chatAccounts)
    .values({
      userId: BOT,
      matrixUserId: matrixId,
      passwordEnc: encrypt(ctx, password),
      accessToken: login.accessToken,
      deviceId: login.deviceId,
      createdAt: ctx.clock.now(),
    })
    .onConflictDoNothing();
  return (await accountRow(ctx, BOT)) as AccountRow;
}

/**
 * A room alias already taken: Synapse answers 400 M_ROOM_IN_USE when it sees the alias before
 * creating the room (synapse/handlers/room.py, create_room), and 409 M_UNKNOWN "Room alias …
 * already exists" when two creations race (synapse/storage/databases/main/directory.py,
 * create_room_alias_association; seen with two instances creating #global at once).
 */
function aliasTaken(err: unknown): err is MatrixCallError {
  return err instanceof MatrixCallError && (err.errcode === 'M_ROOM_IN_USE' || err.status === 409);
}

/**
 * Runs a join (with its invite) into a room that may still be being written, again while the
 * homeserver refuses it with 403, for at most ~3 s. Synapse reserves a room's alias before it
 * writes the room's events (synapse/handlers/room.py `create_room`, 1.163: `create_association` at
 * line 1301, then `_send_events_for_new_room` at 1319; the join rules and power levels in one batch
 * after the creator's join, lines 1673-1835). An instance that finds the room by its alias while
 * another creates it (both provisioning their first players at once, or making one match's room)
 * would join a room without join rules, which counts as invite-only: 403 "You are not invited to
 * this room." (synapse/event_auth.py line 766), and the bot's invite fails before its power levels.
 * A 403 that lasts (a player banned from the room) is thrown after the retries.
 */
export async function whenRoomWritten<T>(step: () => Promise<T>): Promise<T> {
  for (let wait = 50; ; wait *= 2) {
    try {
      return await step();
    } catch (err) {
      if (!(err instanceof MatrixCallError && err.status === 403) || wait > 1_600) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** One provisioning per user at a time (bus event and a login may race). */
function once(ctx: AppContext, key: string, fn: () => Promise<AccountRow>): Promise<AccountRow> {
  const s = chat(ctx);
  const running = s.inflight.get(key);
  if (running) return running;
  const p = fn().finally(() => s.inflight.delete(key));
  s.inflight.set(key, p);
  return p;
}

/** The bot account that creates the product's rooms (a server admin). */
export function ensureBot(ctx: AppContext): Promise<AccountRow> {
  return once(ctx, BOT, async () => {
    const s = chat(ctx);
    const existing = await accountRow(ctx, BOT);
    if (existing) {
      s.serverName = existing.matrixUserId.slice(existing.matrixUserId.indexOf(':') + 1);
      return refresh(ctx, existing, null);
    }
    const password = randomBytes(24).toString('base64url');
    let localpart = BOT_LOCALPART;
    for (let attempt = 0; ; attempt++) {
      try {
        const login = await s.admin.register(localpart, password, { admin: true, displayname: 'openpug' });
        s.serverName = login.userId.slice(login.userId.indexOf(':') + 1);
        // Another instance may have registered the deployment's bot meanwhile: the first stored
        // one is the bot (this account stays unused), so every instance acts as the same bot.
        const stored = await insertBotIfAbsent(ctx, login.userId, password, login);
        return stored.matrixUserId === login.userId ? stored : refresh(ctx, stored, null);
      } catch (err) {
        // The homeserver kept a bot from an earlier product database: take a fresh name.
        if (!(err instanceof MatrixCallError && err.errcode === 'M_USER_IN_USE') || attempt > 3) throw err;
        localpart = `${BOT_LOCALPART}-${randomBytes(3).toString('hex')}`;
      }
    }
  });
}

/** Returns the row with a working access token (logging in again, or resetting the password). */
export async function refresh(
  ctx: AppContext,
  row: AccountRow,
  adminToken: string | null,
): Promise<AccountRow> {
  const s = chat(ctx);
  if (await s.admin.whoami(row.accessToken)) return row;
  const logIn = async (password: string) =>
    saveAccount(ctx, row.userId, row.matrixUserId, password, await s.admin.login(row.matrixUserId, password));
  const stored = decrypt(ctx, row.passwordEnc);
  if (stored) {
    try {
      return await logIn(stored);
    } catch (err) {
      if (!(err instanceof MatrixCallError && err.status === 403) || !adminToken) throw err;
    }
  }
  if (!adminToken) throw new Error(`cannot log in ${row.matrixUserId}`);
  const password = randomBytes(24).toString('base64url');
  await s.admin.resetPassword(adminToken, row.matrixUserId, password);
  return logIn(password);
}

/** The global room, created by the bot on first use (public, alias #global:<server>). */
export async function ensureGlobalRoom(ctx: AppContext): Promise<string> {
  const [row] = await ctx.db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.kind, 'global'), eq(chatRooms.key, 'global')));
  if (row) return row.roomId;
  const bot = await ensureBot(ctx);
  const s = chat(ctx);
  let roomId = await s.admin.resolveAlias(globalRoomAlias(s.serverName), bot.accessToken);
  if (!roomId) {
    try {
      roomId = await s.admin.createRoom(bot.accessToken, {
        preset: 'public_chat',
        room_alias_name: GLOBAL_ROOM_ALIAS_LOCALPART,
        name: 'Global',
        power_level_content_override: { events_default: 0, invite: 50 },
      });
    } catch (err) {
      if (!aliasTaken(err)) throw err;
      roomId = await s.admin.resolveAlias(globalRoomAlias(s.serverName), bot.accessToken);
      if (!roomId) throw err;
    }
  }
  await ctx.db.insert(chatRooms).values({ kind: 'global', key: 'global', roomId }).onConflictDoNothing();
  const [stored] = await ctx.db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.kind, 'global'), eq(chatRooms.key, 'global')));
  return stored.roomId;
}

/**
 * Makes sure the product user has a Matrix account with a valid token and is in the global room.
 * Idempotent; called on `user.created` and at every login.
 */
export function provisionUser(ctx: AppContext, userId: string): Promise<AccountRow> {
  return once(ctx, userId, async () => {
    const s = chat(ctx);
    const bot = await ensureBot(ctx);
    const existing = await accountRow(ctx, userId);
    if (existing) return refresh(ctx, existing, bot.accessToken);
    const user = await findUserById(ctx.db, userId);
    if (!user) throw new Error(`unknown user ${userId}`);
    const password = randomBytes(24).toString('base64url');
    const mxid = matrixUserId(userId, s.serverName);
    let login: { accessToken: string; deviceId: string };
    try {
      login = await s.admin.register(userId, password, { displayname: user.name ?? undefined });
    } catch (err) {
      // The account exists from an earlier product database: take it over with a new password.
      if (!(err instanceof MatrixCallError && err.errcode === 'M_USER_IN_USE')) throw err;
      await s.admin.resetPassword(bot.accessToken, mxid, password);
      login = await s.admin.login(mxid, password);
    }
    const row = await saveAccount(ctx, userId, mxid, password, login);
    const globalRoom = await ensureGlobalRoom(ctx);
    await whenRoomWritten(() => s.admin.join(row.accessToken, globalRoom));
    return row;
  });
}

/**
 * Revokes every chat access token of the user (a password change or reset, a ban): all their
 * devices are deleted through the admin API, so whatever token a browser holds answers
 * M_UNKNOWN_TOKEN. The stored password stays, so the next login gets a fresh token (`refresh`).
 * Nothing to do for a user who never had a chat account.
 */
export async function revokeChatSessions(ctx: AppContext, userId: string): Promise<void> {
  const row = await accountRow(ctx, userId);
  if (!row) return;
  const s = chat(ctx);
  const bot = await ensureBot(ctx);
  const devices = await s.admin.devices(bot.accessToken, row.matrixUserId);
  if (devices.length > 0) await s.admin.deleteDevices(bot.accessToken, row.matrixUserId, devices);
}

/** The credentials returned at login: `{userId, accessToken, deviceId, homeserverUrl}`. */
export async function matrixSessionFor(ctx: AppContext, userId: string): Promise<MatrixSession> {
  const row = await provisionUser(ctx, userId);
  return {
    userId: row.matrixUserId,
    accessToken: row.accessToken,
    deviceId: row.deviceId,
    homeserverUrl: chat(ctx).homeserverUrl,
  };
}

/** The match's room id, if it has one. */
export async function matchRoomOf(ctx: AppContext, matchId: string): Promise<string | null> {
  const [row] = await ctx.db
    .select()
    .from(chatRooms)
    .where(and(eq(chatRooms.kind, 'match'), eq(chatRooms.key, matchId)));
  return row?.roomId ?? null;
}

/**
 * The match room's name: its teams, as the match page titles the chat. The match row is committed
 * before its players are patched into it, so the names are known when the room is made; a room
 * for a match that is not there (nothing makes one today) falls back to the match id.
 */
async function matchRoomTitle(ctx: AppContext, matchId: string): Promise<string> {
  const found = await loadMatch(ctx.db, matchId);
  return found
    ? matchRoomName(found.match.teamOneName, found.match.teamTwoName)
    : `Match ${matchId.slice(0, 8)}`;
}

/**
 * Creates the match's room (idempotent) with its players as members: private, invite-only, alias
 * #match_<matchId>, named after the match's teams. Players are invited and joined server-side, so
 * the room is in their room list right away. Spectators are not members.
 */
export async function createMatchRoom(ctx: AppContext, matchId: string, userIds: string[]): Promise<string> {
  const existing = await matchRoomOf(ctx, matchId);
  if (existing) return existing;
  const s = chat(ctx);
  const bot = await ensureBot(ctx);
  const players = await Promise.all(userIds.map((id) => provisionUser(ctx, id)));
  let roomId: string;
  try {
    roomId = await s.admin.createRoom(bot.accessToken, {
      preset: 'private_chat',
      room_alias_name: matchRoomAliasLocalpart(matchId),
      name: await matchRoomTitle(ctx, matchId),
      invite: players.map((p) => p.matrixUserId),
      power_level_content_override: { events_default: 0, invite: 100 },
    });
  } catch (err) {
    if (!aliasTaken(err)) throw err;
    const found = await s.admin.resolveAlias(
      `#${matchRoomAliasLocalpart(matchId)}:${s.serverName}`,
      bot.accessToken,
    );
    if (!found) throw err;
    roomId = found;
  }
  // Found by its alias, the room may still be being written (whenRoomWritten).
  for (const p of players) await whenRoomWritten(() => s.admin.join(p.accessToken, roomId));
  await ctx.db.insert(chatRooms).values({ kind: 'match', key: matchId, roomId }).onConflictDoNothing();
  return (await matchRoomOf(ctx, matchId)) ?? roomId;
}

/**
 * Puts one player into the match's room, creating the room with the first player (idempotent):
 * the bot invites, the player joins server-side, so the room is in the player's list at once.
 * Called for each player when the matches module marks them as in a match.
 */
export async function joinMatchRoom(ctx: AppContext, matchId: string, userId: string): Promise<string> {
  const roomId = await createMatchRoom(ctx, matchId, []);
  const s = chat(ctx);
  const bot = await ensureBot(ctx);
  const player = await provisionUser(ctx, userId);
  await whenRoomWritten(async () => {
    try {
      await s.admin.invite(bot.accessToken, roomId, player.matrixUserId);
    } catch {
      // already a member (or already invited): the join below decides
    }
    await s.admin.join(player.accessToken, roomId);
  });
  // A muted player plays but does not write in the match's room either.
  if (await chatBlocked(ctx, ctx.db, userId)) await setChatSilenced(ctx, userId, true, [matchId]);
  return roomId;
}

/**
 * Joins and leaves of a match's room run beside the match, never in front of it. A join is three
 * homeserver calls per player; awaited in the status patch it sat between the last accept and
 * PRIVATE_MATCH_START (and the last accept's ack) for all ten players one after another
 * (docs/contract.md §4 Chat: nothing slow between the last accept and the match start). One chain
 * per match keeps the room created once and a replaced player's leave after their join; a failed
 * step is logged and the player joins at their next patch. The steps of all matches also wait
 * for each other (one at a time, in order): a burst of matches (1,000 players queueing at once)
 * would otherwise start a hundred room provisionings at once, whose homeserver writes share the
 * database and the core with the matches still forming (issue 20); and each step waits while the
 * queue writes (lib/priority.ts).
 */
function inMatchRoomOrder(
  ctx: AppContext,
  matchId: string,
  userId: string,
  what: string,
  step: () => Promise<unknown>,
): void {
  const s = chat(ctx);
  const joins = s.matchRoomJoins;
  const next: Promise<void> = s.roomWork
    .then(() => ctx.priority.calm())
    .then(() => (s.closing ? undefined : step()))
    .then(
      () => undefined,
      (err) => ctx.log.warn({ err, userId, matchId }, `match room ${what} failed`),
    )
    .finally(() => {
      if (joins.get(matchId) === next) joins.delete(matchId);
    });
  s.roomWork = next;
  joins.set(matchId, next);
}

const OVER_MATCHES_KEPT = 1_000;

export const joinMatchRoomSoon = (ctx: AppContext, matchId: string, userId: string) =>
  inMatchRoomOrder(ctx, matchId, userId, 'join', async () => {
    // A join that waited in line until after its match ended is dropped: under a burst the line
    // can be minutes long (2,000 players on two instances: 3,774 matches, 79 rooms made by Synapse
    // in 11 minutes, bench/RESULTS.md), and a room for a match whose players have left only
    // lengthens it. Over is final, so the match's other nine joins drop without reading it again
    // (those reads were 8 % of the two-instance bench's statements, session 25).
    const over = chat(ctx).overMatches;
    if (over.has(matchId)) return;
    if (await isMatchOver(ctx.db, matchId)) {
      over.add(matchId);
      if (over.size > OVER_MATCHES_KEPT) over.delete(over.values().next().value as string);
      return;
    }
    await joinMatchRoom(ctx, matchId, userId);
  });

export const leaveMatchRoomSoon = (ctx: AppContext, matchId: string, userId: string) =>
  inMatchRoomOrder(ctx, matchId, userId, 'leave', () => leaveMatchRoom(ctx, matchId, userId));

/** Resolves once every match-room join and leave started so far has ended (tests, shutdown). */
export async function matchRoomJoinsSettled(ctx: AppContext): Promise<void> {
  const joins = chat(ctx).matchRoomJoins;
  while (joins.size > 0) await Promise.all(joins.values());
}

/**
 * On close: the step under way ends, the ones still in line are dropped, before the database
 * goes. Waiting for a long line would hold a deploy for minutes, and each step would then fail on
 * the closed pool (37,728 log lines at the end of the two-instance bench). A dropped join is made
 * again at the player's next status patch.
 */
export async function closeMatchRoomWork(ctx: AppContext): Promise<void> {
  chat(ctx).closing = true;
  await matchRoomJoinsSettled(ctx);
}

/**
 * Takes a player out of the match's room (the bot kicks them): someone else took their place in
 * the match (a substitute, an admin's swap). Nothing to do when the room or the membership is gone.
 */
export async function leaveMatchRoom(ctx: AppContext, matchId: string, userId: string): Promise<void> {
  const roomId = await matchRoomOf(ctx, matchId);
  if (!roomId) return;
  const s = chat(ctx);
  const bot = await ensureBot(ctx);
  const mxid = matrixIdOfUser(ctx, userId);
  const membership = await s.admin.membershipOf(bot.accessToken, roomId, mxid);
  if (membership !== 'join' && membership !== 'invite') return;
  await s.admin.membership(bot.accessToken, roomId, 'kick', mxid, 'replaced in the match');
}

/** The power level that keeps a member from sending (below `events_default` 0 of our rooms). */
export const SILENCED_LEVEL = -1;

/**
 * A banned or muted player cannot write in the product's rooms: the bot puts them at
 * SILENCED_LEVEL in the power levels of the global room and of the given match rooms (the live
 * one), and removes the entry again when `silenced` is false. Works for players without a Matrix
 * account yet (the power levels name their future id). Direct rooms between friends are theirs;
 * the bot is not in them.
 */
export async function setChatSilenced(
  ctx: AppContext,
  userId: string,
  silenced: boolean,
  matchIds: readonly string[] = [],
): Promise<void> {
  const bot = await ensureBot(ctx);
  const mxid = matrixIdOfUser(ctx, userId);
  const rooms = [await ensureGlobalRoom(ctx)];
  for (const matchId of matchIds) {
    const roomId = await matchRoomOf(ctx, matchId);
    if (roomId) rooms.push(roomId);
  }
  for (const roomId of rooms) await setSilencedIn(ctx, bot.accessToken, roomId, mxid, silenced);
}

/**
 * Puts a member at SILENCED_LEVEL in one room's power levels (or takes the entry out again);
 * answers whether they were silenced before.
 */
export async function setSilencedIn(
  ctx: AppContext,
  botToken: string,
  roomId: string,
  mxid: string,
  silenced: boolean,
): Promise<boolean> {
  const s = chat(ctx);
  const pl = await s.admin.getState(botToken, roomId, 'm.room.power_levels');
  const users = { ...((pl.users as Record<string, number> | undefined) ?? {}) };
  const was = users[mxid] === SILENCED_LEVEL;
  if (silenced === was) return was;
  if (silenced) users[mxid] = SILENCED_LEVEL;
  else delete users[mxid];
  await s.admin.putState(botToken, roomId, 'm.room.power_levels', '', { ...pl, users });
  return was;
}

/**
 * The chat messages the user sent that are still there (not redacted), from every room they are
 * in, read through the chat server's client API with their own token — the same calls on Synapse
 * and on the embedded homeserver. Empty for a user without a Matrix account.
 */
export async function sentMessagesOf(ctx: AppContext, userId: string): Promise<SentEvent[]> {
  const row = await accountRow(ctx, userId);
  if (!row) return [];
  const s = chat(ctx);
  const live = await refresh(ctx, row, (await ensureBot(ctx)).accessToken);
  const out: SentEvent[] = [];
  for (const roomId of await s.admin.joinedRooms(live.accessToken))
    out.push(...(await s.admin.messagesBy(live.accessToken, roomId, live.matrixUserId)));
  return out.sort((a, b) => a.ts - b.ts);
}

/**
 * Account deletion: redacts every message the user sent (with their own token; where they may not
 * redact — silenced in a product room — the bot does it), then deactivates the Matrix account
 * through the admin API (logins and tokens end, rooms are left) and forgets the stored
 * credentials. Returns how many messages were redacted. Throws when the chat server fails: the
 * caller then keeps the account.
 */
export async function eraseChatAccount(ctx: AppContext, userId: string): Promise<number> {
  const row = await accountRow(ctx, userId);
  if (!row) return 0;
  const s = chat(ctx);
  const bot = await ensureBot(ctx);
  const live = await refresh(ctx, row, bot.accessToken);
  const messages = await sentMessagesOf(ctx, userId);
  const txn = `erase-${ctx.clock.now()}`;
  for (const [i, m] of messages.entries()) {
    try {
      await s.admin.redact(live.accessToken, m.roomId, m.eventId, `${txn}-${i}`);
    } catch (err) {
      if (!(err instanceof MatrixCallError && err.status === 403)) throw err;
      await s.admin.redact(bot.accessToken, m.roomId, m.eventId, `${txn}-${i}`);
    }
  }
  await s.admin.deactivate(bot.accessToken, live.matrixUserId);
  await ctx.db.delete(chatAccounts).where(eq(chatAccounts.userId, userId));
  return messages.length;
}

export { directRoomAliasLocalpart };

/** The match whose chat room this is, or undefined for another room. */
export async function matchIdOfChatRoom(db: Db, roomId: string): Promise<string | undefined> {
  const [room] = await db
    .select({ key: chatRooms.key })
    .from(chatRooms)
    .where(and(eq(chatRooms.kind, 'match'), eq(chatRooms.roomId, roomId)));
  return room?.key;
}
