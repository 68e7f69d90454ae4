/**
 * The friends state of docs/contract.md §3/§4 as pure functions: friends, received and sent requests kept as
 * separate lists, each without duplicates. The store (./store.ts) applies them to the REST
 * answers and to every live socket event; the unit tests call them directly.
 */
import type { Friend, FriendRequest, SocialChangedName, SocialChangedStatus } from '@openpug/shared';

export interface FriendsState {
  friends: Friend[];
  received: FriendRequest[];
  sent: FriendRequest[];
  /** Both lists arrived from the server at least once. */
  loaded: boolean;
}

export const emptyFriendsState = (): FriendsState => ({ friends: [], received: [], sent: [], loaded: false });

/** Adds `item` or replaces the one with the same `_id` (a repeated event never duplicates). */
export function upsertById<T extends { _id: string }>(list: readonly T[], item: T): T[] {
  const index = list.findIndex((entry) => entry._id === item._id);
  if (index === -1) return [...list, item];
  const next = [...list];
  next[index] = item;
  return next;
}

/** Keeps the first of each `_id` (a server list is never trusted to be duplicate-free). */
export function uniqueById<T extends { _id: string }>(list: readonly T[]): T[] {
  const seen = new Set<string>();
  return list.filter((entry) => {
    if (seen.has(entry._id)) return false;
    seen.add(entry._id);
    return true;
  });
}

const withoutId = <T extends { _id: string }>(list: readonly T[], id: string) =>
  list.some((entry) => entry._id === id) ? list.filter((entry) => entry._id !== id) : (list as T[]);

export type FriendsEvent =
  | { type: 'loaded'; friends: Friend[]; received: FriendRequest[]; sent: FriendRequest[] }
  | { type: 'receivedRequest'; request: FriendRequest }
  | { type: 'sentRequest'; request: FriendRequest }
  | { type: 'receivedRequestGone'; requestId: string }
  | { type: 'sentRequestGone'; requestId: string }
  | { type: 'newFriend'; friend: Friend }
  | { type: 'friendGone'; userId: string }
  | { type: 'status'; payload: SocialChangedStatus }
  | { type: 'name'; payload: SocialChangedName };

export function friendsReducer(state: FriendsState, event: FriendsEvent): FriendsState {
  switch (event.type) {
    case 'loaded':
      return {
        friends: uniqueById(event.friends),
        received: uniqueById(event.received),
        sent: uniqueById(event.sent),
        loaded: true,
      };
    case 'receivedRequest':
      return { ...state, received: upsertById(state.received, event.request) };
    case 'sentRequest':
      return { ...state, sent: upsertById(state.sent, event.request) };
    case 'receivedRequestGone':
      return { ...state, received: withoutId(state.received, event.requestId) };
    case 'sentRequestGone':
      return { ...state, sent: withoutId(state.sent, event.requestId) };
    case 'newFriend': {
      // A new friend ends any request between the two, whichever event arrives first.
      const other = event.friend._id;
      return {
        ...state,
        friends: upsertById(state.friends, event.friend),
        received: state.received.filter((r) => r.requester._id !== other),
        sent: state.sent.filter((r) => r.recipient._id !== other),
      };
    }
    case 'friendGone':
      return { ...state, friends: withoutId(state.friends, event.userId) };
    case 'status':
      return {
        ...state,
        friends: state.friends.map((f) =>
          f._id === event.payload.userId ? { ...f, status: event.payload.status } : f,
        ),
      };
    case 'name':
      return {
        ...state,
        friends: state.friends.map((f) =>
          f._id === event.payload.userId ? { ...f, name: event.payload.name } : f,
        ),
      };
  }
}

/** Friends split for the sidebar: online first, each group sorted by name. */
export function groupFriends(friends: readonly Friend[]): { online: Friend[]; offline: Friend[] } {
  const byName = (a: Friend, b: Friend) =>
    (a.name ?? '').localeCompare(b.name ?? '', undefined, { sensitivity: 'base' });
  return {
    online: friends.filter((f) => f.status.online).sort(byName),
    offline: friends
      .filter((f) => !f.status.online)
      .sort((a, b) => (b.status.lastSeen ?? 0) - (a.status.lastSeen ?? 0) || byName(a, b)),
  };
}

/** The friend search of docs/contract.md §2: case-insensitive substring of the name, minimum length 1. */
export function filterByName<T extends { name: string | null }>(list: readonly T[], query: string): T[] {
  const needle = query.trim().toLocaleLowerCase();
  if (needle.length < 1) return [...list];
  return list.filter((entry) => (entry.name ?? '').toLocaleLowerCase().includes(needle));
}

/** How the viewer relates to another user; decides which card buttons show. */
export type Relation =
  | { kind: 'self' }
  | { kind: 'friend' }
  | { kind: 'sent'; requestId: string }
  | { kind: 'received'; requestId: string }
  | { kind: 'none' };

export function relationTo(state: FriendsState, me: string | undefined, userId: string): Relation {
  if (me === userId) return { kind: 'self' };
  if (state.friends.some((f) => f._id === userId)) return { kind: 'friend' };
  const sent = state.sent.find((r) => r.recipient._id === userId);
  if (sent) return { kind: 'sent', requestId: sent._id };
  const received = state.received.find((r) => r.requester._id === userId);
  if (received) return { kind: 'received', requestId: received._id };
  return { kind: 'none' };
}
