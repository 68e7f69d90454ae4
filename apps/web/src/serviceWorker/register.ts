/**
 * Registers /sw.js with scope / (apps/web/src/serviceWorker/sw.js): the shell precache for the
 * whole app and the phone app's pushes (features/mobile/push.ts) share this one registration.
 */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (!('serviceWorker' in navigator)) return null;
  try {
    return await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  } catch {
    return null;
  }
}

/** After the page's load, so the worker's install (the shell download) never competes with the first paint. */
export function registerServiceWorkerAfterLoad(doc: Document = document, win: Window = window): void {
  if (doc.readyState === 'complete') void registerServiceWorker();
  else win.addEventListener('load', () => void registerServiceWorker(), { once: true });
}
