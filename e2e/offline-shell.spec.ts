/**
 * The service worker's shell precache (performance issue target 1): the worker's list is exactly
 * the build's landing route (index.html, the entry, the landing screen and English texts with
 * their static imports and CSS, from dist/.vite/manifest.json), and once the worker is installed
 * the landing page opens without a network, from the cache.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { graphFromManifest, shellFiles } from '../apps/web/src/serviceWorker/shellPrecache';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');

test("the worker's precache list is the build's landing route", async ({ request }) => {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const worker = await (await request.get('/sw.js')).text();
  const shell = JSON.parse(/^self\.__OPENPUG_SHELL__ = (.*);$/m.exec(worker)?.[1] ?? 'null');
  expect(shell.files).toEqual(shellFiles(graphFromManifest(manifest)));
  expect(shell.files).toContain('/index.html');
  expect(shell.files.filter((f: string) => f.endsWith('.css')).length).toBeGreaterThan(0);
  // The build's version.json and the worker agree: a new deploy is a new worker (and cache).
  const { version } = JSON.parse(readFileSync(path.join(dist, 'version.json'), 'utf8'));
  expect(shell.version).toBe(version);
});

test('after one visit the landing page opens offline from the precached shell', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto('/');
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText('Queue up. Draft teams. Climb the ladder.');
    // Installed (the shell is in its cache) and controlling this page.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
      if (!navigator.serviceWorker.controller)
        await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve));
    });
    const cached = await page.evaluate(async () => {
      const names = await caches.keys();
      const cache = await caches.open(names.find((n) => n.startsWith('openpug-shell-')) as string);
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    });
    expect(cached).toContain('/index.html');

    await context.setOffline(true);
    const fromWorker: string[] = [];
    page.on('response', (response) => {
      if (response.fromServiceWorker()) fromWorker.push(new URL(response.url()).pathname);
    });
    const reload = await page.reload();
    expect(reload?.fromServiceWorker()).toBe(true);
    await expect(heading).toHaveText('Queue up. Draft teams. Climb the ladder.');
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Leaderboard' })).toBeVisible();
    // The entry script and the landing screen came from the worker, without a network.
    const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
    const entry = Object.values<{ file: string; isEntry?: boolean }>(manifest).find((c) => c.isEntry);
    const landing = manifest['src/screens/landing/index.ts'];
    expect(fromWorker).toEqual(expect.arrayContaining([`/${entry?.file}`, `/${landing.file}`]));
    // A screen never opened gets the shell offline too (its own chunk is not precached): the app's
    // Reload screen, not the browser's offline error.
    const other = await page.goto('/leaderboard');
    expect(other?.fromServiceWorker()).toBe(true);
    await expect(page.getByRole('heading', { name: 'This page could not be loaded' })).toBeVisible();
  } finally {
    await context.close();
  }
});
