/**
 * The route table of docs/contract.md §2 as plain data: what the router is built from and what the tests
 * check. Paths are absolute (children included) so they read like the contract's table.
 */

export const SCREEN_NAMES = [
  'about',
  'admin',
  'admin-drops',
  'admin-audit',
  'admin-reports',
  'admin-arena',
  'admin-calibration',
  'chat',
  'forgot-password',
  'home',
  'landing',
  'leaderboard',
  'login',
  'match',
  'my-reports',
  'not-found',
  'profile',
  'ranking',
  'reset-password',
  'search',
  'season',
  'settings',
  'signup',
  'user',
  'user-drops',
  'user-highlights',
  'verify',
] as const;
export type ScreenName = (typeof SCREEN_NAMES)[number];

/**
 * Screens whose first paint needs no MUI (plain React + CSS; their MUI parts mount after it), so
 * their first load stays small.
 * Every other screen renders inside FeatureProviders (MUI theme, query cache).
 */
export const PLAIN_SCREENS: ReadonlySet<ScreenName> = new Set<ScreenName>([
  'landing',
  'leaderboard',
  'match',
  'user',
]);

/** Which part of a user's page a child route of /user/:userId shows. */
export type UserContent = 'matches' | 'drops' | 'stats' | 'friends' | 'highlights';

export interface RouteEntry {
  path: string;
  /** Route name of docs/contract.md §2; the children of /user/:userId have none. */
  name?: string;
  requiresAuth: boolean;
  /** The lazily loaded screen; absent for a pure redirect. */
  screen?: ScreenName;
  /** Named export of the screen module to render; default `default`. */
  component?: string;
  content?: UserContent;
  /**
   * The API GET (path below /api, with the route's params) the screen makes first: started with
   * the app (features/api/early.ts), before the screen has rendered.
   */
  firstRequest?: string;
  children?: RouteEntry[];
}

const userChild = (content: UserContent, screen: ScreenName, component?: string): RouteEntry => ({
  path: `/user/:userId/${content}`,
  requiresAuth: false,
  screen,
  component,
  content,
});

export const ROUTE_TABLE: RouteEntry[] = [
  { path: '/', name: 'landing', requiresAuth: false, screen: 'landing' },
  { path: '/home', name: 'home', requiresAuth: true, screen: 'home' },
  { path: '/search', name: 'search', requiresAuth: true, screen: 'search' },
  { path: '/chat/:chatId', name: 'chat', requiresAuth: false, screen: 'chat' },
  {
    path: '/user/:userId',
    name: 'user',
    requiresAuth: false,
    screen: 'user',
    firstRequest: '/users/:userId',
    children: [
      userChild('matches', 'user', 'UserMatches'),
      userChild('drops', 'user-drops'),
      userChild('stats', 'user-drops'),
      userChild('friends', 'search'),
      userChild('highlights', 'user-highlights'),
    ],
  },
  { path: '/profile', name: 'profile', requiresAuth: true, screen: 'profile' },
  { path: '/verify/:id', name: 'verify', requiresAuth: false, screen: 'verify' },
  { path: '/forgot', name: 'forgotPassword', requiresAuth: false, screen: 'forgot-password' },
  { path: '/reset/:id', name: 'resetPassword', requiresAuth: false, screen: 'reset-password' },
  { path: '/about', name: 'about', requiresAuth: false, screen: 'about' },
  { path: '/leaderboard', name: 'leaderboard', requiresAuth: false, screen: 'leaderboard' },
  {
    path: '/match/:matchId',
    name: 'match',
    requiresAuth: false,
    screen: 'match',
    firstRequest: '/match/:matchId',
  },
  { path: '/admin/drops', name: 'admin-drops', requiresAuth: true, screen: 'admin-drops' },
  // docs/contract.md §2 names an `admin` screen (the users table) without a path.
  { path: '/admin/users', name: 'admin', requiresAuth: true, screen: 'admin' },
  { path: '/admin/audit', name: 'admin-audit', requiresAuth: true, screen: 'admin-audit' },
  { path: '/admin/reports', name: 'admin-reports', requiresAuth: true, screen: 'admin-reports' },
  { path: '/admin/arena', name: 'admin-arena', requiresAuth: true, screen: 'admin-arena' },
  {
    path: '/admin/calibration',
    name: 'admin-calibration',
    requiresAuth: true,
    screen: 'admin-calibration',
  },
  { path: '/reports', name: 'my-reports', requiresAuth: true, screen: 'my-reports' },
  { path: '/season1', name: 'season1', requiresAuth: false, screen: 'season' },
  { path: '/settings', name: 'settings', requiresAuth: true, screen: 'settings' },
  // The auth routes (docs/contract.md §2: their paths are not shown). Logout and the sidebar's Login go to /login.
  { path: '/login', name: 'login', requiresAuth: false, screen: 'login' },
  { path: '/signup', name: 'signup', requiresAuth: false, screen: 'signup' },
  { path: '*', name: 'not found', requiresAuth: false, screen: 'not-found' },
];

/** Every entry, parents before their children. */
export function flattenRoutes(entries: RouteEntry[] = ROUTE_TABLE): RouteEntry[] {
  return entries.flatMap((e) => [e, ...flattenRoutes(e.children ?? [])]);
}

export const CHAT_PATH_PREFIX = '/chat/';

/** Chat routes hide the sidebars, the queue widget and the match-result dialog. */
export function isChatPath(pathname: string): boolean {
  return pathname.startsWith(CHAT_PATH_PREFIX);
}
