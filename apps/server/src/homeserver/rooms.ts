/**
 * Room operations with their authorisation rules: create (presets, alias, invites, is_direct),
 * join by id or alias, invite, leave, send and redact (transaction-id idempotent), state, aliases and
 * visibility of history. Nobody reads or writes a room they are not in; power levels decide who
 * may send which event or state and who may invite.
 */
import { matrixUserId, parseDirectRoomAliasLocalpart } from '@openpug/shared';
import { and, eq } from 'drizzle-orm';
import type { Homeserver } from './context';
import { MatrixError, mxBadJson, mxBadState, mxForbidden, mxInvalidParam, mxNotFound } from './errors';
import {
  appendEvents,
  type EventDraft,
  type EventRow,
  eventById,
  eventByTxn,
  type Json,
  membershipOf,
  newRoomId,
  stateEvent,
} from './events';
import { mxAliases, mxRooms, mxUsers } from './schema';
import { type Session, userExists } from './users';

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function validAlias(hs: Homeserver, alias: string): boolean {
  const m = /^#([^:#\s]+):(.+)$/.exec(alias);
  return !!m && m[2] === hs.serverName && alias.length <= 255;
}

/**
 * A direct-chat alias (`#<id>_<id>`, docs/contract.md §3) may only be created by one of the two users it
 * names: else a third user could claim it first and read the "direct" chat, or block it. Synapse
 * runs the same rule in scripts/synapse/openpug_synapse.py; both answer 403 M_FORBIDDEN.
 */
function mayCreateAlias(hs: Homeserver, userId: string, alias: string): boolean {
  const peers = parseDirectRoomAliasLocalpart(alias.slice(1, alias.indexOf(':')));
  return !peers || peers.some((id) => matrixUserId(id, hs.serverName) === userId);
}

const mxAliasForbidden = () => mxForbidden('This user is not permitted to create this alias');

export async function resolveAlias(hs: Homeserver, alias: string): Promise<string | null> {
  const [row] = await hs.db.select().from(mxAliases).where(eq(mxAliases.alias, alias));
  return row?.roomId ?? null;
}

export async function roomExists(hs: Homeserver, roomId: string): Promise<boolean> {
  const rows = await hs.db.select({ id: mxRooms.roomId }).from(mxRooms).where(eq(mxRooms.roomId, roomId));
  return rows.length > 0;
}

export async function powerLevels(hs: Homeserver, roomId: string): Promise<Json> {
  return (await stateEvent(hs, roomId, 'm.room.power_levels', ''))?.content ?? {};
}

/**
 * A power level from m.room.power_levels: an integer (or, as older rooms allow, an integer
 * string); anything else counts as absent, so a malformed value such as "x" can never compare as
 * NaN and let everyone through.
 */
export function levelOf(value: unknown, fallback: number): number {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return fallback;
}

export function userLevel(pl: Json, userId: string): number {
  const users = isObject(pl.users) ? pl.users : {};
  return levelOf(users[userId], levelOf(pl.users_default, 0));
}

function requiredLevel(pl: Json, type: string, isState: boolean): number {
  const events = isObject(pl.events) ? pl.events : {};
  const fallback = isState ? levelOf(pl.state_default, 50) : levelOf(pl.events_default, 0);
  return levelOf(events[type], fallback);
}

async function requireJoined(hs: Homeserver, roomId: string, userId: string): Promise<void> {
  const m = await membershipOf(hs, roomId, userId);
  if (m?.membership !== 'join') throw mxForbidden(`User ${userId} not in room ${roomId}`);
}

/**
 * Highest stream position the user may read in the room: all of it while joined, up to their
 * leave after leaving (or being kicked), nothing once banned — as Synapse's
 * check_user_in_room(allow_departed_users=True) (synapse/api/auth/base.py: only `leave` departs).
 */
export async function readableUpTo(hs: Homeserver, roomId: string, userId: string): Promise<number> {
  const m = await membershipOf(hs, roomId, userId);
  if (m?.membership === 'join') return Number.MAX_SAFE_INTEGER;
  if (m?.membership === 'leave') return m.stream;
  throw mxForbidden(`User ${userId} not in room ${roomId}`);
}

export interface CreateRoomBody {
  preset?: unknown;
  visibility?: unknown;
  room_alias_name?: unknown;
  name?: unknown;
  topic?: unknown;
  invite?: unknown;
  is_direct?: unknown;
  initial_state?: unknown;
  power_level_content_override?: unknown;
  creation_content?: unknown;
}

