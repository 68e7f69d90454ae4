/** Business constants of docs/contract.md §9. Server and web read them from here and nowhere else. */

export const PLAYERS_PER_MATCH = 10;
export const ACCEPT_COUNTDOWN_MS = 30_000;
export const TIMEOUT_DIALOG_CLOSE_MS = 8_000;
export const VOICE_USER_LIST_REFRESH_MS = 5_000;
export const VOICE_LINK_CODE_LENGTH = 4;
export const ELO_WIN = 12;
export const ELO_LOSS = 10;
export const ELO_DEFAULT = 200;
/** Elo counts only for players on the server for at least this share of a match's rounds. */
export const RATED_PRESENCE_SHARE = 0.8;
/** The reliability score looks at a player's last this many matches (and missed accept phases). */
export const RELIABILITY_MATCHES = 50;
export const DEFAULT_SOUND = 'retro.mp3';
export const DEFAULT_BANNER = 'ezpug';
export const LOCALES = ['en', 'de'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';
/** Token validity in minutes (24 hours). */
export const TOKEN_VALIDITY_MINUTES = 1440;
/** Minutes until the next check of /version.json. */
export const UPDATE_CHECK_INTERVAL_MINUTES = 120;
/** The Socket.IO endpoint (docs/contract.md §7). */
export const SOCKET_PATH = '/socket';
export const MIN_PASSWORD_LENGTH = 5;
export const RELOAD_AFTER_VOICE_UNLINK_MS = 1_500;
export const DEFAULT_SUCCESS_TIMEOUT_MS = 6_000;
export const DROP_TOAST_MS = 6_500;
export const STEAM_POPUP = { width: 600, minHeight: 630 } as const;
export const QR_CODE_SIZE_PX = 200;
export const CHAT_WINDOW = { width: 400, height: 360, minWidth: 300, minHeight: 240 } as const;
export const CHAT_HISTORY_PAGE = 30;
export const CHAT_AUTOLOAD_TOP_PX = 400;
export const CHAT_AUTOSCROLL_BOTTOM_PX = 400;
export const TYPING_THROTTLE_MS = 2_000;
export const TYPING_SERVER_TIMEOUT_MS = 2_100;
export const READ_MARKER_INTERVAL_MS = 10_000;
export const ROOM_LOAD_RETRIES = 10;
export const ROOM_LOAD_RETRY_MS = 1_000;
export const TIMER_TICK_MS = 1_000;
export const IMAGE_ZOOM = { step: 0.25, min: 0.1, max: 10 } as const;
export const MIN_FRIEND_SEARCH_LENGTH = 1;
/** Chat desktop notifications: ignore events older than this. */
export const CHAT_NOTIFY_MAX_AGE_MS = 10_000;
/** Chat desktop notifications: ignore rooms with more members than this. */
export const CHAT_NOTIFY_MAX_MEMBERS = 2;
export const MATCH_PAGE_TITLE = 'Match Page';
/** Seconds before a countdown that the timer is highlighted. */
export const TIMER_HIGHLIGHT_SECONDS = 10;

export const ROLES = ['ADMIN', 'USER'] as const;
export type Role = (typeof ROLES)[number];
