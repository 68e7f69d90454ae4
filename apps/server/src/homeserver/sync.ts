/**
 * /sync: the initial snapshot and incremental deltas since a token, long-polling on the notifier
 * when there is nothing new. A token `s<stream>_<typing serial>_<boot id>` covers events,
 * receipts and account data (stream) and typing (serial of this process's lifetime).
 */
import { accountDataSince, receiptsSince, unreadCount } from './accountdata';
import type { Homeserver } from './context';
import {
  clientEvent,
  currentState,
  type EventRow,
  eventsBefore,
  type Json,
  membersOf,
  roomsOf,
  strippedEvent,
} from './events';
import type { Session } from './users';

interface SinceToken {
  stream: number;
  typing: number;
  boot: string;
}

export function parseSyncToken(token: string | undefined | null): SinceToken | null {
  const m = /^s(\d+)_(\d+)_(\w+)$/.exec(token ?? '');
  return m ? { stream: Number(m[1]), typing: Number(m[2]), boot: m[3] } : null;
}

/** Stream position of any token we hand out (sync `s…`, pagination `p…`). */
export function tokenPosition(token: string): number | null {
  const m = /^[sp](\d+)/.exec(token);
  return m ? Number(m[1]) : null;
}

export interface SyncOptions {
  since: string | null;
  timeoutMs: number;
  timelineLimit: number;
  fullState: boolean;
}

export async function sync(hs: Homeserver, session: Session, opts: SyncOptions) {
  const since = opts.since ? parseSyncToken(opts.since) : null;
  const deadline = hs.now() + opts.timeoutMs;
  for (;;) {
    const upTo = hs.stream.position;
    const serial = hs.typing.serial;
    const { body, hasContent, joinedRoomIds } = await buildSync(hs, session, since, upTo, opts);
    const next_batch = `s${upTo}_${serial}_${hs.typing.boot}`;
    const remaining = deadline - hs.now();
    if (hasContent || !since || remaining <= 0 || opts.fullState || hs.closing)
      return { next_batch, ...body };
    const expiry = hs.typing.nextExpiry(joinedRoomIds);
    const waitMs = expiry === null ? remaining : Math.max(1, Math.min(remaining, expiry - hs.now() + 1));
    const waiter = hs.notifier.wait(session.userId, waitMs);
    if (hs.stream.position !== upTo || hs.typing.serial !== serial) waiter.cancel();
    await waiter.promise;
    if (hs.now() >= deadline && hs.stream.position === upTo && hs.typing.serial === serial) {
      return { next_batch, ...(await buildSync(hs, session, since, upTo, opts)).body };
    }
  }
}

async function buildSync(
  hs: Homeserver,
  session: Session,
  since: SinceToken | null,
  upTo: number,
  opts: SyncOptions,
) {
  const userId = session.userId;
  const from = since?.stream ?? 0;
  const typingFresh = !since || since.boot !== hs.typing.boot;
  const join: Record<string, Json> = {};
  const invite: Record<string, Json> = {};
  const leave: Record<string, Json> = {};
  const viewer = { userId, deviceId: session.deviceId };
  const fmt = (e: EventRow) => clientEvent(hs, e, viewer);

  const accountData = await accountDataSince(hs, userId, since ? from : -1, upTo);
  const globalData = accountData
    .filter((a) => a.roomId === '')
    .map((a) => ({ type: a.type, content: a.content }));
  const joinedRoomIds: string[] = [];

  for (const r of await roomsOf(hs, userId)) {
    if (r.stream > upTo) continue;
    const changed = !since || r.stream > from;
    if (r.membership === 'join') {
      joinedRoomIds.push(r.roomId);
      const fresh = changed || opts.fullState;
      const rows = await eventsBefore(hs, r.roomId, upTo, opts.timelineLimit + 1, fresh ? 0 : from);
      const limited = rows.length > opts.timelineLimit;
      const timeline = rows.slice(0, opts.timelineLimit).reverse();
      let state: EventRow[] = [];
      if (fresh || limited) {
        const inTimeline = new Set(timeline.map((e) => e.eventId));
        state = (await currentState(hs, r.roomId)).filter(
          (e) => e.stream <= upTo && !inTimeline.has(e.eventId),
        );
      }
      const ephemeral: Json[] = [];
      if (typingFresh || hs.typing.changedSince(r.roomId, since?.typing ?? 0)) {
        const users = hs.typing.users(r.roomId);
        if (!typingFresh || users.length > 0)
          ephemeral.push({ type: 'm.typing', content: { user_ids: users } });
      }
      const receipts = await receiptsSince(hs, r.roomId, userId, since ? from : -1, upTo);
      if (receipts) ephemeral.push({ type: 'm.receipt', content: receipts });
      const roomData = accountData
        .filter((a) => a.roomId === r.roomId)
        .map((a) => ({ type: a.type, content: a.content }));
      if (!fresh && timeline.length === 0 && ephemeral.length === 0 && roomData.length === 0) continue;
      const joined = await membersOf(hs, r.roomId, ['join']);
      const invited = await membersOf(hs, r.roomId, ['invite']);
      join[r.roomId] = {
        summary: {
          'm.heroes': [...joined, ...invited].filter((u) => u !== userId).slice(0, 5),
          'm.joined_member_count': joined.length,
          'm.invited_member_count': invited.length,
        },
        state: { events: state.map(fmt) },
        timeline: {
          events: timeline.map(fmt),
          limited,
          prev_batch: `p${timeline.length > 0 ? timeline[0].stream - 1 : upTo}`,
        },
        ephemeral: { events: ephemeral },
        account_data: { events: roomData },
        unread_notifications: {
          notification_count: await unreadCount(hs, r.roomId, userId),
          highlight_count: 0,
        },
      };
    } else if (r.membership === 'invite' && changed) {
      const state = (await currentState(hs, r.roomId)).filter(
        (e) =>
          e.stream <= upTo &&
          ([
            'm.room.create',
            'm.room.name',
            'm.room.avatar',
            'm.room.join_rules',
            'm.room.canonical_alias',
            'm.room.encryption',
            'm.room.topic',
          ].includes(e.type) ||
            (e.type === 'm.room.member' && (e.stateKey === userId || e.sender === e.stateKey))),
      );
      invite[r.roomId] = { invite_state: { events: state.map(strippedEvent) } };
    } else if ((r.membership === 'leave' || r.membership === 'ban') && since && changed) {
      const rows = await eventsBefore(hs, r.roomId, r.stream, opts.timelineLimit, from);
      leave[r.roomId] = {
        state: { events: [] },
        timeline: { events: rows.reverse().map(fmt), limited: false, prev_batch: `p${from}` },
        account_data: { events: [] },
      };
    }
  }
  const hasContent =
    globalData.length > 0 ||
    Object.keys(join).length + Object.keys(invite).length + Object.keys(leave).length > 0;
  return {
    hasContent,
    joinedRoomIds,
    body: {
      account_data: { events: globalData },
      presence: { events: [] },
      to_device: { events: [] },
      device_lists: { changed: [], left: [] },
      device_one_time_keys_count: {},
      rooms: { join, invite, leave, knock: {} },
    },
  };
}
