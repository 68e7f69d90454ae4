import { expect, type Page, test } from '@playwright/test';
import { newPlayerData, signUpByApi } from './helpers/accounts';
import { openAs, signUpPlayer } from './helpers/social';

/** Relative luminance of a CSS `rgb(...)` colour, 0 (black) to 1 (white). */
function luminance(rgb: string): number {
  const [r, g, b] = (rgb.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

const navigation = (page: Page, name = 'Main navigation') => page.getByRole('navigation', { name });

test('the landing page renders with the dark theme', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Queue up. Draft teams. Climb the ladder.',
  );
  await expect(page.getByRole('heading', { name: 'Matches', level: 2 })).toBeVisible();
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(luminance(background)).toBeLessThan(0.05);
  const sidebar = await page
    .locator('aside')
    .first()
    .evaluate((el) => getComputedStyle(el).backgroundColor);
  expect(luminance(sidebar)).toBeLessThan(0.05);
  const text = await page.evaluate(() => getComputedStyle(document.body).color);
  expect(luminance(text)).toBeGreaterThan(0.6);
});

test('the logged-out sidebar shows Matches, Season 1, Leaderboard, Login and Notifications', async ({
  page,
}) => {
  await page.goto('/');
  await expect(navigation(page).getByRole('link')).toHaveText(['Matches', 'Season 1', 'Leaderboard']);
  await expect(page.getByRole('button', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Notifications' })).toBeVisible();
  await expect(page.getByRole('complementary', { name: 'Friends' })).toHaveCount(0);
});

test('/home logged out lands on /', async ({ page }) => {
  await page.goto('/home');
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('/nope shows 404 Page not found', async ({ page }) => {
  await page.goto('/nope');
  await expect(page.getByRole('heading', { name: '404 Page not found' })).toBeVisible();
});

test('switching to German changes the texts and survives a reload', async ({ page }) => {
  await page.goto('/');
  await expect(navigation(page).getByRole('link', { name: 'Leaderboard' })).toBeVisible();
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await expect(navigation(page, 'Hauptnavigation').getByRole('link', { name: 'Rangliste' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Anmelden' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  expect(await page.evaluate(() => localStorage.getItem('locale'))).toBe('de');

  await page.reload();
  await expect(navigation(page, 'Hauptnavigation').getByRole('link', { name: 'Rangliste' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Anstellen. Teams wählen. Aufsteigen.');
  await page.goto('/nope');
  await expect(page.getByRole('heading', { name: '404 Seite nicht gefunden' })).toBeVisible();
});

test.describe('at phone width (390x844)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const path of ['/', '/nope', '/leaderboard', '/season1']) {
    test(`${path} has no horizontal scroll`, async ({ page }) => {
      await page.goto(path);
      await expect(page.locator('main h1, main h2').first()).toBeVisible();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }

  test('the sidebar collapses into a menu drawer', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('aside').first()).toBeHidden();
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawerNavigation = page.getByRole('dialog').getByRole('navigation', { name: 'Main navigation' });
    await drawerNavigation.getByRole('link', { name: 'Leaderboard' }).click();
    await expect(page).toHaveURL('/leaderboard');
    await expect(page.getByRole('dialog')).toBeHidden();
    await expect(page.getByRole('heading', { name: 'Leaderboard', level: 1 })).toBeVisible();
  });
});

test.describe('with a stored session', () => {
  test.beforeEach(async ({ page, request }) => {
    // A real token (any 401 logs out, docs/contract.md §4); the stored user below is what this suite looks at,
    // so the profile refresh answers with it and the live socket (status updates) stays quiet.
    const { token } = await signUpByApi(request, newPlayerData('Shell'));
    const stored = {
      _id: 'u42',
      name: 'Ace',
      unseenDropsCount: 3,
      status: { match: { active: true, matchId: 'm7' } },
    };
    await page.route('**/api/profile', (route) => route.fulfill({ json: stored }));
    await page.routeWebSocket(/\/socket\//, (ws) => ws.close());
    await page.route('**/socket/**', (route) => route.abort());
    // Auto login restores what the accounts feature stores at login.
    await page.addInitScript((token) => {
      localStorage.setItem('token', token);
      localStorage.setItem(
        'user',
        JSON.stringify({
          _id: 'u42',
          name: 'Ace',
          unseenDropsCount: 3,
          status: { match: { active: true, matchId: 'm7' } },
        }),
      );
    }, token);
  });

  test('the sidebar shows the logged-in entries, the drops badge, the lobby button and the friends area', async ({
    page,
  }) => {
    await page.goto('/');
    await expect(navigation(page).getByRole('link')).toHaveText([
      'Matches',
      'My Matches',
      /^Drops\s*3$/,
      'Leaderboard',
      'Season 1',
      'Settings',
      'My reports',
    ]);
    await expect(navigation(page).getByRole('link', { name: /My Matches/ })).toHaveAttribute(
      'href',
      '/user/u42/matches',
    );
    // The count badge (ui/countBadge.module.css, composed by the navigation's own rule): a round
    // accent pill at the end of the entry.
    const badge = navigation(page).getByTitle(/3/);
    await expect(badge).toHaveCSS('border-radius', '999px');
    await expect(badge).toHaveCSS('font-weight', '800');
    await expect(badge).toHaveCSS('line-height', '18px');
    await expect(badge).not.toHaveCSS('margin-left', '0px');
    if (process.env.SHOTS_DIR)
      await navigation(page).screenshot({ path: `${process.env.SHOTS_DIR}/navigation-drops-badge.png` });
    await page.getByRole('link', { name: 'Match Lobby' }).click();
    await expect(page).toHaveURL('/match/m7');
    await expect(page).toHaveTitle('Match Page');
    await expect(page.getByRole('complementary', { name: 'Friends' })).toBeVisible();
  });

  test('chat routes hide the sidebars', async ({ page }) => {
    await page.goto('/chat/room1');
    await expect(page.getByRole('heading', { name: 'Chat', level: 1 })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toHaveCount(0);
    await expect(page.getByRole('complementary', { name: 'Friends' })).toHaveCount(0);
  });
});

test('at phone width the end of a page scrolls clear of the queue widget and the chat button', async ({
  browser,
  request,
}) => {
  const player = await signUpPlayer(request, 'Pad');
  const { context, page } = await openAs(browser, player, {
    locale: 'de',
    viewport: { width: 390, height: 844 },
  });
  await page.goto('/settings');
  const logOut = page.getByRole('button', { name: 'Abmelden' });
  await expect(logOut).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const widget = await page.getByTestId('queue-widget').boundingBox();
  const button = await logOut.boundingBox();
  expect(widget).not.toBeNull();
  expect(button).not.toBeNull();
  if (widget && button) expect(button.y + button.height).toBeLessThanOrEqual(widget.y);
  await context.close();
});
