/**
 * The messaging-server client (docs/contract.md §4 Chat, §7 Messaging server client) on matrix-js-sdk. This
 * module is only ever loaded through a dynamic import (see ./ChatRuntime), so the SDK is never
 * part of the landing route's initial JavaScript.
 */
import {
  type ChatSessionResponse,
  DEFAULT_SOUND,
  directRoomAliasLocalpart,
  GLOBAL_ROOM_ALIAS_LOCALPART,
  type MatrixSession,
  parseDirectRoomAliasLocalpart,
} from '@openpug/shared';
import {
  ClientEvent,
  createClient,
  EventType,
  HttpApiEvent,
  type MatrixClient,
  type MatrixEvent,
  NotificationCountType,
  Preset,
  type Room,
  RoomEvent,
  RoomMemberEvent,
  SyncState,
} from 'matrix-js-sdk';
import { playSound } from '../accounts';
import { api } from '../api';
import { saveSession, useSession } from '../session';
import {
  CHAT,
  isDirectRoomCreator,
  notificationFor,
  notificationsMap,
  ROOM_TAGS,
  type RoomSummary,
  type RoomTag,
  type UnreadTimelineEvent,
  unreadWhileInvited,
} from './rules';
import { resetChatState, setChatUnavailable, useChat } from './store';

type Logger = NonNullable<Parameters<typeof createClient>[0]['logger']>;
const quiet: Logger = {
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: (...msg: unknown[]) => console.error('[chat]', ...msg),
  getChild: () => quiet,
};

let client: MatrixClient | null = null;
let starting: Promise<MatrixClient | null> | null = null;

export const getClient = () => client;
export const serverName = () => (client?.getUserId() ?? '').replace(/^@[^:]*:/, '');

/**
 * Whether a failed chat call means the server refused the credentials (401/403), as opposed to
 * the network failing or the page unloading mid-request, which must not end the session.
 */
export function rejectsCredentials(err: unknown): boolean {
  const status = (err as { httpStatus?: unknown } | null)?.httpStatus;
  return status === 401 || status === 403;
}

/**
 * What a sync state says about the chat server: reachable (true), unreachable (false: a failed
 * sync, RECONNECTING, or ERROR once matrix-js-sdk's keep-alive fails too), or nothing new (null:
 * CATCHUP, when it answers again but has not synced yet, and STOPPED). matrix-js-sdk keeps retrying
 * by itself; the chat follows these states.
 */
export function reachableBySync(state: SyncState | null): boolean | null {
  if (state === SyncState.Prepared || state === SyncState.Syncing) return true;
  if (state === SyncState.Error || state === SyncState.Reconnecting) return false;
  return null;
}

let renewing: Promise<void> | null = null;

/**
 * The chat token was refused: it is revoked with every session of the account (a password
 * change, also this tab's own; docs/contract.md §4). Asks the product for fresh credentials: a tab
 * whose session still holds gets them (the runtime restarts on the new token); a revoked session
 * answers 401, which signs the tab out (api client).
 */
export function renewChatCredentials(): Promise<void> {
  if (renewing) return renewing;
  const { token } = useSession.getState();
  if (!token) return Promise.resolve();
  renewing = api
    .get<ChatSessionResponse>('/chat/session', { silent: true })
    .then(({ matrix }) => {
      if (useSession.getState().token === token) saveSession({ token, matrix });
    })
    .catch(() => undefined)
    .finally(() => {
      renewing = null;
    });
  return renewing;
}

/**
 * Sign-in with the stored token (docs/contract.md §4): checks the token with the server, then marks the client
 * logged in and starts syncing. A refused chat token (at start or later while syncing) asks for
 * fresh credentials (renewChatCredentials).
 */
