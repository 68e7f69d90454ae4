/**
 * Friends: friend requests and friendships (docs/contract.md §3 Friend, Friend request; §4 Friend request).
 *
 * One row per unordered pair of users in friend_requests: pending (accepted = false) or a
 * friendship (accepted = true). Every change is pushed to both users' private rooms so all their
 * tabs stay in sync, and on accept/removal both users' sockets join/leave each other's
 * `social:<userId>` room (where presence pushes socialChangedStatus / socialChangedName).
 */
import { randomUUID } from 'node:crypto';
import { type FriendRequest, isId, type SocialUser, socialRoom } from '@openpug/shared';
import { and, desc, eq, inArray, or } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors';
import { userRoom } from '../../realtime/hub';
import { findUserById, findUsersByIds, socialUsers, type UserRow } from '../accounts/service';
import { refuseBanned } from '../moderation';

import { friendRequests } from './schema';

type RequestRow = typeof friendRequests.$inferSelect;

export function assertId(value: string): string {
  if (!isId(value)) throw badRequest('ID_MALFORMED');
  return value;
}

const pairCondition = (a: string, b: string) =>
  or(
    and(eq(friendRequests.requesterId, a), eq(friendRequests.recipientId, b)),
    and(eq(friendRequests.requesterId, b), eq(friendRequests.recipientId, a)),
  );

function toDto(row: RequestRow, people: Map<string, UserRow>): FriendRequest {
  const requester = people.get(row.requesterId);
  const recipient = people.get(row.recipientId);
  return {
    _id: row.id,
    requester: {
      _id: row.requesterId,
      name: requester?.name ?? null,
      avatar: requester?.avatar ?? null,
      steamUrl: requester?.steamUrl ?? null,
    },
    recipient: { _id: row.recipientId, name: recipient?.name ?? null, avatar: recipient?.avatar ?? null },
    accepted: row.accepted,
    createdAt: row.createdAt.toISOString(),
  };
}

async function toDtos(ctx: AppContext, rows: RequestRow[]): Promise<FriendRequest[]> {
  const ids = [...new Set(rows.flatMap((r) => [r.requesterId, r.recipientId]))];
  const people = new Map((await findUsersByIds(ctx.db, ids)).map((u) => [u.id, u]));
  return rows.map((r) => toDto(r, people));
}

/** Ids of the user's friends. */
export async function friendIdsOf(ctx: AppContext, userId: string): Promise<string[]> {
  return (await friendIdsOfMany(ctx, [userId])).get(userId) ?? [];
}

/** Ids of each user's friends, for many users in one query (sockets signing in together). */
export async function friendIdsOfMany(
  ctx: AppContext,
  userIds: readonly string[],
): Promise<Map<string, string[]>> {
  const ids = [...userIds];
  const result = new Map<string, string[]>(ids.map((id) => [id, []]));
  const rows = await ctx.db
    .select({ requesterId: friendRequests.requesterId, recipientId: friendRequests.recipientId })
    .from(friendRequests)
    .where(
      and(
        eq(friendRequests.accepted, true),
        or(inArray(friendRequests.requesterId, ids), inArray(friendRequests.recipientId, ids)),
      ),
    );
  for (const r of rows) {
    result.get(r.requesterId)?.push(r.recipientId);
    result.get(r.recipientId)?.push(r.requesterId);
  }
  return result;
}

export async function areFriends(ctx: AppContext, a: string, b: string): Promise<boolean> {
  const [row] = await ctx.db
    .select({ id: friendRequests.id })
    .from(friendRequests)
    .where(and(eq(friendRequests.accepted, true), pairCondition(a, b)))
    .limit(1);
  return !!row;
}

/** The user's friends (SocialUser with live status), by name. */
export async function listFriends(ctx: AppContext, userId: string): Promise<SocialUser[]> {
  const friends = await socialUsers(ctx, await friendIdsOf(ctx, userId));
  return friends.sort((a, b) => (a.name ?? '').localeCompare(b.name ?? '', 'en', { sensitivity: 'base' }));
}

