import { STEAM_POPUP } from '@openpug/shared';

/**
 * Opens the game-platform login popup (docs/contract.md §4: 600 wide, at least 630 high). The accounts feature
 * listens for the popup's message and completes the login with `saveSession`.
 */
export function openGameLoginPopup(): Window | null {
  const height = Math.max(STEAM_POPUP.minHeight, Math.round(window.innerHeight * 0.8));
  const left = Math.round(window.screenX + (window.outerWidth - STEAM_POPUP.width) / 2);
  const top = Math.round(window.screenY + (window.outerHeight - height) / 2);
  return window.open(
    '/api/steam',
    'openpug-login',
    `width=${STEAM_POPUP.width},height=${height},left=${left},top=${top}`,
  );
}
