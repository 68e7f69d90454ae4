/**
 * Events and room state: appending events (one serialised write per batch, current state kept in
 * mx_room_state), reading state and membership, and the client format of an event.
 */
import { randomBytes } from 'node:crypto';
import { and, desc, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Db } from '../db/client';
import type { Homeserver } from './context';
import { mxEvents, mxRoomState } from './schema';

export type EventRow = typeof mxEvents.$inferSelect;
export type Json = Record<string, unknown>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface EventDraft {
  type: string;
  stateKey?: string;
  sender: string;
  content: Json;
  txnId?: string;
  txnDevice?: string;
  /** m.room.redaction: the event it redacts. */
  redacts?: string;
}

export const newEventId = () => `$${randomBytes(32).toString('base64url')}`;
export const newRoomId = (hs: Homeserver) => `!${randomBytes(12).toString('base64url')}:${hs.serverName}`;

/**
 * Client-Server format; `unsigned.transaction_id` only for the device that sent it, and
 * `unsigned.redacted_because` once redacted (`redacts` is not among the keys the room version 10
 * redaction algorithm keeps, so a redacted redaction loses it).
 */
export function clientEvent(hs: Homeserver, e: EventRow, viewer?: { userId: string; deviceId: string }) {
  const age = (ts: number) => Math.max(0, hs.now() - ts);
  const unsigned: Json = { age: age(e.ts) };
  if (e.txnId && viewer && viewer.userId === e.sender && viewer.deviceId === e.txnDevice) {
    unsigned.transaction_id = e.txnId;
  }
  if (e.redactedBecause) {
    unsigned.redacted_because = {
      ...e.redactedBecause,
      unsigned: { age: age(Number(e.redactedBecause.origin_server_ts)) },
    };
  }
  return {
    event_id: e.eventId,
    room_id: e.roomId,
    type: e.type,
    sender: e.sender,
    content: e.content,
    origin_server_ts: e.ts,
    ...(e.stateKey !== null ? { state_key: e.stateKey } : {}),
    ...(e.redacts !== null && !e.redactedBecause ? { redacts: e.redacts } : {}),
    unsigned,
  };
}

/**
 * Content keys the redaction algorithm keeps, by event type, for room version 10 (the version of
 * every room here): everything else in `content` is removed.
 */
const REDACTION_KEEPS: Record<string, readonly string[]> = {
  'm.room.member': ['membership', 'join_authorised_via_users_server'],
  'm.room.create': ['creator'],
  'm.room.join_rules': ['join_rule', 'allow'],
  'm.room.power_levels': [
    'ban',
    'events',
    'events_default',
    'kick',
    'redact',
    'state_default',
    'users',
    'users_default',
  ],
  'm.room.history_visibility': ['history_visibility'],
};

export function redactedContent(type: string, content: Json): Json {
  const keep = REDACTION_KEEPS[type] ?? [];
  return Object.fromEntries(Object.entries(content).filter(([k]) => keep.includes(k)));
}

/** Stripped state for invites. */
export const strippedEvent = (e: EventRow) => ({
  type: e.type,
  state_key: e.stateKey ?? '',
  sender: e.sender,
  content: e.content,
});

/**
 * Appends events to a room in one transaction and one stream step, updates current state, then
 * wakes every user who can see them (members, invitees and the target of a membership change).
 * `before` runs first in the same transaction (alias claims, room rows) and may throw to abort.
 */
export async function appendEvents(
  hs: Homeserver,
  roomId: string,
  drafts: EventDraft[],
  before?: (tx: Tx) => Promise<void>,
): Promise<EventRow[]> {
  const rows = await hs.stream.write(async (allocate) =>
    hs.db.transaction(async (tx) => {
      if (before) await before(tx);
      const out: EventRow[] = [];
      for (const d of drafts) {
        const row: EventRow = {
          stream: allocate(),
          eventId: newEventId(),
          roomId,
          type: d.type,
          stateKey: d.stateKey ?? null,
          sender: d.sender,
          content: d.content,
          ts: hs.now(),
          txnId: d.txnId ?? null,
          txnDevice: d.txnDevice ?? null,
          redacts: d.redacts ?? null,
          redactedBecause: null,
        };
        await tx.insert(mxEvents).values(row);
        if (d.type === 'm.room.redaction' && d.redacts) await redact(tx, row, d.redacts);
        if (d.stateKey !== undefined) {
          const membership = d.type === 'm.room.member' ? String(d.content.membership ?? '') : null;
          await tx
            .insert(mxRoomState)
            .values({
              roomId,
              type: d.type,
              stateKey: d.stateKey,
              eventId: row.eventId,
              stream: row.stream,
              membership,
            })
            .onConflictDoUpdate({
              target: [mxRoomState.roomId, mxRoomState.type, mxRoomState.stateKey],
              set: { eventId: row.eventId, stream: row.stream, membership },
            });
        }
        out.push(row);
      }
      return out;
    }),
  );
  const audience = await membersOf(hs, roomId, ['join', 'invite']);
  for (const r of rows) if (r.type === 'm.room.member' && r.stateKey) audience.push(r.stateKey);
  hs.notifier.notify(audience);
  return rows;
}

