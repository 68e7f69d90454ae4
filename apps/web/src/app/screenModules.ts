/**
 * One dynamic import per screen, so each screen is its own chunk. The paths must stay literal for
 * the bundler to split them.
 */
import type { ComponentType } from 'react';
import type { ScreenName, UserContent } from './routeTable';

export interface ScreenProps {
  /** Set on the children of /user/:userId. */
  content?: UserContent;
}

export type ScreenModule = Record<string, ComponentType<ScreenProps>>;

export const SCREEN_MODULES: Record<ScreenName, () => Promise<ScreenModule>> = {
  about: () => import('../screens/about'),
  admin: () => import('../screens/admin'),
  'admin-drops': () => import('../screens/admin-drops'),
  'admin-audit': () => import('../screens/admin-audit'),
  'admin-reports': () => import('../screens/admin-reports'),
  'admin-arena': () => import('../screens/admin-arena'),
  'admin-calibration': () => import('../screens/admin-calibration'),
  chat: () => import('../screens/chat'),
  'forgot-password': () => import('../screens/forgot-password'),
  home: () => import('../screens/home'),
  landing: () => import('../screens/landing'),
  leaderboard: () => import('../screens/leaderboard'),
  login: () => import('../screens/login'),
  match: () => import('../screens/match'),
  'my-reports': () => import('../screens/my-reports'),
  'not-found': () => import('../screens/not-found'),
  profile: () => import('../screens/profile'),
  ranking: () => import('../screens/ranking'),
  'reset-password': () => import('../screens/reset-password'),
  search: () => import('../screens/search'),
  season: () => import('../screens/season'),
  settings: () => import('../screens/settings'),
  signup: () => import('../screens/signup'),
  user: () => import('../screens/user'),
  'user-drops': () => import('../screens/user-drops'),
  'user-highlights': () => import('../screens/user-highlights'),
  verify: () => import('../screens/verify'),
};