export function startChat(creds: MatrixSession): Promise<MatrixClient | null> {
  if (client && client.getAccessToken() === creds.accessToken) return Promise.resolve(client);
  if (starting) return starting;
  starting = (async () => {
    const c = createClient({
      baseUrl: creds.homeserverUrl,
      accessToken: creds.accessToken,
      userId: creds.userId,
      deviceId: creds.deviceId,
      timelineSupport: true,
      logger: quiet,
    });
    try {
      await c.whoami();
    } catch (err) {
      console.error('[chat] login failed', err);
      if (rejectsCredentials(err)) void renewChatCredentials();
      throw err;
    }
    client = c;
    useChat.setState({ matrixLoggedIn: true });
    wire(c);
    await c.startClient({ initialSyncLimit: CHAT.pageSize, lazyLoadMembers: false });
    return c;
  })().finally(() => {
    starting = null;
  });
  return starting;
}

export function stopChat(): void {
  client?.stopClient();
  client?.removeAllListeners();
  client = null;
  resetChatState();
}

function wire(c: MatrixClient): void {
  const me = c.getUserId() ?? '';
  c.on(HttpApiEvent.SessionLoggedOut, () => {
    if (client === c) void renewChatCredentials();
  });
  c.on(ClientEvent.Sync, (state) => {
    const reachable = reachableBySync(state);
    if (reachable !== null && client === c) setChatUnavailable(!reachable);
    if (reachable) {
      if (!useChat.getState().matrixSynched) useChat.setState({ matrixSynched: true });
      for (const room of c.getRooms()) {
        if (room.getMyMembership() === 'invite') void c.joinRoom(room.roomId).catch(() => undefined);
      }
      refreshRooms();
    }
  });
  // Invited rooms are joined automatically (docs/contract.md §4).
  c.on(RoomMemberEvent.Membership, (_event, member) => {
    if (member.userId === me && member.membership === 'invite')
      void c.joinRoom(member.roomId).catch((err) => console.error('[chat] auto-join failed', err));
    refreshRooms();
  });
  // Room-level events refresh the rooms and the notification counts (docs/contract.md §4).
  c.on(RoomEvent.Timeline, (event, room, toStartOfTimeline, _removed, data) => {
    refreshRooms();
    if (room && !toStartOfTimeline && data?.liveEvent) notify(c, event, room);
  });
  c.on(RoomEvent.Receipt, refreshRooms);
  c.on(RoomEvent.Tags, refreshRooms);
  c.on(RoomEvent.Name, refreshRooms);
  c.on(RoomEvent.MyMembership, refreshRooms);
}

let refreshQueued = false;
/** Recomputes chats, notifications and the global room's unread count (batched per frame). */
export function refreshRooms(): void {
  if (refreshQueued) return;
  refreshQueued = true;
  queueMicrotask(() => {
    refreshQueued = false;
    const c = client;
    if (!c) return;
    const globalAlias = `#${GLOBAL_ROOM_ALIAS_LOCALPART}:${serverName()}`;
    const me = c.getUserId() ?? '';
    let globalRoomId: string | null = null;
    const chats: RoomSummary[] = [];
    const unreadByRoom: Record<string, number> = {};
    for (const room of c.getRooms()) {
      if (room.getMyMembership() !== 'join') continue;
      if (room.getCanonicalAlias() === globalAlias) globalRoomId = room.roomId;
      const unread = roomUnread(room, me);
      unreadByRoom[room.roomId] = unread;
      chats.push({
        roomId: room.roomId,
        name: roomDisplayName(room),
        lastActive: room.getLastActiveTimestamp(),
        tags: Object.keys(room.tags ?? {}),
        unread,
      });
    }
    useChat.setState({ chats, unreadByRoom, globalRoomId, notifications: notificationsMap(chats) });
  });
}

/**
 * A room's unread count (docs/contract.md §4 Chat): the server's notification count, which starts at
 * my join, plus the messages that came while I was only invited (rules.ts, unreadWhileInvited).
 */
