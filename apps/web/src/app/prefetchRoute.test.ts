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
