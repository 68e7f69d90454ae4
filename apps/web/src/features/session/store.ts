/**
 * The logged-in session: token, user record and messaging-server credentials, mirrored in
 * localStorage so a reload logs the user straight back in (docs/contract.md §3 Session, §4 Login and session).
 * The accounts feature calls `saveSession` after a successful login; everything else only reads.
 */
import type { Role } from '@openpug/shared';
import { create } from 'zustand';

/** The user record returned at login; later issues fill in more profile fields. */
export interface SessionUser {
  _id: string;
  name?: string;
  avatar?: string;
  verified?: boolean;
  role?: Role;
  unseenDropsCount?: number;
  status?: { match?: { active?: boolean; matchId?: string } };
  [field: string]: unknown;
}

/** Messaging-server credentials returned at login; their exact content is the chat feature's. */
export type MatrixCredentials = Record<string, unknown>;

export interface Session {
  token: string | null;
  isTokenSet: boolean;
  user: SessionUser | null;
  matrix: MatrixCredentials | null;
  /** Token expiry exactly as the server sent it. */
  expiry: string | null;
}

export const SESSION_STORAGE_KEYS = {
  token: 'token',
  expiry: 'expiry',
  user: 'user',
  matrix: 'matrix',
} as const;

const loggedOut: Session = { token: null, isTokenSet: false, user: null, matrix: null, expiry: null };

export const useSession = create<Session>(() => ({ ...loggedOut }));

function readJson<T>(storage: Storage, key: string): T | null {
  const raw = storage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    // A hand-edited or truncated entry must not break the start-up.
    return null;
  }
}

/** Auto login: restores token, user, matrix and expiry from storage. Returns whether a token was stored. */
export function restoreSession(storage: Storage = localStorage): boolean {
  const token = storage.getItem(SESSION_STORAGE_KEYS.token);
  if (!token) return false;
  useSession.setState({
    token,
    isTokenSet: true,
    user: readJson<SessionUser>(storage, SESSION_STORAGE_KEYS.user),
    matrix: readJson<MatrixCredentials>(storage, SESSION_STORAGE_KEYS.matrix),
    expiry: storage.getItem(SESSION_STORAGE_KEYS.expiry),
  });
  return true;
}

/** Stores a fresh login (or a refreshed token) and makes it the current session. */
export function saveSession(
  login: {
    token: string;
    user?: SessionUser | null;
    matrix?: MatrixCredentials | null;
    expiry?: string | null;
  },
  storage: Storage = localStorage,
): void {
  const current = useSession.getState();
  const next: Session = {
    token: login.token,
    isTokenSet: true,
    user: login.user === undefined ? current.user : login.user,
    matrix: login.matrix === undefined ? current.matrix : login.matrix,
    expiry: login.expiry === undefined ? current.expiry : login.expiry,
  };
  storage.setItem(SESSION_STORAGE_KEYS.token, next.token as string);
  writeOrRemove(storage, SESSION_STORAGE_KEYS.user, next.user && JSON.stringify(next.user));
  writeOrRemove(storage, SESSION_STORAGE_KEYS.matrix, next.matrix && JSON.stringify(next.matrix));
  writeOrRemove(storage, SESSION_STORAGE_KEYS.expiry, next.expiry);
  useSession.setState(next);
}

/** Merges changed fields into the user (e.g. the live private user update event) and stores it. */
export function updateSessionUser(changes: Partial<SessionUser>, storage: Storage = localStorage): void {
  const { user } = useSession.getState();
  if (!user) return;
  const merged = { ...user, ...changes };
  storage.setItem(SESSION_STORAGE_KEYS.user, JSON.stringify(merged));
  useSession.setState({ user: merged });
}

/** Forgets the session everywhere. The socket module notices and sends `logout`. */
export function logout(storage: Storage = localStorage): void {
  for (const key of Object.values(SESSION_STORAGE_KEYS)) storage.removeItem(key);
  useSession.setState({ ...loggedOut });
}

/**
 * The server refused `sentToken` (401, or `unauthorized` on the socket): the session was revoked
 * (docs/contract.md §4). Signs out — unless the tab holds a newer token already (its own password
 * change), or another tab of this browser stored a fresh sign-in, which this tab then takes over.
 */
export function endRevokedSession(sentToken: string | null, storage: Storage = localStorage): void {
  if (useSession.getState().token !== sentToken) return;
  const stored = storage.getItem(SESSION_STORAGE_KEYS.token);
  if (stored && stored !== sentToken) restoreSession(storage);
  else logout(storage);
}

function writeOrRemove(storage: Storage, key: string, value: string | null | undefined): void {
  if (value === null || value === undefined) storage.removeItem(key);
  else storage.setItem(key, value);
}
