import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { logout, saveSession, useSession } from '../session/store';
import { useSocketState } from '../socket/socket';
import {
  completeLogin,
  mergeUserUpdate,
  refreshTokenIfDue,
  startSessionRules,
  TOKEN_CHECK_INTERVAL_MS,
  TOKEN_REFRESH_MARGIN_MS,
  tokenNeedsRefresh,
} from './sessionRules';

type Call = { url: string; init: RequestInit };
let calls: Call[];

function answer(routes: Record<string, [number, unknown]>) {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      const [status, body] = routes[url] ?? [404, { errors: { msg: 'NOT_FOUND' } }];
      return new Response(JSON.stringify(body), { status });
    }),
  );
}

const NOW = 1_700_000_000_000;

describe('session rules', () => {
  beforeEach(() => {
    localStorage.clear();
    logout();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('stores user, token, matrix and the expiry of a login', () => {
    completeLogin({
      user: { _id: 'u1', name: 'Ace', verified: false } as never,
      token: 'tok',
      expiresAt: NOW + 1000,
      matrix: { user_id: '@u1:x' },
    });
    expect(useSession.getState()).toMatchObject({
      token: 'tok',
      isTokenSet: true,
      expiry: String(NOW + 1000),
    });
    expect(localStorage.getItem('token')).toBe('tok');
    expect(localStorage.getItem('expiry')).toBe(String(NOW + 1000));
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({ name: 'Ace', verified: false });
    expect(JSON.parse(localStorage.getItem('matrix') ?? '{}')).toEqual({ user_id: '@u1:x' });
  });

  it('refreshes only when the stored expiry is near or past', () => {
    expect(tokenNeedsRefresh(String(NOW + 24 * 3600_000), NOW)).toBe(false);
    expect(tokenNeedsRefresh(String(NOW + TOKEN_REFRESH_MARGIN_MS + 1), NOW)).toBe(false);
    expect(tokenNeedsRefresh(String(NOW + TOKEN_REFRESH_MARGIN_MS), NOW)).toBe(true);
    expect(tokenNeedsRefresh(String(NOW - 1), NOW)).toBe(true);
    expect(tokenNeedsRefresh(null, NOW)).toBe(true);
    expect(tokenNeedsRefresh('garbage', NOW)).toBe(true);
  });

  it('a due refresh replaces token and expiry; a fresh token is left alone', async () => {
    saveSession({ token: 'old', user: { _id: 'u1' }, expiry: String(NOW + 3600_000) });
    answer({ '/api/token': [200, { token: 'new', expiresAt: NOW + 86_400_000 }] });
    await refreshTokenIfDue(NOW);
    expect(calls).toHaveLength(0);
    expect(useSession.getState().token).toBe('old');

    await refreshTokenIfDue(NOW + 3600_000 - 60_000);
    expect(calls.map((c) => c.url)).toEqual(['/api/token']);
    expect((calls[0].init.headers as Record<string, string>).Authorization).toBe('Bearer old');
    expect(useSession.getState()).toMatchObject({ token: 'new', expiry: String(NOW + 86_400_000) });
    expect(localStorage.getItem('token')).toBe('new');
    expect(localStorage.getItem('expiry')).toBe(String(NOW + 86_400_000));
  });

  it('a 401 on refresh logs out and clears storage', async () => {
    saveSession({ token: 'old', user: { _id: 'u1' }, matrix: { a: 1 }, expiry: String(NOW - 1) });
    answer({ '/api/token': [401, { errors: { msg: 'BAD_TOKEN' } }] });
    await refreshTokenIfDue(NOW);
    expect(useSession.getState().isTokenSet).toBe(false);
    for (const key of ['token', 'expiry', 'user', 'matrix']) expect(localStorage.getItem(key)).toBeNull();
  });

  it('the periodic check refreshes once the expiry comes near, and a logout goes to the login route', async () => {
    let now = NOW;
    let tick: (() => void) | undefined;
    const onLoggedOut = vi.fn();
    answer({
      '/api/token': [200, { token: 'new', expiresAt: NOW + 86_400_000 }],
      '/api/profile': [200, { _id: 'u1', name: 'Fresh' }],
    });
    saveSession({ token: 'old', user: { _id: 'u1', name: 'Stale' }, expiry: String(NOW + 3600_000) });
    const stop = startSessionRules({
      onLoggedOut,
      now: () => now,
      setInterval: (fn, ms) => {
        expect(ms).toBe(TOKEN_CHECK_INTERVAL_MS);
        tick = fn;
        return 1;
      },
      clearInterval: () => undefined,
    });
    // Auto login: the stored user is refreshed from GET /api/profile; the token is not due yet.
    await vi.waitFor(() => expect(useSession.getState().user?.name).toBe('Fresh'));
    expect(calls.map((c) => c.url)).toEqual(['/api/profile']);

    now = NOW + 3600_000 - TOKEN_REFRESH_MARGIN_MS + 1;
    tick?.();
    await vi.waitFor(() => expect(useSession.getState().token).toBe('new'));

    logout();
    expect(onLoggedOut).toHaveBeenCalledTimes(1);
    stop();
  });

  it('any 401 from another call logs out, and the logout route follows', async () => {
    const onLoggedOut = vi.fn();
    saveSession({ token: 'tok', user: { _id: 'u1' }, expiry: String(NOW + 86_400_000) });
    answer({ '/api/profile': [401, { errors: { msg: 'BAD_TOKEN' } }] });
    const stop = startSessionRules({
      onLoggedOut,
      now: () => NOW,
      setInterval: () => 1,
      clearInterval: () => undefined,
    });
    await vi.waitFor(() => expect(onLoggedOut).toHaveBeenCalled());
    expect(localStorage.getItem('token')).toBeNull();
    stop();
  });

  it('merges the live private user update into the stored user', () => {
    saveSession({ token: 'tok', user: { _id: 'u1', name: 'Ace', unseenDropsCount: 3, verified: false } });
    mergeUserUpdate({ verified: true, unseenDropsCount: 0 });
    expect(useSession.getState().user).toEqual({
      _id: 'u1',
      name: 'Ace',
      unseenDropsCount: 0,
      verified: true,
    });
    expect(JSON.parse(localStorage.getItem('user') ?? '{}')).toMatchObject({
      verified: true,
      unseenDropsCount: 0,
    });
  });

  it('listens for privateUserUpdate on the live socket', () => {
    const handlers = new Map<string, (p: unknown) => void>();
    const socket = {
      on: (e: string, h: (p: unknown) => void) => handlers.set(e, h),
      off: (e: string) => handlers.delete(e),
    };
    saveSession({ token: 'tok', user: { _id: 'u1', name: 'Ace' }, expiry: String(NOW + 86_400_000) });
    answer({ '/api/profile': [200, { _id: 'u1', name: 'Ace' }] });
    const stop = startSessionRules({
      onLoggedOut: () => undefined,
      setInterval: () => 1,
      clearInterval: () => undefined,
    });
    useSocketState.setState({ socket: socket as never });
    handlers.get('privateUserUpdate')?.({ name: 'Renamed' });
    expect(useSession.getState().user?.name).toBe('Renamed');
    stop();
    expect(handlers.has('privateUserUpdate')).toBe(false);
    useSocketState.setState({ socket: null });
  });
});
