/**
 * The friends store: the state of ./state.ts plus the viewer's own card. Small and free of
 * schemas, so the first-paint shell may read it (the phone top bar's red dot).
 */
import type { UserCard, UserStatus } from '@openpug/shared';
import { create } from 'zustand';
import { emptyFriendsState, type FriendsEvent, type FriendsState, friendsReducer } from './state';

export interface FriendsStore extends FriendsState {
  /** The viewer's own card (avatar, name, rank, Elo, live status). */
  me: UserCard | null;
}

export const useFriendsStore = create<FriendsStore>(() => ({ ...emptyFriendsState(), me: null }));

export function dispatchFriends(event: FriendsEvent): void {
  useFriendsStore.setState((store) => friendsReducer(store, event));
}

export function setOwnCard(me: UserCard | null): void {
  useFriendsStore.setState({ me });
}

/**
 * The private user update event (and the own match result): merges changed name, avatar, status,
 * Elo or rank into the own card.
 */
export function patchOwnCard(patch: {
  name?: string | null;
  avatar?: string | null;
  status?: UserStatus;
  stats?: { elo: number };
  rank?: number | null;
}): void {
  const { me } = useFriendsStore.getState();
  if (!me) return;
  const next = { ...me };
  if (patch.name !== undefined) next.name = patch.name;
  if (patch.avatar !== undefined) next.avatar = patch.avatar;
  if (patch.status !== undefined) next.status = patch.status;
  if (patch.stats !== undefined) next.stats = { ...next.stats, ...patch.stats };
  if (patch.rank !== undefined) next.rank = patch.rank;
  useFriendsStore.setState({ me: next });
}

export function resetFriends(): void {
  useFriendsStore.setState({ ...emptyFriendsState(), me: null });
}

/** Count shown as the red dot on the received-requests tab. */
export const useReceivedCount = () => useFriendsStore((s) => s.received.length);