/** Pending requests the user received and sent, newest first. */
export async function listRequests(
  ctx: AppContext,
  userId: string,
): Promise<{ receivedFriendRequests: FriendRequest[]; sentFriendRequests: FriendRequest[] }> {
  const rows = await ctx.db
    .select()
    .from(friendRequests)
    .where(
      and(
        eq(friendRequests.accepted, false),
        or(eq(friendRequests.requesterId, userId), eq(friendRequests.recipientId, userId)),
      ),
    )
    .orderBy(desc(friendRequests.createdAt), desc(friendRequests.id));
  const dtos = await toDtos(ctx, rows);
  return {
    receivedFriendRequests: dtos.filter((d) => d.recipient._id === userId),
    sentFriendRequests: dtos.filter((d) => d.requester._id === userId),
  };
}

async function findPair(ctx: AppContext, a: string, b: string): Promise<RequestRow | null> {
  const [row] = await ctx.db.select().from(friendRequests).where(pairCondition(a, b)).limit(1);
  return row ?? null;
}

const refusalForExisting = (row: RequestRow) =>
  conflict(row.accepted ? 'ALREADY_FRIENDS' : 'FRIEND_REQUEST_ALREADY_EXISTS');

/**
 * Sends a friend request. Refused for yourself, an unknown user, a banned sender (BANNED), an
 * existing request either way and an existing friend. Two users asking each other at the same
 * moment: the unique index on the pair lets exactly one insert through; the other is refused like
 * any existing request.
 */
export async function sendRequest(ctx: AppContext, me: string, recipientId: string): Promise<FriendRequest> {
  assertId(recipientId);
  if (recipientId === me) throw badRequest('CANNOT_ADD_YOURSELF');
  if (!(await findUserById(ctx.db, recipientId))) throw notFound();
  await refuseBanned(ctx, ctx.db, me);
  const existing = await findPair(ctx, me, recipientId);
  if (existing) throw refusalForExisting(existing);
  const [row] = await ctx.db
    .insert(friendRequests)
    .values({ id: randomUUID(), requesterId: me, recipientId, createdAt: new Date(ctx.clock.now()) })
    .onConflictDoNothing()
    .returning();
  if (!row) {
    const winner = await findPair(ctx, me, recipientId);
    throw winner ? refusalForExisting(winner) : conflict('FRIEND_REQUEST_ALREADY_EXISTS');
  }
  const [dto] = await toDtos(ctx, [row]);
  ctx.realtime.toUser(me, 'privateNewRequestedFriendRequest', dto);
  ctx.realtime.toUser(recipientId, 'privateNewReceivedFriendRequest', dto);
  return dto;
}

/** Loads a request the user is part of; strangers get NOT_FOUND (ids are not confirmed to them). */
async function requestOf(ctx: AppContext, me: string, id: string): Promise<RequestRow> {
  assertId(id);
  const [row] = await ctx.db.select().from(friendRequests).where(eq(friendRequests.id, id)).limit(1);
  if (!row || (row.requesterId !== me && row.recipientId !== me)) throw notFound();
  return row;
}

function pushRequestGone(ctx: AppContext, row: RequestRow): void {
  ctx.realtime.toUser(row.requesterId, 'privateDeleteRequestedFriendRequest', { _id: row.id });
  ctx.realtime.toUser(row.recipientId, 'privateDeleteReceivedFriendRequest', { _id: row.id });
}

/** Both users' open sockets (every tab, every instance) follow each other's social room. */
function linkSocial(ctx: AppContext, a: string, b: string, join: boolean): void {
  const io = ctx.realtime.io;
  if (join) {
    io.in(userRoom(a)).socketsJoin(socialRoom(b));
    io.in(userRoom(b)).socketsJoin(socialRoom(a));
  } else {
    io.in(userRoom(a)).socketsLeave(socialRoom(b));
    io.in(userRoom(b)).socketsLeave(socialRoom(a));
  }
}

