import { describe, expect, it } from 'vitest';
import { flattenRoutes, isChatPath, ROUTE_TABLE, SCREEN_NAMES } from './routeTable';
import { SCREEN_MODULES } from './screenModules';

// docs/contract.md §2 route table, row by row: path, name, login required.
const SPEC_ROUTES: [path: string, name: string | undefined, requiresAuth: boolean][] = [
  ['/', 'landing', false],
  ['/home', 'home', true],
  ['/search', 'search', true],
  ['/chat/:chatId', 'chat', false],
  ['/user/:userId', 'user', false],
  ['/user/:userId/matches', undefined, false],
  ['/user/:userId/drops', undefined, false],
  ['/user/:userId/stats', undefined, false],
  ['/user/:userId/friends', undefined, false],
  ['/user/:userId/highlights', undefined, false],
  ['/profile', 'profile', true],
  ['/verify/:id', 'verify', false],
  ['/forgot', 'forgotPassword', false],
  ['/reset/:id', 'resetPassword', false],
  ['/about', 'about', false],
  ['/leaderboard', 'leaderboard', false],
  ['/match/:matchId', 'match', false],
  ['/admin/drops', 'admin-drops', true],
  ['/admin/users', 'admin', true],
  ['/admin/audit', 'admin-audit', true],
  ['/admin/reports', 'admin-reports', true],
  ['/admin/arena', 'admin-arena', true],
  ['/admin/calibration', 'admin-calibration', true],
  ['/reports', 'my-reports', true],
  ['/season1', 'season1', false],
  ['/settings', 'settings', true],
  // Auth routes; docs/contract.md §2 leaves their paths open.
  ['/login', 'login', false],
  ['/signup', 'signup', false],
  ['*', 'not found', false],
];

describe('route table', () => {
  it('is exactly the route table of docs/contract.md §2', () => {
    expect(flattenRoutes().map((r) => [r.path, r.name, r.requiresAuth])).toEqual(SPEC_ROUTES);
  });

  it('nests the user pages under /user/:userId with a content prop and the spec screens', () => {
    const user = ROUTE_TABLE.find((r) => r.name === 'user');
    expect(user?.children?.map((c) => [c.content, c.screen])).toEqual([
      ['matches', 'user'],
      ['drops', 'user-drops'],
      ['stats', 'user-drops'],
      ['friends', 'search'],
      ['highlights', 'user-highlights'],
    ]);
  });

  it('has a lazily loaded module for every screen of docs/contract.md §2', () => {
    expect(Object.keys(SCREEN_MODULES).sort()).toEqual([...SCREEN_NAMES].sort());
    for (const route of flattenRoutes()) expect(SCREEN_NAMES).toContain(route.screen);
  });

  it('recognises chat routes', () => {
    expect(isChatPath('/chat/abc')).toBe(true);
    expect(isChatPath('/chatter')).toBe(false);
    expect(isChatPath('/')).toBe(false);
  });
});
