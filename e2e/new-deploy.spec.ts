/**
 * A new deploy under an open tab (issue 17 item 13, docs/contract.md §4 App update). The journey
 * runs its own server (e2e/serve-built.mjs on port E2E_PORT + 5) on a copy of the web build and a
 * kept data directory. A player queues in a browser tab. Then the "deploy": the server stops and
 * starts again on the same data with a new build — every hashed JS/CSS chunk renamed (so the old
 * names answer 404, as after a real deploy) and a newer version in version.json and in the code.
 * The open tab then opens a screen it has not loaded yet: the chunk fails, the app asks
 * version.json, reloads once into the new build on the same URL, and the player is still queued.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { linkVoiceByApi, signUpByApi, storeSession } from './helpers/accounts';
import { allow } from './helpers/time';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const port = Number(process.env.E2E_PORT ?? 3100) + 5;
const url = `http://localhost:${port}`;
const sourceDist = process.env.E2E_WEB_DIST ?? path.join(root, 'apps/web/dist');

const TEXT_FILE = /\.(js|css|html|json|webmanifest|map)$/;

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allFiles(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

/**
 * Turns a copy of the build into "the next build": every hashed chunk under assets/ gets a new
 * name (references rewritten everywhere), the version is raised everywhere it is written (the
 * code's __APP_VERSION__, version.json, the service worker's shell list), and the precompressed
 * copies are dropped (they would still hold the old texts).
 */
function makeNextBuild(dir: string): {
  oldVersion: string;
  newVersion: string;
  renamed: Map<string, string>;
} {
  const oldVersion = (JSON.parse(readFileSync(path.join(dir, 'version.json'), 'utf8')) as { version: string })
    .version;
  const parts = oldVersion.split('.');
  parts[parts.length - 1] = String(Number(parts[parts.length - 1]) + 1000);
  const newVersion = parts.join('.');
  for (const file of allFiles(dir)) if (/\.(br|gz)$/.test(file)) rmSync(file);
  const assets = path.join(dir, 'assets');
  const renamed = new Map<string, string>();
  for (const name of readdirSync(assets)) {
    const m = name.match(/^(.*)-([A-Za-z0-9_-]{8})\.(js|css)$/);
    if (!m) continue;
    const next = `${m[1]}-${m[2]}x2.${m[3]}`;
    renameSync(path.join(assets, name), path.join(assets, next));
    renamed.set(name, next);
  }
  for (const file of allFiles(dir)) {
    if (!TEXT_FILE.test(file)) continue;
    let text = readFileSync(file, 'utf8');
    for (const [from, to] of renamed) text = text.split(from).join(to);
    text = text.split(oldVersion).join(newVersion);
    writeFileSync(file, text);
  }
  return { oldVersion, newVersion, renamed };
}

/** Starts e2e/serve-built.mjs on `webDist` and `dataDir`; resolves once it answers its health check. */
async function startServer(webDist: string, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.join(root, 'e2e/serve-built.mjs')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, E2E_PORT: String(port), E2E_WEB_DIST: webDist, E2E_DATA_DIR: dataDir },
  });
  await expect
    .poll(
      () =>
        fetch(`${url}/api/health`).then(
          (r) => r.ok,
          () => false,
        ),
      { timeout: allow(90_000), intervals: [500] },
    )
    .toBe(true);
  return child;
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

test('a deploy under an open tab: a failed chunk reloads once into the new build, and the player stays queued', async ({
  browser,
  playwright,
}) => {
  test.setTimeout(allow(240_000));
  const work = mkdtempSync(path.join(tmpdir(), 'openpug-deploy-'));
  const oldDist = path.join(work, 'old');
  const newDist = path.join(work, 'new');
  const dataDir = path.join(work, 'data');
  cpSync(sourceDist, oldDist, { recursive: true });
  cpSync(sourceDist, newDist, { recursive: true });
  const { oldVersion, newVersion, renamed } = makeNextBuild(newDist);
  const leaderboardChunk = [...renamed.keys()].find((n) => n.startsWith('leaderboard-') && n.endsWith('.js'));
  expect(leaderboardChunk, 'the leaderboard screen is a chunk of its own').toBeTruthy();

  let server = await startServer(oldDist, dataDir);
  const request = await playwright.request.newContext({ baseURL: url });
  const context = await browser.newContext({ baseURL: url, viewport: { width: 1400, height: 900 } });
  try {
    const player = await signUpByApi(request);
    await linkVoiceByApi(request, player.token);
    const page = await context.newPage();
    await storeSession(page, player);
    await page.goto('/home');
    const widget = page.getByTestId('queue-widget');
    await widget.getByRole('button', { name: 'Play' }).click();
    await expect(widget.getByTestId('queue-elapsed')).toBeVisible();
    expect(await page.evaluate(() => sessionStorage.getItem('reloadedForVersion'))).toBeNull();
    const leaderboardRequests: { url: string; status: number }[] = [];
    page.on('response', (r) => {
      // The screen's script (its CSS is a leaderboard-*.css of its own).
      if (r.url().includes('/assets/leaderboard-') && r.url().endsWith('.js'))
        leaderboardRequests.push({ url: r.url(), status: r.status() });
    });

    // ---- the deploy: the same data, the next build ----
    await stopServer(server);
    server = await startServer(newDist, dataDir);
    expect(((await (await request.get('/version.json')).json()) as { version: string }).version).toBe(
      newVersion,
    );
    // The tab's socket is back (its status line says so again) before the player moves on.
    await expect(widget.getByTestId('queue-elapsed')).toBeVisible();

    // ---- the open tab opens a screen it has not loaded: the old chunk is gone ----
    const reloaded = page.waitForEvent('load');
    await page.getByRole('navigation').getByRole('link', { name: 'Leaderboard' }).click();
    await reloaded;
    await expect(page).toHaveURL(/\/leaderboard$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeVisible();
    // It asked for the old name (404: the import, and its preload when the screen has CSS to
    // preload beside it), then, after one reload, for the new build's (200) once.
    const last = leaderboardRequests.at(-1);
    const before = leaderboardRequests.slice(0, -1);
    expect(before.length).toBeGreaterThan(0);
    for (const r of before)
      expect([r.status, r.url]).toEqual([404, expect.stringContaining(`/assets/${leaderboardChunk}`)]);
    expect(last?.status).toBe(200);
    expect(last?.url).toContain(`/assets/${renamed.get(leaderboardChunk as string)}`);
    expect(await page.evaluate(() => sessionStorage.getItem('reloadedForVersion'))).toBe(newVersion);
    const entry = await page.evaluate(() =>
      document.querySelector('script[type="module"]')?.getAttribute('src'),
    );
    expect(entry).toMatch(/x2\.js$/);
    expect(oldVersion).not.toBe(newVersion);

    // ---- the player's place: still queued, in the widget and on the server ----
    await expect(widget.getByTestId('queue-elapsed')).toBeVisible();
    await expect(widget.getByRole('button', { name: 'Leave' })).toBeVisible();
    const queue = await request.get('/api/queue', { headers: { Authorization: `Bearer ${player.token}` } });
    expect(queue.ok()).toBe(true);
    expect(await queue.json()).toMatchObject({ inQueue: true });
    await widget.getByRole('button', { name: 'Leave' }).click();
    await expect(widget.getByRole('button', { name: 'Play' })).toBeVisible();
  } finally {
    await context.close();
    await request.dispose();
    await stopServer(server);
    rmSync(work, { recursive: true, force: true });
  }
});
