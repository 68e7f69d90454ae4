/**
 * Session rules of docs/contract.md §4 that belong to the accounts feature (first-paint safe: no MUI, no zod):
 *
 * - `completeLogin(response)`: stores user, token, matrix and the token expiry (login, Steam login,
 *   sign-up); the socket module connects and authenticates by itself when the token appears.
 * - A periodic check refreshes the token (`GET /api/token`) when the stored expiry is near or past.
 * - Auto login refreshes the stored user from `GET /api/profile`.
 * - `privateUserUpdate` (live, own sockets) merges the changed fields into the stored user.
 * - `PRIVATE_MATCH_RESULT` stores the new Elo at once, re-reads the profile for the new rank and
 *   drops cached cards, rankings and match lists, so no screen keeps the Elo from login.
 * - `PRIVATE_ELO_CORRECTED` (an admin corrected or voided a match of ours) does the same, without
 *   the result dialog.
 * - When the session ends (logout button, any 401) the app goes to the login route; the socket
 *   module sends `logout` and disconnects.
 */
import type { MatchResultPayload, ProfilePatchEvent, SessionResponse, TokenResponse } from '@openpug/shared';
import { api, queryClient, type RequestOptions } from '../api';
import { setLoading } from '../app-state';
import { type SessionUser, saveSession, updateSessionUser, useSession } from '../session';
import { onServerEvents, useSocketState } from '../socket';

/** Where a logged-out user is sent (the login screen). */
export const LOGIN_PATH = '/login';
export const SIGNUP_PATH = '/signup';

/** How often the expiry is checked, and how long before the expiry the token is renewed. */
export const TOKEN_CHECK_INTERVAL_MS = 60_000;
export const TOKEN_REFRESH_MARGIN_MS = 10 * 60_000;

/** Stores a fresh login (e-mail, Steam or sign-up answer). */
export function completeLogin(
  response: Pick<SessionResponse, 'user' | 'token' | 'expiresAt' | 'matrix'>,
): void {
  saveSession({
    token: response.token,
    user: response.user as unknown as SessionUser,
    matrix: (response.matrix ?? null) as Record<string, unknown> | null,
    expiry: String(response.expiresAt),
  });
}

/**
 * Posts an e-mail login, a sign-up or a Steam login and stores the session it answers with. A
 * refusal rejects; the API client has then cleared the loading dialog and shows the error key.
 */
export async function requestSession(
  path: '/login' | '/register' | '/steam/login',
  body: unknown,
  options?: RequestOptions,
): Promise<SessionResponse> {
  setLoading(true);
  const response = await api.post<SessionResponse>(path, body, options);
  setLoading(false);
  completeLogin(response);
  return response;
}

/** Whether the stored expiry is within the margin (or past, or unreadable). */
export function tokenNeedsRefresh(
  expiry: string | null,
  now: number,
  margin = TOKEN_REFRESH_MARGIN_MS,
): boolean {
  if (expiry === null) return true;
  const at = Number(expiry);
  if (!Number.isFinite(at)) return true;
  return at - now <= margin;
}

let refreshing: Promise<void> | null = null;

/** Refreshes the token when due. A 401 logs out (api wrapper); other failures wait for the next check. */
export function refreshTokenIfDue(now = Date.now()): Promise<void> {
  const { token, expiry } = useSession.getState();
  if (!token || !tokenNeedsRefresh(expiry, now)) return Promise.resolve();
  refreshing ??= api
    .get<TokenResponse>('/token', { silent: true })
    .then((fresh) => {
      // Logged out (or in as someone else) while the call was under way: keep what is there now.
      if (useSession.getState().token !== token) return;
      saveSession({ token: fresh.token, expiry: String(fresh.expiresAt) });
    })
    .catch(() => undefined)
    .finally(() => {
      refreshing = null;
    });
  return refreshing;
}

/** Auto login: the stored user may be stale (another device changed it); fetch the current one. */
export async function refreshProfile(): Promise<void> {
  if (!useSession.getState().token) return;
  try {
    const profile = await api.get<Record<string, unknown>>('/profile', { silent: true });
    updateSessionUser(profile as Partial<SessionUser>);
  } catch {
    // 401 already logged out; otherwise the stored user stays until the next start.
  }
}

/** The live private user update merges the changed fields into the stored user. */
export function mergeUserUpdate(patch: ProfilePatchEvent | Record<string, unknown>): void {
  updateSessionUser(patch as Partial<SessionUser>);
}

/** The own match result: the new Elo now, the new rank from the profile, and fresh lists. */
export function applyMatchResult(result: Pick<MatchResultPayload, 'newElo'>): Promise<void> {
  const { user } = useSession.getState();
  if (!user) return Promise.resolve();
  const stats = (user.stats ?? {}) as Record<string, unknown>;
  updateSessionUser({ stats: { ...stats, elo: result.newElo } });
  for (const queryKey of [['users'], ['ranking'], ['matches'], ['season']])
    void queryClient.invalidateQueries({ queryKey });
  return refreshProfile();
}

export interface SessionRulesDeps {
  /** Called when a session ends; the app navigates to the login route. */
  onLoggedOut: () => void;
  now?: () => number;
  setInterval?: (fn: () => void, ms: number) => unknown;
  clearInterval?: (handle: unknown) => void;
}

/** Starts the periodic refresh, the user-update merge and the logout redirect. Returns a stop function. */
export function startSessionRules(deps: SessionRulesDeps): () => void {
  const now = deps.now ?? Date.now;
  const every = deps.setInterval ?? ((fn, ms) => setInterval(fn, ms));
  const stopEvery = deps.clearInterval ?? ((h) => clearInterval(h as ReturnType<typeof setInterval>));

  if (useSession.getState().token) {
    void refreshTokenIfDue(now());
    void refreshProfile();
  }
  const timer = every(() => void refreshTokenIfDue(now()), TOKEN_CHECK_INTERVAL_MS);

  // A tab that slept past the expiry refreshes as soon as it is visible again.
  const onVisible = () => {
    if (document.visibilityState === 'visible') void refreshTokenIfDue(now());
  };
  document.addEventListener('visibilitychange', onVisible);

  let boundSocket: ReturnType<typeof useSocketState.getState>['socket'] = null;
  let unbind: () => void = () => undefined;
  const onResult = (result: Pick<MatchResultPayload, 'newElo'>) => void applyMatchResult(result);
  const bindSocket = (socket: typeof boundSocket) => {
    if (socket === boundSocket) return;
    unbind();
    boundSocket = socket;
    unbind = socket
      ? onServerEvents(socket, {
          privateUserUpdate: (patch) => mergeUserUpdate(patch),
          PRIVATE_MATCH_RESULT: onResult,
          PRIVATE_ELO_CORRECTED: onResult,
        })
      : () => undefined;
  };
  bindSocket(useSocketState.getState().socket);
  const unsubscribeSocket = useSocketState.subscribe((s) => bindSocket(s.socket));

  const unsubscribeSession = useSession.subscribe((state, previous) => {
    if (previous.isTokenSet && !state.isTokenSet) deps.onLoggedOut();
  });

  return () => {
    stopEvery(timer);
    document.removeEventListener('visibilitychange', onVisible);
    unsubscribeSocket();
    unsubscribeSession();
    bindSocket(null);
  };
}