export async function createRoom(hs: Homeserver, session: Session, body: CreateRoomBody) {
  const me = session.userId;
  const preset =
    typeof body.preset === 'string'
      ? body.preset
      : body.visibility === 'public'
        ? 'public_chat'
        : 'private_chat';
  if (!['private_chat', 'trusted_private_chat', 'public_chat'].includes(preset))
    throw mxInvalidParam('Unknown preset');
  const invite = body.invite ?? [];
  if (!Array.isArray(invite) || !invite.every((u) => typeof u === 'string'))
    throw mxBadJson('invite must be a list of user ids');
  for (const u of invite as string[]) if (!(await userExists(hs, u))) throw mxNotFound(`Unknown user ${u}`);
  let alias: string | null = null;
  if (body.room_alias_name !== undefined) {
    if (
      typeof body.room_alias_name !== 'string' ||
      !validAlias(hs, `#${body.room_alias_name}:${hs.serverName}`)
    ) {
      throw mxInvalidParam('Invalid characters in room alias');
    }
    alias = `#${body.room_alias_name}:${hs.serverName}`;
    // Synapse answers a taken alias before it asks whether this user may create it.
    if (!mayCreateAlias(hs, me, alias)) {
      if (await resolveAlias(hs, alias))
        throw new MatrixError(400, 'M_ROOM_IN_USE', 'Room alias already taken');
      throw mxAliasForbidden();
    }
  }
  const initialState = body.initial_state ?? [];
  if (
    !Array.isArray(initialState) ||
    !initialState.every((s) => isObject(s) && typeof s.type === 'string' && isObject(s.content))
  ) {
    throw mxBadJson('initial_state must be a list of state events');
  }
  const isDirect = body.is_direct === true;
  const roomId = newRoomId(hs);
  const users: Json = { [me]: 100 };
  if (preset === 'trusted_private_chat') for (const u of invite as string[]) users[u] = 100;
  const pl: Json = {
    users,
    users_default: 0,
    events: {
      'm.room.name': 50,
      'm.room.power_levels': 100,
      'm.room.history_visibility': 100,
      'm.room.canonical_alias': 50,
      'm.room.avatar': 50,
      'm.room.tombstone': 100,
      'm.room.server_acl': 100,
      'm.room.encryption': 100,
    },
    events_default: 0,
    state_default: 50,
    ban: 50,
    kick: 50,
    redact: 50,
    invite: 0,
    historical: 100,
    ...(isObject(body.power_level_content_override) ? body.power_level_content_override : {}),
  };
  const drafts: EventDraft[] = [
    {
      type: 'm.room.create',
      stateKey: '',
      sender: me,
      content: {
        ...(isObject(body.creation_content) ? body.creation_content : {}),
        creator: me,
        room_version: '10',
      },
    },
    {
      type: 'm.room.member',
      stateKey: me,
      sender: me,
      content: { membership: 'join', ...(await memberProfile(hs, me)) },
    },
    { type: 'm.room.power_levels', stateKey: '', sender: me, content: pl },
  ];
  if (alias) drafts.push({ type: 'm.room.canonical_alias', stateKey: '', sender: me, content: { alias } });
  drafts.push(
    {
      type: 'm.room.join_rules',
      stateKey: '',
      sender: me,
      content: { join_rule: preset === 'public_chat' ? 'public' : 'invite' },
    },
    {
      type: 'm.room.history_visibility',
      stateKey: '',
      sender: me,
      content: { history_visibility: 'shared' },
    },
    {
      type: 'm.room.guest_access',
      stateKey: '',
      sender: me,
      content: { guest_access: preset === 'public_chat' ? 'forbidden' : 'can_join' },
    },
  );
  for (const s of initialState as { type: string; state_key?: unknown; content: Json }[]) {
    if (s.type === 'm.room.member' || s.type === 'm.room.create') continue;
    drafts.push({
      type: s.type,
      stateKey: typeof s.state_key === 'string' ? s.state_key : '',
      sender: me,
      content: s.content,
    });
  }
  if (typeof body.name === 'string')
    drafts.push({ type: 'm.room.name', stateKey: '', sender: me, content: { name: body.name } });
  if (typeof body.topic === 'string')
    drafts.push({ type: 'm.room.topic', stateKey: '', sender: me, content: { topic: body.topic } });
  for (const u of invite as string[]) {
    if (u === me) continue;
    drafts.push({
      type: 'm.room.member',
      stateKey: u,
      sender: me,
      content: {
        membership: 'invite',
        ...(isDirect ? { is_direct: true } : {}),
        ...(await memberProfile(hs, u)),
      },
    });
  }
  await appendEvents(hs, roomId, drafts, async (tx) => {
    if (alias) {
      const claimed = await tx
        .insert(mxAliases)
        .values({ alias, roomId, creator: me })
        .onConflictDoNothing()
        .returning();
      if (claimed.length === 0) throw new MatrixError(400, 'M_ROOM_IN_USE', 'Room alias already taken');
    }
    await tx.insert(mxRooms).values({ roomId, creator: me, createdAt: hs.now() });
  });
  return { room_id: roomId, ...(alias ? { room_alias: alias } : {}) };
}

