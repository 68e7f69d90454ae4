/**
 * The app's own line icons (24×24, stroked with the current colour), drawn for openpug so nothing
 * is fetched and no icon package is needed. Plain SVG, usable in the first-paint shell and next
 * to MUI components alike.
 */
import type { ReactNode, SVGProps } from 'react';

export type IconProps = SVGProps<SVGSVGElement> & { size?: number };

/** The base of every line icon: the 24×24 stroked frame, hidden from screen readers. */
export function LineIcon({ size = 22, children, ...props }: IconProps & { children: ReactNode }) {
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.9}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      {...props}
    >
      {children}
    </svg>
  );
}

export function MatchesIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <circle cx="12" cy="12" r="7" />
      <path d="M12 2v4M12 18v4M2 12h4M18 12h4" />
      <circle cx="12" cy="12" r="1.4" fill="currentColor" />
    </LineIcon>
  );
}

export function MyMatchesIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21c0-4 3.6-7 8-7s8 3 8 7" />
    </LineIcon>
  );
}

export function DropsIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <rect x="3" y="8" width="18" height="5" rx="1" />
      <path d="M5 13v8h14v-8M12 8v13" />
      <path d="M12 8c-1.5-3-5-4.2-5.6-2.2C5.9 7.6 9 8 12 8zm0 0c1.5-3 5-4.2 5.6-2.2.5 1.8-2.6 2.2-5.6 2.2z" />
    </LineIcon>
  );
}

export function LeaderboardIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M3 21h18M9 21V6h6v15M3 21v-8h6M15 21v-5h6v5" />
    </LineIcon>
  );
}

export function SeasonIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M5 21V4h11l-2 4 2 4H5" />
    </LineIcon>
  );
}

export function SettingsIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M4 7h10M18 7h2M4 17h4M12 17h8" />
      <circle cx="16" cy="7" r="2" />
      <circle cx="10" cy="17" r="2" />
    </LineIcon>
  );
}

export function LobbyIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <rect x="3" y="4" width="18" height="16" rx="3" />
      <path d="M10 9l5 3-5 3z" fill="currentColor" />
    </LineIcon>
  );
}

export function LoginIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4M3 12h11M10 8l4 4-4 4" />
    </LineIcon>
  );
}

export function NotificationsIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M6 16v-5a6 6 0 0 1 12 0v5l2 2H4zM10 21h4" />
    </LineIcon>
  );
}

export function FriendsIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <circle cx="9" cy="8" r="3.5" />
      <path d="M2.5 20c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6" />
      <circle cx="17" cy="9" r="2.5" />
      <path d="M17 14c2.8 0 4.5 2 4.5 5" />
    </LineIcon>
  );
}

export function MenuIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M4 6h16M4 12h16M4 18h16" />
    </LineIcon>
  );
}

/** Linked to the voice server (status line). */
export function VoiceIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M4 14v-2a8 8 0 0 1 16 0v2" />
      <rect x="3" y="14" width="4" height="6" rx="1.5" />
      <rect x="17" y="14" width="4" height="6" rx="1.5" />
    </LineIcon>
  );
}

/** In the arena (status line). */
export function ArenaIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M4 4l10 10M4 4h4M4 4v4M20 4L10 14M20 4h-4M20 4v4" />
      <path d="M7 17l-3 3M17 17l3 3M12 16l-2-2M12 16l2-2" />
    </LineIcon>
  );
}

/** Waiting in the queue (status line). */
export function QueueIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M6 3h12M6 21h12M7 3c0 5 10 5 10 9s-10 4-10 9M17 3c0 5-10 5-10 9s10 4 10 9" />
    </LineIcon>
  );
}

/** Opens a menu of more actions. */
export function MoreIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <circle cx="12" cy="5" r="1.2" fill="currentColor" />
      <circle cx="12" cy="12" r="1.2" fill="currentColor" />
      <circle cx="12" cy="19" r="1.2" fill="currentColor" />
    </LineIcon>
  );
}

export function SearchIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <circle cx="11" cy="11" r="6.5" />
      <path d="M16 16l4.5 4.5" />
    </LineIcon>
  );
}

export function AddFriendIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <circle cx="10" cy="8" r="3.5" />
      <path d="M3.5 20c0-3.6 2.9-6 6.5-6s6.5 2.4 6.5 6M19 8v6M16 11h6" />
    </LineIcon>
  );
}

export function ChatIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M4 5h16v11H9l-5 4z" />
    </LineIcon>
  );
}

export function CheckIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M5 12.5l4.5 4.5L19 7.5" />
    </LineIcon>
  );
}

/** The admin's user management: a person beside a list (distinct from Friends and Settings). */
export function UsersIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <circle cx="8" cy="8" r="3.2" />
      <path d="M2.5 19.5c.6-3.2 2.8-5 5.5-5s4.9 1.8 5.5 5M15.5 7h6M15.5 11.5h6M17.5 16h4" />
    </LineIcon>
  );
}

/** The admins' calibration page: points along a diagonal in a frame (a reliability plot). */
export function CalibrationIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M4 4v16h16M7 17L19 5" />
      <circle cx="9" cy="13.5" r="1.3" />
      <circle cx="13" cy="11" r="1.3" />
      <circle cx="16.5" cy="7" r="1.3" />
    </LineIcon>
  );
}

/** The admins' audit log: a page with lines and a magnifier (who did what, searchable). */
export function AuditIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M14 20H6a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h9l4 4v4M8 8h6M8 12h4" />
      <circle cx="16.5" cy="16.5" r="3" />
      <path d="M18.7 18.7l2.3 2.3" />
    </LineIcon>
  );
}

export function LogoutIcon(props: IconProps) {
  return (
    <LineIcon {...props}>
      <path d="M10 4H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h4M21 12H10M17 8l4 4-4 4" />
    </LineIcon>
  );
}