/**
 * Applies a redaction to its target in the same room (once: a later redaction of the same event
 * changes nothing): the content is cut down for good and the redaction recorded for
 * unsigned.redacted_because. A target not (yet) known is left alone, as Synapse does.
 */
async function redact(tx: Tx, redaction: EventRow, targetId: string): Promise<void> {
  const [target] = await tx
    .select()
    .from(mxEvents)
    .where(and(eq(mxEvents.eventId, targetId), eq(mxEvents.roomId, redaction.roomId)));
  if (!target || target.redactedBecause) return;
  await tx
    .update(mxEvents)
    .set({
      content: redactedContent(target.type, target.content),
      redactedBecause: {
        event_id: redaction.eventId,
        room_id: redaction.roomId,
        type: redaction.type,
        sender: redaction.sender,
        content: redaction.content,
        redacts: targetId,
        origin_server_ts: redaction.ts,
      },
    })
    .where(eq(mxEvents.eventId, targetId));
}

export async function membersOf(hs: Homeserver, roomId: string, memberships: string[]): Promise<string[]> {
  const rows = await hs.db
    .select({ userId: mxRoomState.stateKey })
    .from(mxRoomState)
    .where(
      and(
        eq(mxRoomState.roomId, roomId),
        eq(mxRoomState.type, 'm.room.member'),
        inArray(mxRoomState.membership, memberships),
      ),
    );
  return rows.map((r) => r.userId);
}

export async function membershipOf(
  hs: Homeserver,
  roomId: string,
  userId: string,
): Promise<{ membership: string; stream: number } | null> {
  const [row] = await hs.db
    .select({ membership: mxRoomState.membership, stream: mxRoomState.stream })
    .from(mxRoomState)
    .where(
      and(
        eq(mxRoomState.roomId, roomId),
        eq(mxRoomState.type, 'm.room.member'),
        eq(mxRoomState.stateKey, userId),
      ),
    );
  return row ? { membership: row.membership ?? 'leave', stream: row.stream } : null;
}

/** Every room the user has a membership in, with that membership and its stream position. */
export async function roomsOf(hs: Homeserver, userId: string) {
  return hs.db
    .select({ roomId: mxRoomState.roomId, membership: mxRoomState.membership, stream: mxRoomState.stream })
    .from(mxRoomState)
    .where(and(eq(mxRoomState.type, 'm.room.member'), eq(mxRoomState.stateKey, userId)));
}

export async function currentState(hs: Homeserver, roomId: string): Promise<EventRow[]> {
  const rows = await hs.db
    .select({ e: mxEvents })
    .from(mxRoomState)
    .innerJoin(mxEvents, eq(mxEvents.eventId, mxRoomState.eventId))
    .where(eq(mxRoomState.roomId, roomId))
    .orderBy(mxEvents.stream);
  return rows.map((r) => r.e);
}

export async function stateEvent(
  hs: Homeserver,
  roomId: string,
  type: string,
  stateKey: string,
): Promise<EventRow | null> {
  const [row] = await hs.db
    .select({ e: mxEvents })
    .from(mxRoomState)
    .innerJoin(mxEvents, eq(mxEvents.eventId, mxRoomState.eventId))
    .where(
      and(eq(mxRoomState.roomId, roomId), eq(mxRoomState.type, type), eq(mxRoomState.stateKey, stateKey)),
    );
  return row?.e ?? null;
}

/** Newest-first events of a room in (after, upTo], at most `limit`. */
export async function eventsBefore(hs: Homeserver, roomId: string, upTo: number, limit: number, after = 0) {
  return hs.db
    .select()
    .from(mxEvents)
    .where(and(eq(mxEvents.roomId, roomId), lte(mxEvents.stream, upTo), gt(mxEvents.stream, after)))
    .orderBy(desc(mxEvents.stream))
    .limit(limit);
}

/** Oldest-first events of a room in (from, upTo], at most `limit`. */
export async function eventsAfter(hs: Homeserver, roomId: string, from: number, limit: number, upTo: number) {
  return hs.db
    .select()
    .from(mxEvents)
    .where(and(eq(mxEvents.roomId, roomId), gt(mxEvents.stream, from), lte(mxEvents.stream, upTo)))
    .orderBy(mxEvents.stream)
    .limit(limit);
}

export async function eventById(hs: Homeserver, eventId: string): Promise<EventRow | null> {
  const [row] = await hs.db.select().from(mxEvents).where(eq(mxEvents.eventId, eventId));
  return row ?? null;
}

export async function eventByTxn(
  hs: Homeserver,
  roomId: string,
  sender: string,
  deviceId: string,
  txnId: string,
) {
  const [row] = await hs.db
    .select()
    .from(mxEvents)
    .where(
      and(
        eq(mxEvents.sender, sender),
        eq(mxEvents.txnId, txnId),
        eq(mxEvents.txnDevice, deviceId),
        eq(mxEvents.roomId, roomId),
      ),
    );
  return row ?? null;
}