export function roomUnread(room: Room, me: string): number {
  const events: UnreadTimelineEvent[] = room
    .getLiveTimeline()
    .getEvents()
    .map((e) => ({
      id: e.getId(),
      type: e.getType(),
      sender: e.getSender() ?? '',
      stateKey: e.getStateKey(),
      membership: e.getContent().membership,
      msgtype: e.getContent().msgtype,
      redacted: e.isRedacted(),
    }));
  return (
    room.getUnreadNotificationCount(NotificationCountType.Total) +
    // Only a receipt the server has: matrix-js-sdk also counts my own join as read (a synthesized
    // receipt), which would hide the message just before it.
    unreadWhileInvited(events, me, room.getEventReadUpTo(me, true))
  );
}

/** The room's display name: a direct room is named after the other member. */
export function roomDisplayName(room: Room): string {
  const explicit = room.currentState.getStateEvents(EventType.RoomName, '')?.getContent()?.name;
  if (typeof explicit === 'string' && explicit) return explicit;
  const me = client?.getUserId();
  const other =
    room.getJoinedMembers().find((m) => m.userId !== me) ?? room.getMembers().find((m) => m.userId !== me);
  if (other) return other.name || other.userId;
  return room.name;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Resolves a chat id to a joined room (docs/contract.md §4): a room id is joined if absent; `global` and
 * other alias local parts are joined by alias; a direct-chat id (two sorted product ids) joins by
 * that alias and, when the join fails, creates the private direct room and invites the friend.
 * The room is then awaited up to 10 times, 1 s apart; after that the failure is only logged.
 */
export async function loadRoom(chatId: string): Promise<Room | null> {
  const c = client;
  if (!c) return null;
  let roomId: string | null = chatId.startsWith('!') ? chatId : null;
  try {
    if (!roomId) {
      const peers = parseDirectRoomAliasLocalpart(chatId);
      const me = c.getUserId() ?? '';
      const myProductId = me.slice(1, me.indexOf(':'));
      if (peers?.includes(myProductId)) {
        const other = peers[0] === myProductId ? peers[1] : peers[0];
        roomId = await openDirectRoom(other);
      } else {
        const alias = chatId.startsWith('#') ? chatId : `#${chatId}:${serverName()}`;
        roomId = (await c.joinRoom(alias)).roomId;
      }
    }
  } catch (err) {
    console.error('[chat] room load failed', chatId, err);
    return null;
  }
  for (let attempt = 0; attempt < CHAT.roomLoadRetries; attempt++) {
    const room = c.getRoom(roomId);
    if (room && room.getMyMembership() === 'join') return room;
    try {
      if (room?.getMyMembership() !== 'join') await c.joinRoom(roomId);
    } catch {
      // not found yet: retry
    }
    const joined = c.getRoom(roomId);
    if (joined && joined.getMyMembership() === 'join') return joined;
    await sleep(CHAT.roomLoadRetryMs);
  }
  console.error('[chat] room not found after retries', chatId);
  return null;
}

/**
 * Direct room with another product user (docs/contract.md §4): join by alias, else create private + invite.
 * A room joined by alias must have been created by one of the two (docs/contract.md §3): a room someone else
 * put under the alias is left again and the load fails (logged by loadRoom).
 */
export async function openDirectRoom(otherProductId: string): Promise<string> {
  const c = client;
  if (!c) throw new Error('chat not started');
  const me = c.getUserId() ?? '';
  const myProductId = me.slice(1, me.indexOf(':'));
  const server = serverName();
  const localpart = directRoomAliasLocalpart(myProductId, otherProductId);
  let roomId: string;
  try {
    roomId = (await c.joinRoom(`#${localpart}:${server}`)).roomId;
  } catch {
    const { room_id } = await c.createRoom({
      preset: Preset.PrivateChat,
      room_alias_name: localpart,
      is_direct: true,
      invite: [`@${otherProductId}:${server}`],
    });
    return room_id;
  }
  const creator = (await c.roomState(roomId)).find((e) => e.type === EventType.RoomCreate)?.sender;
  if (!isDirectRoomCreator(creator, [myProductId, otherProductId], server)) {
    await c.leave(roomId).catch(() => undefined);
    throw new Error(
      `direct room ${roomId} under #${localpart} was created by ${creator}, not by its players`,
    );
  }
  return roomId;
}

/**
 * Tags a room favourite or low priority, or removes the tag. The two are exclusive, as in other
 * Matrix clients: setting one removes the other. Failures are only logged, like sends (docs/contract.md §8).
 */
export async function setRoomTag(roomId: string, tag: RoomTag, on: boolean): Promise<void> {
  const c = client;
  if (!c) return;
  try {
    if (!on) {
      await c.deleteRoomTag(roomId, tag);
      return;
    }
    await c.setRoomTag(roomId, tag, { order: 0.5 });
    const other = tag === ROOM_TAGS.favourite ? ROOM_TAGS.lowPriority : ROOM_TAGS.favourite;
    if (c.getRoom(roomId)?.tags?.[other]) await c.deleteRoomTag(roomId, other);
  } catch (err) {
    console.error('[chat] room tag failed', roomId, tag, err);
  }
}

/** Desktop notification and sound for a live message (docs/contract.md §9). */
function notify(c: MatrixClient, event: MatrixEvent, room: Room): void {
  if (event.getType() !== EventType.RoomMessage || event.getSender() === c.getUserId()) return;
  const open =
    useChat.getState().visibleRooms.includes(room.roomId) && document.visibilityState === 'visible';
  const { show, sound } = notificationFor({
    now: Date.now(),
    eventTs: event.getTs(),
    roomId: room.roomId,
    openRoomId: open ? room.roomId : null,
    memberCount: room.getJoinedMemberCount(),
    msgtype: event.getContent().msgtype,
  });
  if (!show) return;
  if (sound) playSound(String(useSession.getState().user?.sound ?? DEFAULT_SOUND));
  try {
    if (typeof Notification === 'undefined' || Notification.permission !== 'granted') return;
    const sender = room.getMember(event.getSender() ?? '')?.name ?? event.getSender() ?? '';
    const n = new Notification(sender, { body: String(event.getContent().body ?? ''), tag: room.roomId });
    n.onclick = () => {
      window.focus();
      useChat.setState({ chatOpen: true, chatId: room.roomId });
    };
  } catch {
    // Unsupported desktop notifications are silently skipped (docs/contract.md §8).
  }
}

/** Asks once for the desktop-notification permission (on a user gesture). */
export function askNotificationPermission(): void {
  try {
    if (typeof Notification !== 'undefined' && Notification.permission === 'default')
      void Notification.requestPermission().catch(() => undefined);
  } catch {
    // unsupported: skipped
  }
}

const mediaCache = new Map<string, Promise<string>>();

/**
 * Media from the authenticated media API as a blob URL: the browser cannot add the access token
 * to an <img src>, so the file is fetched with it (docs/contract.md §7 media URL conversion; thumbnails
 * default to 64 px, cropped).
 */
export function mediaBlobUrl(
  mxc: string,
  thumb?: { width: number; height: number; method?: 'crop' | 'scale' },
): Promise<string> {
  const c = client;
  if (!c) return Promise.reject(new Error('chat not started'));
  const key = `${mxc}|${thumb ? `${thumb.width}x${thumb.height}${thumb.method ?? 'crop'}` : ''}`;
  let cached = mediaCache.get(key);
  if (!cached) {
    const url = thumb
      ? c.mxcUrlToHttp(mxc, thumb.width, thumb.height, thumb.method ?? 'crop', false, true, true)
      : c.mxcUrlToHttp(mxc, undefined, undefined, undefined, false, true, true);
    cached = (async () => {
      if (!url) throw new Error('bad media url');
      const res = await fetch(url, { headers: { Authorization: `Bearer ${c.getAccessToken()}` } });
      if (!res.ok) throw new Error(`media ${res.status}`);
      return URL.createObjectURL(await res.blob());
    })();
    cached.catch(() => mediaCache.delete(key));
    mediaCache.set(key, cached);
  }
  return cached;
}