async function memberProfile(hs: Homeserver, userId: string): Promise<Json> {
  const [row] = await hs.db.select().from(mxUsers).where(eq(mxUsers.userId, userId));
  return row ? { displayname: row.displayname ?? undefined, avatar_url: row.avatarUrl ?? undefined } : {};
}

/** Join by room id or alias; joining a room one is already in changes nothing. */
export async function joinRoom(hs: Homeserver, session: Session, idOrAlias: string): Promise<string> {
  let roomId = idOrAlias;
  if (idOrAlias.startsWith('#')) {
    const resolved = await resolveAlias(hs, idOrAlias);
    if (!resolved) throw mxNotFound(`Room alias ${idOrAlias} not found`);
    roomId = resolved;
  } else if (!idOrAlias.startsWith('!')) {
    throw mxInvalidParam(`${idOrAlias} was not legal room ID or room alias`);
  }
  if (!(await roomExists(hs, roomId))) throw mxNotFound('No known servers');
  const current = await membershipOf(hs, roomId, session.userId);
  if (current?.membership === 'join') return roomId;
  if (current?.membership === 'ban') throw mxBadState('Cannot join user who was banned');
  const rule = (await stateEvent(hs, roomId, 'm.room.join_rules', ''))?.content.join_rule;
  if (current?.membership !== 'invite' && rule !== 'public')
    throw mxForbidden('You are not invited to this room.');
  await appendEvents(hs, roomId, [
    {
      type: 'm.room.member',
      stateKey: session.userId,
      sender: session.userId,
      content: { membership: 'join', ...(await memberProfile(hs, session.userId)) },
    },
  ]);
  return roomId;
}

export async function inviteUser(hs: Homeserver, session: Session, roomId: string, target: unknown) {
  if (typeof target !== 'string') throw new MatrixError(400, 'M_MISSING_PARAM', 'Missing user_id');
  await requireJoined(hs, roomId, session.userId);
  const pl = await powerLevels(hs, roomId);
  if (userLevel(pl, session.userId) < levelOf(pl.invite, 0))
    throw mxForbidden('You do not have permission to invite');
  if (!(await userExists(hs, target))) throw mxNotFound(`Unknown user ${target}`);
  const current = await membershipOf(hs, roomId, target);
  if (current?.membership === 'join') throw mxForbidden(`${target} is already in the room.`);
  // Synapse refuses this before the auth rules, as M_BAD_STATE (room_member.py, update_membership_locked).
  if (current?.membership === 'ban') throw mxBadState('Cannot invite user who was banned');
  if (current?.membership === 'invite') return;
  await appendEvents(hs, roomId, [
    {
      type: 'm.room.member',
      stateKey: target,
      sender: session.userId,
      content: { membership: 'invite', ...(await memberProfile(hs, target)) },
    },
  ]);
}

export async function leaveRoom(hs: Homeserver, session: Session, roomId: string) {
  const current = await membershipOf(hs, roomId, session.userId);
  if (!current || !['join', 'invite'].includes(current.membership)) {
    throw mxForbidden(`User ${session.userId} not in room ${roomId}`);
  }
  await appendEvents(hs, roomId, [
    {
      type: 'm.room.member',
      stateKey: session.userId,
      sender: session.userId,
      content: { membership: 'leave' },
    },
  ]);
}

export async function sendMessage(
  hs: Homeserver,
  session: Session,
  roomId: string,
  type: string,
  content: Json,
  txnId: string,
): Promise<string> {
  await requireJoined(hs, roomId, session.userId);
  const previous = await eventByTxn(hs, roomId, session.userId, session.deviceId, txnId);
  if (previous) return previous.eventId;
  const pl = await powerLevels(hs, roomId);
  if (userLevel(pl, session.userId) < requiredLevel(pl, type, false))
    throw mxForbidden(`You may not send ${type} here`);
  const [row] = await appendEvents(hs, roomId, [
    { type, sender: session.userId, content, txnId, txnDevice: session.deviceId },
  ]);
  return row.eventId;
}

/**
 * Redacts an event (transaction-id idempotent like send), with Synapse's rules: members may
 * redact their own events; others' need the `redact` power level (50 unless set), which also
 * allows redacting an event this server does not know. The create event is never redacted.
 */
