import { offlineStatus, type UserCard } from '@openpug/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startSessionRules } from '../accounts/sessionRules';
import { logout, saveSession, useSession } from '../session/store';
import { useSocketState } from '../socket/socket';
import { patchOwnCard, setOwnCard, useFriendsStore } from './store';
import { ensureFriendsSync } from './sync';

const card = (elo: number, rank: number): UserCard => ({
  _id: 'u1',
  name: 'Ace',
  avatar: null,
  steamUrl: null,
  matrixId: null,
  stats: { elo },
  rank,
  status: offlineStatus(),
  banner: 'default',
});

/** A socket stand-in that lets several listeners share one event, like Socket.IO. */
function fakeSocket() {
  const handlers = new Map<string, Set<(p: unknown) => void>>();
  return {
    on: (e: string, h: (p: unknown) => void) => {
      if (!handlers.has(e)) handlers.set(e, new Set());
      handlers.get(e)?.add(h);
    },
    off: (e: string, h: (p: unknown) => void) => handlers.get(e)?.delete(h),
    emit: () => undefined,
    fire: (e: string, p: unknown) => {
      for (const h of handlers.get(e) ?? []) h(p);
    },
  };
}

describe('own Elo and rank after a match', () => {
  let routes: Record<string, unknown>;
  beforeEach(() => {
    localStorage.clear();
    logout();
    routes = {
      '/api/friends': { friends: [] },
      '/api/friends/requests': { receivedFriendRequests: [], sentFriendRequests: [] },
      '/api/users/u1': card(200, 1),
      '/api/profile': { _id: 'u1', name: 'Ace', stats: { elo: 200 }, rank: 1 },
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => new Response(JSON.stringify(routes[url] ?? {}), { status: 200 })),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    useSocketState.setState({ socket: null });
  });

  it('the private user update moves Elo and rank on the own card', () => {
    setOwnCard(card(200, 1));
    patchOwnCard({ stats: { elo: 190 }, rank: 4 });
    expect(useFriendsStore.getState().me).toMatchObject({ stats: { elo: 190 }, rank: 4 });
  });

  it('PRIVATE_MATCH_RESULT updates the session user and the sidebar card without a reload', async () => {
    saveSession({
      token: 'tok',
      user: { _id: 'u1', name: 'Ace', stats: { elo: 200 }, rank: 1 },
      expiry: String(Date.now() + 86_400_000),
    });
    const socket = fakeSocket();
    useSocketState.setState({ socket: socket as never });
    const stop = startSessionRules({
      onLoggedOut: () => undefined,
      setInterval: () => 1,
      clearInterval: () => undefined,
    });
    ensureFriendsSync();
    await vi.waitFor(() => expect(useFriendsStore.getState().me?.rank).toBe(1));

    // The server has stored the result: 190 Elo, now fourth.
    routes['/api/users/u1'] = card(190, 4);
    routes['/api/profile'] = { _id: 'u1', name: 'Ace', stats: { elo: 190 }, rank: 4 };
    socket.fire('PRIVATE_MATCH_RESULT', { victory: false, oldElo: 200, newElo: 190, matchId: 'm1' });
    expect(useFriendsStore.getState().me?.stats?.elo).toBe(190);
    expect(useSession.getState().user?.stats).toEqual({ elo: 190 });
    await vi.waitFor(() => expect(useFriendsStore.getState().me?.rank).toBe(4));
    await vi.waitFor(() => expect(useSession.getState().user?.rank).toBe(4));
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ stats: { elo: 190 }, rank: 4 });
    stop();
  });
});
