/**
 * Keeps the friends store in step with the server (docs/contract.md §4 Friend request, §7 socket events):
 * loads friends, requests and the own card after login and after every (re)authentication,
 * applies each live event, and joins / leaves the friends' social channels. Started once by the
 * first mounted friends sidebar; it follows the session and the socket by itself.
 */
import type { Friend, FriendRequestsResponse, FriendsResponse, UserCard } from '@openpug/shared';
import { api } from '../api';
import { useSession } from '../session';
import {
  type AppSocket,
  emitWithAck,
  getSocket,
  onServerEvents,
  type ServerEventHandlers,
  useSocketState,
} from '../socket';
import { dispatchFriends, patchOwnCard, resetFriends, setOwnCard } from './store';

let started = false;
let generation = 0;

// A refused join or leave changes nothing here: the next (re)authentication joins afresh.
const joinSocial = (userId: string) =>
  void emitWithAck(getSocket(), 'join-social', userId, { silent: true }).catch(() => undefined);
const leaveSocial = (userId: string) =>
  void emitWithAck(getSocket(), 'leave-social', userId, { silent: true }).catch(() => undefined);

/** Loads everything; answers of an older session (logout in between) are dropped. */
export async function reloadFriends(): Promise<void> {
  const { user, token } = useSession.getState();
  if (!token || !user?._id) return;
  const mine = ++generation;
  const [friends, requests, me] = await Promise.all([
    api.get<FriendsResponse>('/friends', { silent: true }),
    api.get<FriendRequestsResponse>('/friends/requests', { silent: true }),
    api.get<UserCard>(`/users/${user._id}`, { silent: true }).catch(() => null),
  ]);
  if (mine !== generation || !useSession.getState().token) return;
  dispatchFriends({
    type: 'loaded',
    friends: friends.friends,
    received: requests.receivedFriendRequests,
    sent: requests.sentFriendRequests,
  });
  if (me) setOwnCard(me);
  for (const friend of friends.friends) joinSocial(friend._id);
}

const handlers: ServerEventHandlers = {
  privateNewReceivedFriendRequest: (request) => dispatchFriends({ type: 'receivedRequest', request }),
  privateNewRequestedFriendRequest: (request) => dispatchFriends({ type: 'sentRequest', request }),
  privateDeleteReceivedFriendRequest: ({ _id }) =>
    dispatchFriends({ type: 'receivedRequestGone', requestId: _id }),
  privateDeleteRequestedFriendRequest: ({ _id }) =>
    dispatchFriends({ type: 'sentRequestGone', requestId: _id }),
  privateNewFriend: (friend: Friend) => {
    dispatchFriends({ type: 'newFriend', friend });
    joinSocial(friend._id);
  },
  privateDeleteFriend: ({ _id }) => {
    dispatchFriends({ type: 'friendGone', userId: _id });
    leaveSocial(_id);
  },
  socialChangedStatus: (payload) => dispatchFriends({ type: 'status', payload }),
  socialChangedName: (payload) => dispatchFriends({ type: 'name', payload }),
  privateUserUpdate: (patch) => patchOwnCard(patch as Parameters<typeof patchOwnCard>[0]),
  // The own Elo changed: show it at once, then re-read the card for the new rank.
  PRIVATE_MATCH_RESULT: ({ newElo }) => {
    patchOwnCard({ stats: { elo: newElo } });
    void reloadOwnCard().catch(() => undefined);
  },
};

/** Re-reads the own card (rank and Elo after a match); an answer of an older session is dropped. */
export async function reloadOwnCard(): Promise<void> {
  const { user, token } = useSession.getState();
  if (!token || !user?._id) return;
  const mine = generation;
  const me = await api.get<UserCard>(`/users/${user._id}`, { silent: true });
  if (mine !== generation || useSession.getState().user?._id !== user._id) return;
  setOwnCard(me);
}

export function ensureFriendsSync(): void {
  if (started) return;
  started = true;
  let detach: (() => void) | null = null;
  const follow = (socket: AppSocket | null) => {
    detach?.();
    detach = socket ? onServerEvents(socket, handlers) : null;
  };
  follow(getSocket());
  useSocketState.subscribe((state, previous) => {
    if (state.socket !== previous.socket) follow(state.socket);
    // Every (re)authentication re-reads the lists, so nothing missed while offline stays stale.
    if (state.authenticated && !previous.authenticated) void reloadFriends().catch(() => undefined);
  });
  useSession.subscribe((state, previous) => {
    if (state.token === previous.token) return;
    if (!state.token) {
      generation++;
      resetFriends();
    } else if (state.user?._id !== previous.user?._id) {
      resetFriends();
      void reloadFriends().catch(() => undefined);
    }
  });
  void reloadFriends().catch(() => undefined);
}