export async function redactEvent(
  hs: Homeserver,
  session: Session,
  roomId: string,
  eventId: string,
  content: Json,
  txnId: string,
): Promise<string> {
  const me = session.userId;
  await requireJoined(hs, roomId, me);
  const previous = await eventByTxn(hs, roomId, me, session.deviceId, txnId);
  if (previous) return previous.eventId;
  const target = await eventById(hs, eventId);
  if (target && target.roomId !== roomId)
    throw new MatrixError(400, 'M_UNKNOWN', 'Cannot redact event from a different room');
  if (target?.type === 'm.room.create') throw mxForbidden('Redacting create events is not permitted');
  const pl = await powerLevels(hs, roomId);
  const level = userLevel(pl, me);
  if (level < requiredLevel(pl, 'm.room.redaction', false))
    throw mxForbidden('You may not send m.room.redaction here');
  if (level < levelOf(pl.redact, 50)) {
    if (!target) throw mxNotFound(`Could not find event ${eventId}`);
    if (target.sender !== me) throw mxForbidden("You don't have permission to redact events");
  }
  // Room version 10: `redacts` is a top-level key, not part of the content.
  const { redacts: _, ...rest } = content;
  const [row] = await appendEvents(hs, roomId, [
    {
      type: 'm.room.redaction',
      sender: me,
      content: rest,
      redacts: eventId,
      txnId,
      txnDevice: session.deviceId,
    },
  ]);
  return row.eventId;
}

export async function setState(
  hs: Homeserver,
  session: Session,
  roomId: string,
  type: string,
  stateKey: string,
  content: Json,
): Promise<string> {
  await requireJoined(hs, roomId, session.userId);
  if (type === 'm.room.member' || type === 'm.room.create') {
    throw mxForbidden('Use the membership endpoints to change membership');
  }
  const pl = await powerLevels(hs, roomId);
  const level = userLevel(pl, session.userId);
  if (level < requiredLevel(pl, type, true)) throw mxForbidden(`You don't have permission to post ${type}`);
  if (stateKey.startsWith('@') && stateKey !== session.userId && level < 100)
    throw mxForbidden('State key belongs to another user');
  if (type === 'm.room.canonical_alias' && typeof content.alias === 'string') {
    if ((await resolveAlias(hs, content.alias)) !== roomId)
      throw new MatrixError(400, 'M_BAD_ALIAS', 'Alias does not point to this room');
  }
  const [row] = await appendEvents(hs, roomId, [{ type, stateKey, sender: session.userId, content }]);
  return row.eventId;
}

export async function readState(
  hs: Homeserver,
  session: Session,
  roomId: string,
  type: string,
  stateKey: string,
) {
  const upTo = await readableUpTo(hs, roomId, session.userId);
  const e = await stateEvent(hs, roomId, type, stateKey);
  if (!e || e.stream > upTo) throw mxNotFound('Event not found.');
  return e;
}

export async function putAlias(hs: Homeserver, session: Session, alias: string, roomId: unknown) {
  if (typeof roomId !== 'string') throw new MatrixError(400, 'M_MISSING_PARAM', 'Missing room_id');
  if (!validAlias(hs, alias)) throw mxInvalidParam('Invalid alias');
  if (!(await roomExists(hs, roomId))) throw mxNotFound('Room not found');
  await requireJoined(hs, roomId, session.userId);
  if (!mayCreateAlias(hs, session.userId, alias)) throw mxAliasForbidden();
  const claimed = await hs.db
    .insert(mxAliases)
    .values({ alias, roomId, creator: session.userId })
    .onConflictDoNothing()
    .returning();
  if (claimed.length === 0) throw new MatrixError(409, 'M_UNKNOWN', `Room alias ${alias} already exists`);
}

export async function deleteAlias(hs: Homeserver, session: Session, alias: string) {
  const [row] = await hs.db.select().from(mxAliases).where(eq(mxAliases.alias, alias));
  if (!row) throw mxNotFound('Room alias not found');
  if (row.creator !== session.userId) {
    const pl = await powerLevels(hs, row.roomId);
    const m = await membershipOf(hs, row.roomId, session.userId);
    if (
      m?.membership !== 'join' ||
      userLevel(pl, session.userId) < requiredLevel(pl, 'm.room.canonical_alias', true)
    ) {
      throw mxForbidden('You may not delete this alias');
    }
  }
  await hs.db.delete(mxAliases).where(and(eq(mxAliases.alias, alias), eq(mxAliases.roomId, row.roomId)));
}

export type { EventRow };
