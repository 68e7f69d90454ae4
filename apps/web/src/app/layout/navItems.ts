import type { ComponentType } from 'react';
import type { SessionUser } from '../../features/session/store';
import {
  DropsIcon,
  type IconProps,
  LeaderboardIcon,
  MatchesIcon,
  MyMatchesIcon,
  SeasonIcon,
  SettingsIcon,
} from '../../ui/icons';

export interface NavItem {
  to: string;
  /** i18n key of the label. */
  label: string;
  icon: ComponentType<IconProps>;
  /** Count shown as a badge (unseen drops); hidden when 0. */
  badge?: number;
}

const matches: NavItem = { to: '/', label: 'nav.matches', icon: MatchesIcon };
const leaderboard: NavItem = { to: '/leaderboard', label: 'nav.leaderboard', icon: LeaderboardIcon };
const season1: NavItem = { to: '/season1', label: 'nav.season1', icon: SeasonIcon };

/** The sidebar entries of SPEC §2 for a visitor or a logged-in user. */
export function navItemsFor(loggedIn: boolean, user: SessionUser | null): NavItem[] {
  if (!loggedIn) return [matches, season1, leaderboard];
  const own: NavItem[] = user?._id
    ? [
        { to: `/user/${user._id}/matches`, label: 'nav.myMatches', icon: MyMatchesIcon },
        {
          to: `/user/${user._id}/drops`,
          label: 'nav.drops',
          icon: DropsIcon,
          badge: user.unseenDropsCount ?? 0,
        },
      ]
    : [];
  return [
    matches,
    ...own,
    leaderboard,
    season1,
    { to: '/settings', label: 'nav.settings', icon: SettingsIcon },
    ...(user?.role === 'ADMIN'
      ? [
          { to: '/admin/drops', label: 'competition.nav.adminDrops', icon: DropsIcon },
          { to: '/admin/users', label: 'competition.nav.adminUsers', icon: SettingsIcon },
        ]
      : []),
  ];
}

/** The match the user is playing in, if any: the Match Lobby button links there. */
export function activeMatchId(user: SessionUser | null): string | null {
  const match = user?.status?.match;
  return match?.active && match.matchId ? match.matchId : null;
}
