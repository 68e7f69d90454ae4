import type { ComponentType } from 'react';
import { ReportIcon } from '../../features/reports/ReportIcon';
import type { SessionUser } from '../../features/session/store';
import {
  ArenaIcon,
  AuditIcon,
  CalibrationIcon,
  DropsIcon,
  type IconProps,
  LeaderboardIcon,
  MatchesIcon,
  MyMatchesIcon,
  SeasonIcon,
  SettingsIcon,
  UsersIcon,
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

/** A group of sidebar entries; every group after the first has a heading (i18n key). */
export interface NavSection {
  id: 'main' | 'account' | 'admin';
  heading?: string;
  items: NavItem[];
}

/**
 * The sidebar of docs/contract.md §2 in groups: the player's pages; then "Account" (settings; the menu adds
 * Log out there); then, for admins only, "Admin" with its own entries and icons.
 */
export function navSectionsFor(loggedIn: boolean, user: SessionUser | null): NavSection[] {
  if (!loggedIn) return [{ id: 'main', items: [matches, season1, leaderboard] }];
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
  const sections: NavSection[] = [
    { id: 'main', items: [matches, ...own, leaderboard, season1] },
    {
      id: 'account',
      heading: 'nav.sections.account',
      items: [
        { to: '/settings', label: 'nav.settings', icon: SettingsIcon },
        { to: '/reports', label: 'reports.nav.mine', icon: ReportIcon },
      ],
    },
  ];
  if (user?.role === 'ADMIN')
    sections.push({
      id: 'admin',
      heading: 'nav.sections.admin',
      items: [
        { to: '/admin/drops', label: 'competition.nav.adminDrops', icon: DropsIcon },
        { to: '/admin/users', label: 'competition.nav.adminUsers', icon: UsersIcon },
        { to: '/admin/audit', label: 'moderation.nav', icon: AuditIcon },
        { to: '/admin/reports', label: 'reports.nav.admin', icon: ReportIcon },
        { to: '/admin/arena', label: 'arena.nav', icon: ArenaIcon },
        { to: '/admin/calibration', label: 'insights.calibration.nav', icon: CalibrationIcon },
      ],
    });
  return sections;
}

/** Every sidebar entry in order (the sections flattened). */
export function navItemsFor(loggedIn: boolean, user: SessionUser | null): NavItem[] {
  return navSectionsFor(loggedIn, user).flatMap((section) => section.items);
}

/** The match the user is playing in, if any: the Match Lobby button links there. */
export function activeMatchId(user: SessionUser | null): string | null {
  const match = user?.status?.match;
  return match?.active && match.matchId ? match.matchId : null;
}
