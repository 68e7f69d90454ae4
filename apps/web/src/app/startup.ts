/**
 * Start-up order of docs/contract.md §2: the locale first (texts must be right from the first paint), then
 * the auto login from a stored token, then the version check when it is due. The check runs in
 * the background; the app renders without waiting for it.
 */
import { initLocale } from '../features/locale/locale';
import { restoreSession } from '../features/session/store';
import { startSocketSync } from '../features/socket/socket';
import { checkVersionWhenDue } from './versionCheck';

export interface StartupSteps {
  initLocale: () => Promise<unknown>;
  autoLogin: () => unknown;
  checkVersion: () => Promise<unknown>;
}

const appSteps: StartupSteps = {
  initLocale: () => initLocale(),
  autoLogin: () => {
    restoreSession();
    // Connects now if a token was restored, and later on every login.
    startSocketSync();
  },
  checkVersion: () => checkVersionWhenDue(),
};

export async function runStartup(steps: StartupSteps = appSteps): Promise<void> {
  await steps.initLocale();
  steps.autoLogin();
  void steps.checkVersion();
}
