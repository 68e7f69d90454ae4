/* openpug service worker, served as /sw.js with scope / (the build prepends this build's shell
 * list, see apps/web/src/serviceWorker/plugin.ts; the dev server serves it without one).
 *
 * - Shell: index.html and the landing route's hashed JS/CSS are precached at install, so the
 *   app opens without a network. Hashed assets are answered cache-first (their names change with
 *   their content); a page load goes to the network first and falls back to the cached index.html
 *   only when the network fails, so a new deploy is picked up on the next load exactly as before
 *   (version.json, chunk recovery: docs/contract.md §4 App update). Each build's worker differs
 *   (its version is in the list), so the browser installs it, and activation deletes the old
 *   build's cache.
 * - Pushes of the phone queue app (/m): 'game found' notifications that open the app on tap, and
 *   queue alerts ('notify me at N/10') whose tap opens /m?queue=join, which joins the queue.
 * API, socket, Matrix and version.json requests are never touched: live data is never cached. */
const SHELL = self.__OPENPUG_SHELL__ ?? { version: 'dev', files: [] };
const CACHE_PREFIX = 'openpug-shell-';
const CACHE = `${CACHE_PREFIX}${SHELL.version}`;
const SHELL_PAGE = '/index.html';
/** Page loads the server answers itself (Steam login popup, Matrix well-known): never the shell. */
const NOT_APP_PAGES = ['/api/', '/api', '/socket', '/_matrix/', '/_synapse/', '/.well-known/'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      // index.html is revalidated (no-cache) so the shell is this build's, not an HTTP-cached one.
      await cache.addAll(SHELL.files.map((url) => new Request(url, { cache: 'no-cache' })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names
          .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
          .map((name) => caches.delete(name)),
      );
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || request.headers.has('range')) return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === 'navigate') {
    if (NOT_APP_PAGES.some((p) => url.pathname === p || url.pathname.startsWith(p))) return;
    event.respondWith(networkFirstPage(request));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirstAsset(event, request));
  }
});

async function networkFirstPage(request) {
  try {
    return await fetch(request);
  } catch (error) {
    const shell = await caches.match(SHELL_PAGE, { cacheName: CACHE });
    if (shell) return shell;
    throw error;
  }
}

/** Hashed names never change content: a cached copy is always right; others are kept once fetched. */
async function cacheFirstAsset(event, request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok && response.type === 'basic') event.waitUntil(cache.put(request, response.clone()));
  return response;
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { body: event.data ? event.data.text() : '' };
  }
  const title = data.title || 'openpug';
  const alert = data.type === 'queue-alert';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: data.body || '',
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      // A queue alert must not replace a 'game found' still on screen, nor wait forever.
      tag: alert ? 'openpug-queue-alert' : 'openpug-game-found',
      renotify: true,
      requireInteraction: !alert,
      vibrate: alert ? [200] : [200, 100, 200, 100, 400],
      data: { url: data.url || '/m' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/m', self.location.origin);
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((clients) => {
      const open = clients.find((c) => c.url.startsWith(`${self.location.origin}/m`) && 'focus' in c);
      if (!open) return self.clients.openWindow(url.href);
      // An open phone app: a link with a request in it (?queue=join) is loaded there, then shown.
      // navigate() refuses a page this worker does not control: open the link in a new window then.
      if (url.search && 'navigate' in open)
        return open
          .navigate(url.href)
          .then((c) => (c ?? open).focus())
          .catch(() => self.clients.openWindow(url.href));
      return open.focus();
    }),
  );
});
