/**
 * Update check (docs/contract.md §4 App update): when the stored next-check time is due, fetch /version.json,
 * set the next check 120 minutes ahead, and reload when the deployed version is newer than the one
 * this tab runs. The next time is stored before reloading so a reload can never loop.
 */
import { compareVersions, UPDATE_CHECK_INTERVAL_MINUTES } from '@openpug/shared';

export const NEXT_VERSION_CHECK_KEY = 'nextVersionCheck';
export const APP_VERSION = __APP_VERSION__;

export function isVersionCheckDue(storedNextCheck: string | null, now: number): boolean {
  const next = Number(storedNextCheck);
  return storedNextCheck === null || !Number.isFinite(next) || now >= next;
}

export function isNewerVersion(deployed: string, running: string): boolean {
  return compareVersions(deployed, running) > 0;
}

export async function fetchDeployedVersion(): Promise<string> {
  // Plain fetch, no token: the version file is public and must bypass every cache.
  const response = await fetch('/version.json', {
    cache: 'no-store',
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`version.json answered ${response.status}`);
  // A hand check rather than the shared zod schema: zod must not be part of the first load.
  const body = (await response.json()) as { version?: unknown };
  if (typeof body?.version !== 'string') throw new Error('version.json has no version');
  return body.version;
}

export interface VersionCheckDeps {
  storage: Storage;
  now: () => number;
  fetchVersion: () => Promise<string>;
  reload: () => void;
  runningVersion: string;
}

const defaultDeps = (): VersionCheckDeps => ({
  storage: localStorage,
  now: Date.now,
  fetchVersion: fetchDeployedVersion,
  reload: () => location.reload(),
  runningVersion: APP_VERSION,
});

/** Returns whether a check ran. A failed fetch is ignored: a background check must not bother the user. */
export async function checkVersionWhenDue(deps: Partial<VersionCheckDeps> = {}): Promise<boolean> {
  const { storage, now, fetchVersion, reload, runningVersion } = { ...defaultDeps(), ...deps };
  if (!isVersionCheckDue(storage.getItem(NEXT_VERSION_CHECK_KEY), now())) return false;
  storage.setItem(NEXT_VERSION_CHECK_KEY, String(now() + UPDATE_CHECK_INTERVAL_MINUTES * 60_000));
  try {
    const deployed = await fetchVersion();
    if (isNewerVersion(deployed, runningVersion)) reload();
  } catch {
    // Offline or an old server without the file: try again at the next due time.
  }
  return true;
}
