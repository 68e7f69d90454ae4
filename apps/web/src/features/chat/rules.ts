/**
 * The chat's pure rules (docs/contract.md §2 Chat screen, §3 Chat, §4 Chat, §5 chat sending/display, §9):
 * link cleaning, emoji-only sizing, typing texts, timeline grouping, room groups, the
 * notifications map, desktop-notification rules and the attachment msgtype. No matrix-js-sdk
 * here, so these stay cheap to import and easy to test.
 */
import {
  CHAT_AUTOLOAD_TOP_PX,
  CHAT_AUTOSCROLL_BOTTOM_PX,
  CHAT_HISTORY_PAGE,
  CHAT_NOTIFY_MAX_AGE_MS,
  CHAT_NOTIFY_MAX_MEMBERS,
  CHAT_WINDOW,
  IMAGE_ZOOM,
  matrixUserId,
  READ_MARKER_INTERVAL_MS,
  ROOM_LOAD_RETRIES,
  ROOM_LOAD_RETRY_MS,
  TYPING_SERVER_TIMEOUT_MS,
  TYPING_THROTTLE_MS,
} from '@openpug/shared';

/** The chat's constants of docs/contract.md §9 (declared in packages/shared), by the chat's names. */
export const CHAT = {
  windowWidth: CHAT_WINDOW.width,
  windowHeight: CHAT_WINDOW.height,
  minWidth: CHAT_WINDOW.minWidth,
  minHeight: CHAT_WINDOW.minHeight,
  pageSize: CHAT_HISTORY_PAGE,
  autoLoadTopPx: CHAT_AUTOLOAD_TOP_PX,
  autoScrollBottomPx: CHAT_AUTOSCROLL_BOTTOM_PX,
  typingThrottleMs: TYPING_THROTTLE_MS,
  typingTimeoutMs: TYPING_SERVER_TIMEOUT_MS,
  readMarkerEveryMs: READ_MARKER_INTERVAL_MS,
  roomLoadRetries: ROOM_LOAD_RETRIES,
  roomLoadRetryMs: ROOM_LOAD_RETRY_MS,
  notificationMaxAgeMs: CHAT_NOTIFY_MAX_AGE_MS,
  notificationMaxMembers: CHAT_NOTIFY_MAX_MEMBERS,
  zoomStep: IMAGE_ZOOM.step,
  zoomMin: IMAGE_ZOOM.min,
  zoomMax: IMAGE_ZOOM.max,
} as const;

/** The message types the timeline displays (docs/contract.md §5). */
export const DISPLAYED_MSGTYPES = ['m.text', 'm.notice', 'm.image', 'm.file', 'm.audio', 'm.video'] as const;
export type DisplayedMsgtype = (typeof DISPLAYED_MSGTYPES)[number];

/** Attachment msgtype from the file's mime major type: image, audio, video, otherwise file. */
export function msgtypeForMime(
  mime: string | undefined | null,
): 'm.image' | 'm.audio' | 'm.video' | 'm.file' {
  const major = (mime ?? '').split('/')[0].toLowerCase();
  if (major === 'image') return 'm.image';
  if (major === 'audio') return 'm.audio';
  if (major === 'video') return 'm.video';
  return 'm.file';
}

/** What the timeline shows for one event. */
export type EventDisplay =
  | { kind: 'message'; msgtype: DisplayedMsgtype }
  | { kind: 'unsupported-msgtype'; msgtype: string }
  | { kind: 'deleted' }
  | { kind: 'unsupported-event' };

export function eventDisplay(type: string, content: { msgtype?: unknown } | undefined): EventDisplay {
  if (type !== 'm.room.message') return { kind: 'unsupported-event' };
  const msgtype = content?.msgtype;
  if (typeof msgtype !== 'string' || msgtype === '') return { kind: 'deleted' };
  if ((DISPLAYED_MSGTYPES as readonly string[]).includes(msgtype))
    return { kind: 'message', msgtype: msgtype as DisplayedMsgtype };
  return { kind: 'unsupported-msgtype', msgtype };
}

const segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter() : null;
const EMOJI_GRAPHEME = /^(?:\p{Extended_Pictographic}|\p{Regional_Indicator}|[#*0-9]\uFE0F?\u20E3)/u;

/**
 * Emoji-only sizing (docs/contract.md §5): the number of emoji when the text is only emoji (and spaces),
 * else 0. One emoji is shown big, more than one in the normal emoji style.
 */
export function emojiOnlyCount(text: string): number {
  const compact = text.replace(/\s+/g, '');
  if (!compact) return 0;
  const graphemes = segmenter ? [...segmenter.segment(compact)].map((s) => s.segment) : Array.from(compact);
  for (const g of graphemes) if (!EMOJI_GRAPHEME.test(g)) return 0;
  return graphemes.length;
}

/** Typing indicator text as an i18n key and its parameters (docs/contract.md §2), null when nobody types. */
export function typingText(names: string[]): {
  key: 'chat.typing.one' | 'chat.typing.two' | 'chat.typing.many';
  params: Record<string, unknown>;
} | null {
  if (names.length === 0) return null;
  if (names.length === 1) return { key: 'chat.typing.one', params: { name: names[0] } };
  if (names.length === 2) return { key: 'chat.typing.two', params: { name: names[0], other: names[1] } };
  return { key: 'chat.typing.many', params: { name: names[0], count: names.length - 1 } };
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const LINK =
  /\[([^\]\n]+)\]\(((?:https?:\/\/|\/)[^\s)]*)\)|\b((?:https?:\/\/|www\.)[^\s<>"]+[^\s<>".,;:!?'")\]])/gi;

/**
 * Display cleaning of a text message (docs/contract.md §5 Text links), returning HTML: lines starting with a
 * quote marker are removed (reply fallbacks), angle brackets (and &, ") are escaped, bare http(s)
 * and www addresses become links opening in a new tab (http:// added when there is no scheme),
 * and markdown links with a relative or http(s) target become links too.
 */
export function cleanMessageHtml(text: string): string {
  const kept = text
    .split('\n')
    .filter((line) => !line.startsWith('>'))
    .join('\n')
    .replace(/^\n+/, '');
  return escapeHtml(kept).replace(LINK, (whole, label: string, target: string, bare: string) => {
    if (bare) {
      const href = /^https?:\/\//i.test(bare) ? bare : `http://${bare}`;
      return `<a href="${href}" target="_blank" rel="noopener noreferrer">${bare}</a>`;
    }
    if (target) {
      const external = /^https?:\/\//i.test(target);
      return external
        ? `<a href="${target}" target="_blank" rel="noopener noreferrer">${label}</a>`
        : `<a href="${target}">${label}</a>`;
    }
    return whole;
  });
}

/** An event as the grouping needs it. */
export interface GroupableEvent {
  id: string;
  sender: string;
  ts: number;
  type: string;
}

export interface SenderGroup<E extends GroupableEvent> {
  sender: string;
  ts: number;
  events: E[];
}
export interface DayGroup<E extends GroupableEvent> {
  /** Local date YYYY-MM-DD of the first event. */
  day: string;
  ts: number;
  groups: SenderGroup<E>[];
}

const localDay = (ts: number) => {
  const d = new Date(ts);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/**
 * Groups a timeline by local day, then by consecutive sender (docs/contract.md §2). A sender group is kept
 * only if it contains a room message (docs/contract.md §5), and a day only if one of its groups is kept.
 */
export function groupTimeline<E extends GroupableEvent>(events: E[]): DayGroup<E>[] {
  const days: DayGroup<E>[] = [];
  for (const event of events) {
    const day = localDay(event.ts);
    let current = days[days.length - 1];
    if (!current || current.day !== day) {
      current = { day, ts: event.ts, groups: [] };
      days.push(current);
    }
    const last = current.groups[current.groups.length - 1];
    if (last && last.sender === event.sender) last.events.push(event);
    else current.groups.push({ sender: event.sender, ts: event.ts, events: [event] });
  }
  return days
    .map((d) => ({ ...d, groups: d.groups.filter((g) => g.events.some((e) => e.type === 'm.room.message')) }))
    .filter((d) => d.groups.length > 0);
}

export interface RoomSummary {
  roomId: string;
  name: string;
  lastActive: number;
  tags: string[];
  unread: number;
}

/** The Matrix room tags the room list groups by (a room carries at most one of them here). */
export const ROOM_TAGS = { favourite: 'm.favourite', lowPriority: 'm.lowpriority' } as const;
export type RoomTag = (typeof ROOM_TAGS)[keyof typeof ROOM_TAGS];

/** Rooms grouped into all, favourite, lowPriority and other, each newest activity first (docs/contract.md §3). */
export function groupRooms<R extends RoomSummary>(
  rooms: R[],
): { all: R[]; favourite: R[]; lowPriority: R[]; other: R[] } {
  const all = [...rooms].sort((a, b) => b.lastActive - a.lastActive);
  const favourite = all.filter((r) => r.tags.includes(ROOM_TAGS.favourite));
  const lowPriority = all.filter((r) => r.tags.includes(ROOM_TAGS.lowPriority));
  const other = all.filter(
    (r) => !r.tags.includes(ROOM_TAGS.favourite) && !r.tags.includes(ROOM_TAGS.lowPriority),
  );
  return { all, favourite, lowPriority, other };
}

/**
 * The room the chat button opens: the most recently active room with unread messages (the badge
 * counts them — a direct message must not open the empty global room), else the room open last,
 * else null (the global room).
 */
export function launcherRoom(
  rooms: Pick<RoomSummary, 'roomId' | 'lastActive' | 'unread'>[],
  current: string | null,
) {
  const unread = rooms.filter((r) => r.unread > 0).sort((a, b) => b.lastActive - a.lastActive);
  return unread[0]?.roomId ?? current;
}

/** Unread messages in rooms other than `roomId` (the rooms button of an open room shows them). */
export function unreadElsewhere(rooms: Pick<RoomSummary, 'roomId' | 'unread'>[], roomId: string): number {
  return rooms.reduce((sum, r) => (r.roomId === roomId ? sum : sum + r.unread), 0);
}

/** Room name → total unread count, only rooms above 0 (docs/contract.md §4). */
export function notificationsMap(rooms: Pick<RoomSummary, 'name' | 'unread'>[]): Record<string, number> {
  const map: Record<string, number> = {};
  for (const r of rooms) if (r.unread > 0) map[r.name] = r.unread;
  return map;
}

/** What `unreadWhileInvited` reads of one timeline event (no matrix-js-sdk types here). */
export interface UnreadTimelineEvent {
  id: string | undefined;
  type: string;
  sender: string;
  stateKey: string | undefined;
  /** content.membership of a member event, content.msgtype of a message. */
  membership?: unknown;
  msgtype?: unknown;
  redacted: boolean;
}

/**
 * Messages from others that arrived while `me` was only invited, and that my read receipt
 * (`readUpTo`) does not cover (docs/contract.md §4 Chat). The homeserver counts unread messages from
 * my join on (so does Synapse: it computes notifications for joined members only), so a friend's
 * first direct message sent before the invite was joined — I was offline, or my chat was still
 * starting — would never count. The room's count is the server's plus these. `events` in timeline
 * order.
 */
export function unreadWhileInvited(
  events: UnreadTimelineEvent[],
  me: string,
  readUpTo: string | null,
): number {
  let invited = false;
  let count = 0;
  for (const e of events) {
    if (e.type === 'm.room.member' && e.stateKey === me) invited = e.membership === 'invite';
    else if (
      invited &&
      e.type === 'm.room.message' &&
      e.sender !== me &&
      !e.redacted &&
      // Notices never count, as on the server (.m.rule.suppress_notices).
      e.msgtype !== 'm.notice'
    )
      count++;
    // A receipt reads everything up to its event.
    if (readUpTo && e.id === readUpTo) count = 0;
  }
  return count;
}

/**
 * docs/contract.md §9: a desktop notification is ignored if the event is older than 10 s, in the currently
 * open room, or in a room with more than 2 members. A sound plays only for text messages.
 */
export function notificationFor(input: {
  now: number;
  eventTs: number;
  roomId: string;
  openRoomId: string | null;
  memberCount: number;
  msgtype: string | undefined;
}): { show: boolean; sound: boolean } {
  const show =
    input.now - input.eventTs <= CHAT.notificationMaxAgeMs &&
    input.roomId !== input.openRoomId &&
    input.memberCount <= CHAT.notificationMaxMembers;
  return { show, sound: show && input.msgtype === 'm.text' };
}

/** Zoom of the image viewer after a step (docs/contract.md §2: step 0.25, 0.1–10). */
export function zoomBy(zoom: number, direction: 1 | -1): number {
  const next = Math.round((zoom + direction * CHAT.zoomStep) * 100) / 100;
  return Math.min(CHAT.zoomMax, Math.max(CHAT.zoomMin, next));
}

/**
 * Whether a room joined by a direct-chat alias is the two players' own (docs/contract.md §3): its creator (the
 * m.room.create sender) must be one of them. Defence in depth against a third user who claimed the
 * alias first on a chat server without openpug's alias rule.
 */
export function isDirectRoomCreator(
  creator: string | undefined,
  peers: readonly [string, string],
  serverName: string,
): boolean {
  return peers.some((id) => matrixUserId(id, serverName) === creator);
}

/**
 * Who moderates a room in the web (the server decides again, docs/contract.md §4 Chat moderation):
 * an admin in the global room (its id, or its alias `#global:…`) and in match rooms (`#match_…`),
 * a match's captain in its room. Direct chats are nobody's to moderate.
 */
export function moderatesRoom(input: {
  isAdmin: boolean;
  captain: boolean;
  roomId: string;
  globalRoomId: string | null;
  canonicalAlias: string | null;
}): boolean {
  const alias = input.canonicalAlias ?? '';
  const matchRoom = alias.startsWith('#match_');
  const globalRoom = input.roomId === input.globalRoomId || alias.startsWith('#global:');
  return (input.isAdmin && (globalRoom || matchRoom)) || (input.captain && matchRoom);
}
