/**
 * Arena servers (docs/contract.md §3 "In Arena"): an admin adds a warm-up server through the admin
 * API — a fake CS2 server started in this test process (the one the server tests use, answering
 * RCON `status_json` like CS2), on loopback: RCON is plain TCP, not one of the HTTP requests
 * OUTBOUND_ALLOW governs. A player signed in with Steam joins it; a friend sees the server with
 * its player count and a connect link on the home screen, and the player "In the arena" in the
 * friends sidebar until they leave. With SHOTS_DIR set it also takes the admin page and the list
 * in en and de at desktop width and 390 px.
 */
import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { FakeMatchzyServer } from '../apps/server/src/modules/gameservers/testing/fake-matchzy';
import { steamLogInInBrowser } from './helpers/accounts';
import { adminLogin } from './helpers/competition';
import { befriend, openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const RCON_PASSWORD = 'e2e-arena';
const shotsDir = process.env.SHOTS_DIR;
const sidebar = (page: Page) => page.getByTestId('friends-sidebar').first();
const friendItem = (page: Page, name: string) =>
  sidebar(page).locator(`[data-testid="friend-item"][data-name="${name}"]`);

/** The e2e server's admin (ADMIN_EMAILS): signed up once per server run, logged in after that. */
async function adminSession(request: APIRequestContext): Promise<Player['session']> {
  const password = 'secret-pass-1';
  const session = await adminLogin(request, `Admin${Date.now().toString(36)}`, password);
  expect(session.user?.role).toBe('ADMIN');
  return session;
}

/** A player who signed in with Steam (the dev identity page) as `steamId`, named `name`. */
async function steamPlayer(browser: Browser, request: APIRequestContext, steamId: string, name: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await steamLogInInBrowser(page, steamId);
  const stored = await page.evaluate(() => ({
    token: localStorage.getItem('token') ?? '',
    user: JSON.parse(localStorage.getItem('user') ?? '{}') as { _id: string },
  }));
  const renamed = await request.patch('/api/profile', {
    data: { name },
    headers: { Authorization: `Bearer ${stored.token}` },
  });
  expect(renamed.status()).toBe(200);
  await context.close();
  return { id: stored.user._id, name, token: stored.token } as Player;
}

test('a friend on an arena server shows "In the arena"; the list links to the server', async ({
  browser,
  request,
}) => {
  test.setTimeout(allow(90_000));
  const fake = await new FakeMatchzyServer(RCON_PASSWORD).listen();
  const admin = await adminSession(request);
  const auth = { Authorization: `Bearer ${admin.token}` };
  const created = await request.post('/api/admin/arena', {
    headers: auth,
    data: {
      name: 'Deathmatch EU',
      address: '203.0.113.7:27015',
      rconAddress: fake.address,
      rconPassword: RCON_PASSWORD,
    },
  });
  expect(created.status()).toBe(201);
  const serverId = (await created.json())._id;
  try {
    // An individual SteamID64 (76561197960265728 + account id), as CS2's status_json lists it.
    const steamId = String(76561197960265728n + BigInt(Date.now() % 1_000_000_000));
    const arenaName = `Arena${Date.now().toString(36)}`;
    const inArena = await steamPlayer(browser, request, steamId, arenaName);
    const friend = await signUpPlayer(request, 'ArenaFriend');
    await befriend(request, inArena, friend);

    const { context, page } = await openAs(browser, friend);
    await page.goto('/home');
    const list = page.getByTestId('arena-list');
    const row = list.getByTestId('arena-server').filter({ hasText: 'Deathmatch EU' });
    await expect(row).toBeVisible();

    fake.connect(steamId);
    // The next poll (ARENA_POLL_MS) finds the player; presence pushes the status to the friend.
    await expect(friendItem(page, arenaName).getByText('In the arena')).toBeVisible({
      timeout: allow(30_000),
    });
    await expect(friendItem(page, arenaName).getByRole('img', { name: 'In the arena' })).toBeVisible();
    await expect(row.getByTestId('arena-players')).toHaveText('1 player', { timeout: allow(30_000) });
    await expect(row.getByRole('link', { name: 'Connect' })).toHaveAttribute(
      'href',
      'steam://connect/203.0.113.7:27015',
    );

    fake.disconnect(steamId);
    await expect(friendItem(page, arenaName).getByText('In the arena')).toHaveCount(0, {
      timeout: allow(30_000),
    });
    await context.close();

    if (shotsDir) {
      fake.connect(steamId);
      await expect
        .poll(async () => (await (await request.get('/api/admin/arena', { headers: auth })).json()).servers, {
          timeout: allow(30_000),
        })
        .toContainEqual(expect.objectContaining({ _id: serverId, players: 1 }));
      const adminPlayer = { ...friend, session: admin };
      for (const locale of ['en', 'de'])
        for (const [label, viewport] of [
          ['desktop', { width: 1400, height: 900 }],
          ['390', { width: 390, height: 844 }],
        ] as const) {
          const shot = await openAs(browser, friend, { locale, viewport });
          await shot.page.goto('/home');
          await expect(shot.page.getByTestId('arena-server').first()).toBeVisible();
          await shot.page.screenshot({
            path: `${shotsDir}/arena-list-${locale}-${label}.png`,
            fullPage: true,
          });
          await shot.context.close();
          const adm = await openAs(browser, adminPlayer, { locale, viewport });
          await adm.page.goto('/admin/arena');
          await expect(adm.page.getByTestId('arena-admin-row').first()).toBeVisible();
          await adm.page.screenshot({
            path: `${shotsDir}/admin-arena-${locale}-${label}.png`,
            fullPage: true,
          });
          await adm.page.getByTestId('arena-add').click();
          await adm.page.getByTestId('arena-field-address').fill('not an address');
          await adm.page.getByTestId('arena-save').click();
          await adm.page.screenshot({ path: `${shotsDir}/admin-arena-dialog-${locale}-${label}.png` });
          await adm.context.close();
        }
    }
  } finally {
    await request.delete(`/api/admin/arena/${serverId}`, { headers: auth });
    await fake.close();
  }
});
