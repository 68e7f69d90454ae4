/**
 * Recovery from a new deployment under an open tab. Screens and features are lazy chunks with
 * hashed names; after a deploy the old names answer 404, and the tab could not open another screen
 * until the player reloaded by hand. When a chunk fails to load, the tab asks /version.json: if a
 * newer build is deployed it reloads once into it, on the same URL (or the one being opened), so
 * the player stays where they were or goes where they were going (the match room's URL; the queue
 * place is kept by the server across a reload, and the widget restores it). It reloads at most once per deployed version (remembered for the tab), so a
 * chunk that is really missing cannot loop; then the error is shown as before (Reload screen).
 */
import { APP_VERSION, fetchDeployedVersion, isNewerVersion } from './versionCheck';

export const RELOADED_FOR_KEY = 'reloadedForVersion';

export interface ChunkRecoveryDeps {
  storage: Pick<Storage, 'getItem' | 'setItem'>;
  fetchVersion: () => Promise<string>;
  reload: () => void;
  runningVersion: string;
}

/** The URL a navigation in progress is opening, if any (the router's, set by app/router.ts). */
let pendingUrl: () => string | null = () => null;

/**
 * Names where a reload should land while a navigation is under way: a chunk of the screen being
 * opened failed, and that screen is where the player was going. Several failures of one
 * navigation (the screen's script and its CSS) race to reload; the page they land on must not
 * depend on which came first, nor on whether the router had committed the URL yet.
 */
export function reloadIntoPendingNavigation(url: () => string | null): void {
  pendingUrl = url;
}

function reloadHere(): void {
  const target = pendingUrl();
  if (target) location.assign(target);
  else location.reload();
}

const defaultDeps = (): ChunkRecoveryDeps => ({
  storage: sessionStorage,
  fetchVersion: fetchDeployedVersion,
  reload: reloadHere,
  runningVersion: APP_VERSION,
});

/** Whether the failure was handled by reloading into a newer build. */
export async function reloadIfNewerBuild(deps: Partial<ChunkRecoveryDeps> = {}): Promise<boolean> {
  const { storage, fetchVersion, reload, runningVersion } = { ...defaultDeps(), ...deps };
  let deployed: string;
  try {
    deployed = await fetchVersion();
  } catch {
    return false; // offline: the chunk error stands
  }
  if (!isNewerVersion(deployed, runningVersion)) return false;
  if (storage.getItem(RELOADED_FOR_KEY) === deployed) return false;
  storage.setItem(RELOADED_FOR_KEY, deployed);
  reload();
  return true;
}

/**
 * Loads a chunk; when that fails because a newer build replaced it, reloads the tab into the new
 * build (the returned promise then never settles, so nothing flashes an error meanwhile).
 */
export async function loadChunk<T>(load: () => Promise<T>, deps?: Partial<ChunkRecoveryDeps>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (await reloadIfNewerBuild(deps)) return new Promise<T>(() => {});
    throw error;
  }
}

/** Vite reports a failed preload of a chunk's dependencies (JS or CSS) with this event. */
export function recoverFromPreloadErrors(target: Pick<Window, 'addEventListener'> = window): void {
  target.addEventListener('vite:preloadError', (event) => {
    event.preventDefault(); // handled here instead of as an unhandled rejection
    void reloadIfNewerBuild();
  });
}
