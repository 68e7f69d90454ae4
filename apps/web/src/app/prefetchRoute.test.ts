import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { prefetchRoute } from './routes';

const lazyRoute = (path: string, lazy = vi.fn(async () => ({}))) => ({ path, lazy });

describe('prefetchRoute', () => {
  it("starts loading only the matched routes' chunks (parent and child)", () => {
    const leaderboard = lazyRoute('leaderboard');
    const user = lazyRoute('user/:userId');
    const matches = lazyRoute('matches');
    const routes: RouteObject[] = [{ id: 'root', children: [leaderboard, { ...user, children: [matches] }] }];
    prefetchRoute('/user/u1/matches', routes);
    expect(user.lazy).toHaveBeenCalledOnce();
    expect(matches.lazy).toHaveBeenCalledOnce();
    expect(leaderboard.lazy).not.toHaveBeenCalled();
  });

  it('leaves a failed download to the router (no unhandled rejection)', async () => {
    const failing = lazyRoute(
      'match/:matchId',
      vi.fn(async () => {
        throw new Error('chunk 404');
      }),
    );
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      prefetchRoute('/match/m1', [{ id: 'root', children: [failing] }]);
      await new Promise((r) => setTimeout(r, 20));
      expect(failing.lazy).toHaveBeenCalledOnce();
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});

describe("a route's first request", () => {
  it('starts with the app, once, and the screen takes its answer instead of asking again', async () => {
    const { getEarlyOr } = await import('../features/api/early');
    const fetched: string[] = [];
    const fetchMock = vi.fn(async (url: string) => {
      fetched.push(url);
      return new Response(JSON.stringify({ asked: fetched.length }), {
        headers: { 'Content-Type': 'application/json' },
      });
    });
    vi.stubGlobal('fetch', fetchMock);
    try {
      const match = { ...lazyRoute('match/:matchId'), handle: { firstRequest: '/match/:matchId' } };
      prefetchRoute('/match/a b', [{ id: 'root', children: [match] }]);
      expect(fetched).toEqual(['/api/match/a%20b']);
      // The screen's own GET of the same path: the early answer, no second request.
      expect(await getEarlyOr('/match/a%20b')).toEqual({ asked: 1 });
      expect(fetched).toHaveLength(1);
      // Taken once: the next visit asks the server again.
      expect(await getEarlyOr('/match/a%20b')).toEqual({ asked: 2 });
      expect(fetched).toHaveLength(2);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it("an answer already in is the screen's first state, taken once", async () => {
    const { takeArrived } = await import('../features/api/early');
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"name":"Ada"}', { headers: { 'Content-Type': 'application/json' } })),
    );
    try {
      const user = { ...lazyRoute('user/:userId'), handle: { firstRequest: '/users/:userId' } };
      prefetchRoute('/user/u7', [{ id: 'root', children: [user] }]);
      // Not in yet: the screen starts without it (and asks through getEarlyOr).
      expect(takeArrived('/users/u7')).toBeUndefined();
      await vi.waitFor(() => expect(takeArrived('/users/u7')?.value).toEqual({ name: 'Ada' }));
      expect(takeArrived('/users/u7')).toBeUndefined();
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a route without one asks nothing', () => {
    const fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    try {
      prefetchRoute('/leaderboard', [{ id: 'root', children: [lazyRoute('leaderboard')] }]);
      expect(fetchMock).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
