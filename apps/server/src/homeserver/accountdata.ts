/**
 * Receipts, read markers, account data (global m.direct, room m.tag and m.fully_read) and
 * unread notification counts. Each write takes a stream position so /sync delivers it.
 */
import { and, count, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Homeserver } from './context';
import { MatrixError, mxForbidden, mxNotFound } from './errors';
import { eventById, type Json, membershipOf, membersOf } from './events';
import { mxAccountData, mxEvents, mxReceipts } from './schema';

export async function putAccountData(
  hs: Homeserver,
  userId: string,
  roomId: string,
  type: string,
  content: Json,
) {
  await hs.stream.write(async (allocate) => {
    const stream = allocate();
    await hs.db
      .insert(mxAccountData)
      .values({ userId, roomId, type, content, stream })
      .onConflictDoUpdate({
        target: [mxAccountData.userId, mxAccountData.roomId, mxAccountData.type],
        set: { content, stream },
      });
  });
  hs.notifier.notify([userId]);
}

export async function getAccountData(
  hs: Homeserver,
  userId: string,
  roomId: string,
  type: string,
): Promise<Json | null> {
  const [row] = await hs.db
    .select()
    .from(mxAccountData)
    .where(
      and(eq(mxAccountData.userId, userId), eq(mxAccountData.roomId, roomId), eq(mxAccountData.type, type)),
    );
  return row?.content ?? null;
}

/** Account data changed after `since` (global when roomIds is null, else for those rooms). */
export async function accountDataSince(hs: Homeserver, userId: string, since: number, upTo: number) {
  const rows = await hs.db
    .select()
    .from(mxAccountData)
    .where(and(eq(mxAccountData.userId, userId), gt(mxAccountData.stream, since)));
  return rows.filter((r) => r.stream <= upTo);
}

export async function requireJoinedRoom(hs: Homeserver, roomId: string, userId: string) {
  const m = await membershipOf(hs, roomId, userId);
  if (m?.membership !== 'join') throw mxForbidden(`User ${userId} not in room ${roomId}`);
}

const RECEIPT_TYPES = new Set(['m.read', 'm.read.private']);

/** Sets a receipt (m.read / m.read.private) or the read marker (m.fully_read). */
export async function setReceipt(
  hs: Homeserver,
  userId: string,
  roomId: string,
  type: string,
  eventId: string,
) {
  await requireJoinedRoom(hs, roomId, userId);
  const event = await eventById(hs, eventId);
  if (!event || event.roomId !== roomId) throw mxNotFound('Event not found');
  if (type === 'm.fully_read') {
    await putAccountData(hs, userId, roomId, 'm.fully_read', { event_id: eventId });
    return;
  }
  if (!RECEIPT_TYPES.has(type)) throw new MatrixError(400, 'M_INVALID_PARAM', 'Unknown receipt type');
  const [existing] = await hs.db
    .select({ eventId: mxReceipts.eventId })
    .from(mxReceipts)
    .where(and(eq(mxReceipts.roomId, roomId), eq(mxReceipts.userId, userId), eq(mxReceipts.type, type)));
  if (existing) {
    // Receipts only move forward.
    const old = await eventById(hs, existing.eventId);
    if (old && old.stream >= event.stream) return;
  }
  await hs.stream.write(async (allocate) => {
    const stream = allocate();
    const ts = hs.now();
    await hs.db
      .insert(mxReceipts)
      .values({ roomId, userId, type, eventId, ts, stream })
      .onConflictDoUpdate({
        target: [mxReceipts.roomId, mxReceipts.userId, mxReceipts.type],
        set: { eventId, ts, stream },
      });
  });
  hs.notifier.notify(type === 'm.read' ? await membersOf(hs, roomId, ['join']) : [userId]);
}

/** The m.receipt ephemeral content for receipts in a room changed after `since`. */
export async function receiptsSince(
  hs: Homeserver,
  roomId: string,
  viewer: string,
  since: number,
  upTo: number,
) {
  const rows = await hs.db
    .select()
    .from(mxReceipts)
    .where(and(eq(mxReceipts.roomId, roomId), gt(mxReceipts.stream, since)));
  const content: Record<string, Record<string, Record<string, { ts: number }>>> = {};
  let any = false;
  for (const r of rows) {
    if (r.stream > upTo) continue;
    if (r.type === 'm.read.private' && r.userId !== viewer) continue;
    content[r.eventId] ??= {};
    content[r.eventId][r.type] ??= {};
    content[r.eventId][r.type][r.userId] = { ts: r.ts };
    any = true;
  }
  return any ? content : null;
}

/**
 * Notification count: messages (not notices) from others after the user's latest read receipt (or their join),
 * the events the default push rules notify for.
 */
export async function unreadCount(hs: Homeserver, roomId: string, userId: string): Promise<number> {
  const receipts = await hs.db
    .select({ eventId: mxReceipts.eventId })
    .from(mxReceipts)
    .where(and(eq(mxReceipts.roomId, roomId), eq(mxReceipts.userId, userId)));
  let from = (await membershipOf(hs, roomId, userId))?.stream ?? 0;
  for (const r of receipts) {
    const e = await eventById(hs, r.eventId);
    if (e) from = Math.max(from, e.stream);
  }
  const [row] = await hs.db
    .select({ n: count() })
    .from(mxEvents)
    .where(
      and(
        eq(mxEvents.roomId, roomId),
        gt(mxEvents.stream, from),
        ne(mxEvents.sender, userId),
        inArray(mxEvents.type, ['m.room.message', 'm.room.encrypted']),
        // A redacted message no longer counts.
        isNull(mxEvents.redactedBecause),
        // .m.rule.suppress_notices: notices never notify.
        sql`coalesce(${mxEvents.content}->>'msgtype', '') <> 'm.notice'`,
      ),
    );
  return Number(row?.n ?? 0);
}