/** Deletes a pending request (only while still pending); refusal keys when it changed meanwhile. */
async function deletePending(ctx: AppContext, row: RequestRow): Promise<void> {
  const [gone] = await ctx.db
    .delete(friendRequests)
    .where(and(eq(friendRequests.id, row.id), eq(friendRequests.accepted, false)))
    .returning({ id: friendRequests.id });
  if (!gone) {
    const [now] = await ctx.db.select().from(friendRequests).where(eq(friendRequests.id, row.id));
    throw now ? conflict('FRIEND_REQUEST_ALREADY_ACCEPTED') : notFound();
  }
  pushRequestGone(ctx, row);
}

/** PATCH {accepted}: only the recipient answers, once. false declines (deletes) the request. */
export async function answerRequest(
  ctx: AppContext,
  me: string,
  id: string,
  accepted: boolean,
): Promise<{ request: FriendRequest; friend: SocialUser | null }> {
  const row = await requestOf(ctx, me, id);
  if (row.recipientId !== me) throw forbidden('ONLY_RECIPIENT_CAN_ANSWER');
  if (row.accepted) throw conflict('FRIEND_REQUEST_ALREADY_ANSWERED');
  if (!accepted) {
    await deletePending(ctx, row).catch((err) => {
      throw err?.key === 'FRIEND_REQUEST_ALREADY_ACCEPTED'
        ? conflict('FRIEND_REQUEST_ALREADY_ANSWERED')
        : err;
    });
    const [request] = await toDtos(ctx, [row]);
    return { request, friend: null };
  }
  const [updated] = await ctx.db
    .update(friendRequests)
    .set({ accepted: true, acceptedAt: new Date(ctx.clock.now()) })
    .where(
      and(eq(friendRequests.id, id), eq(friendRequests.accepted, false), eq(friendRequests.recipientId, me)),
    )
    .returning();
  if (!updated) {
    const [now] = await ctx.db.select().from(friendRequests).where(eq(friendRequests.id, id));
    throw now ? conflict('FRIEND_REQUEST_ALREADY_ANSWERED') : notFound();
  }
  pushRequestGone(ctx, updated);
  const [requester, recipient] = await socialUsers(ctx, [updated.requesterId, updated.recipientId]);
  if (recipient) ctx.realtime.toUser(updated.requesterId, 'privateNewFriend', recipient);
  if (requester) ctx.realtime.toUser(updated.recipientId, 'privateNewFriend', requester);
  linkSocial(ctx, updated.requesterId, updated.recipientId, true);
  const [request] = await toDtos(ctx, [updated]);
  return { request, friend: requester ?? null };
}

/** DELETE /friends/:id: the requester cancels or the recipient declines a pending request. */
export async function deleteRequest(
  ctx: AppContext,
  me: string,
  id: string,
): Promise<'CANCELLED_SUCCESSFULLY' | 'DECLINED_SUCCESSFULLY'> {
  const row = await requestOf(ctx, me, id);
  if (row.accepted) throw conflict('FRIEND_REQUEST_ALREADY_ACCEPTED');
  await deletePending(ctx, row);
  return row.requesterId === me ? 'CANCELLED_SUCCESSFULLY' : 'DECLINED_SUCCESSFULLY';
}

/** Ends a friendship; both users' lists update live and their sockets leave each other's room. */
export async function removeFriend(ctx: AppContext, me: string, otherId: string): Promise<void> {
  assertId(otherId);
  const [gone] = await ctx.db
    .delete(friendRequests)
    .where(and(eq(friendRequests.accepted, true), pairCondition(me, otherId)))
    .returning({ id: friendRequests.id });
  if (!gone) throw notFound('NOT_FRIENDS');
  ctx.realtime.toUser(me, 'privateDeleteFriend', { _id: otherId });
  ctx.realtime.toUser(otherId, 'privateDeleteFriend', { _id: me });
  linkSocial(ctx, me, otherId, false);
}

/** Socket `join-social`: follow a friend's status and name; refused unless friends. */
export async function joinSocial(ctx: AppContext, me: string, friendId: string): Promise<boolean> {
  if (friendId === me || !(await areFriends(ctx, me, friendId))) throw forbidden('NOT_FRIENDS');
  return true;
}
