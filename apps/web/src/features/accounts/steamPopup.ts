/**
 * The Steam popup flow (docs/contract.md §4 game-platform login): open GET /api/steam in a popup (600 wide,
 * at least 630 high), wait for its `postMessage`, accepted only from our own origin (and only
 * from the popup we opened), then log in or link with the signed ticket.
 */
import {
  type Profile,
  type SessionResponse,
  STEAM_MESSAGE_TYPE,
  steamPopupMessageSchema,
} from '@openpug/shared';
import { api } from '../api';
import { setErrorMessage, setLoading } from '../app-state';
import { openGameLoginPopup, updateSessionUser } from '../session';
import { requestSession } from './sessionRules';

export class SteamPopupError extends Error {
  constructor(readonly key: string) {
    super(key);
  }
}

/**
 * Shows what went wrong with the popup. API failures were already reported by the API client, and
 * a closed popup is the player's choice: both stay silent.
 */
export function reportSteamPopupError(err: unknown): void {
  if (!(err instanceof SteamPopupError) || err.key === 'POPUP_CLOSED') return;
  setErrorMessage(err.key === 'POPUP_BLOCKED' ? 'accounts.steam.popupBlocked' : err.key);
}

/** Resolves with the ticket the popup posts; rejects when it reports an error or closes without one. */
export function waitForSteamTicket(
  popup: Window | null,
  target: Window = window,
  origin: string = window.location.origin,
): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!popup) {
      reject(new SteamPopupError('POPUP_BLOCKED'));
      return;
    }
    const done = () => {
      target.removeEventListener('message', onMessage);
      clearInterval(closedCheck);
    };
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== origin) return;
      if (event.source !== null && event.source !== popup) return;
      const parsed = steamPopupMessageSchema.safeParse(event.data);
      if (!parsed.success || parsed.data.type !== STEAM_MESSAGE_TYPE) return;
      done();
      if (parsed.data.steamId) resolve(parsed.data.steamId);
      else reject(new SteamPopupError(parsed.data.error ?? 'BAD_TOKEN'));
    };
    // The user closed the popup: stop waiting (a message sent just before closing still wins).
    const closedCheck = setInterval(() => {
      if (popup.closed) {
        setTimeout(() => {
          done();
          reject(new SteamPopupError('POPUP_CLOSED'));
        }, 500);
        clearInterval(closedCheck);
      }
    }, 500);
    target.addEventListener('message', onMessage);
  });
}

/** Log in (or sign up) with Steam. Resolves with the session answer; the name dialog follows if needed. */
export async function steamLogin(): Promise<SessionResponse> {
  const ticket = await waitForSteamTicket(openGameLoginPopup());
  return requestSession('/steam/login', { steamId: ticket });
}

/** Link Steam to the logged-in account; the stored user gets the Steam fields. */
export async function steamLink(): Promise<Profile> {
  const ticket = await waitForSteamTicket(openGameLoginPopup());
  setLoading(true);
  const profile = await api.post<Profile>('/steam', { steamId: ticket });
  setLoading(false);
  updateSessionUser(profile as unknown as Record<string, unknown>);
  return profile;
}
