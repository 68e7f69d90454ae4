/**
 * Accessibility: axe-core (WCAG 2.1 A/AA rules) over every screen, in English and German, at
 * desktop width and on a 390 px phone — no serious or critical violation anywhere. Each screen is
 * loaded once: axe runs at desktop width and, after resizing the page in place, at 390 px; then the
 * language switch changes the language without a reload and both widths are checked again. The
 * public screens are checked signed out, the rest as an admin (who also sees the admin screens),
 * with the phone app (/m) and an open chat window with a direct message among them. The match
 * room's phases (accept dialog, draft, veto, live, result) are checked in keyboard.spec.ts, which
 * plays a match anyway.
 */
import { expect, type Page, test } from '@playwright/test';
import { storeSession } from './helpers/accounts';
import { axeAtWidths, SIZES } from './helpers/axe';
import { chatWindow } from './helpers/chat';
import { signUpAdmin } from './helpers/competition';
import { befriend, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const PUBLIC = ['/', '/login', '/signup', '/forgot', '/reset/unknown-link', '/verify/unknown-link', '/about'];
/** Screens anyone may see: checked signed in (the same screen, plus the signed-in layout). */
const BOTH = ['/leaderboard', '/season1', '/match/7d1c1f2e-9a0b-4c5d-8e6f-0a1b2c3d4e5f', '/no-such-page'];
const signedIn = (id: string) => [
  '/home',
  '/search',
  '/chat/global',
  `/user/${id}/matches`,
  `/user/${id}/stats`,
  `/user/${id}/drops`,
  `/user/${id}/highlights`,
  `/user/${id}/friends`,
  '/profile',
  '/settings',
  '/reports',
  '/admin/users',
  '/admin/drops',
  '/admin/audit',
  '/admin/reports',
  '/admin/arena',
  '/admin/calibration',
];

type Locale = 'en' | 'de';
const other = (locale: Locale): Locale => (locale === 'en' ? 'de' : 'en');

/** Waits until the screen has drawn: its main landmark and its first heading are there. */
async function settled(page: Page, headingTimeout = allow(3_000)) {
  await page
    .locator('main, [role="main"]')
    .first()
    .waitFor({ timeout: allow(15_000) });
  await page
    .locator('h1, h2')
    .first()
    .waitFor({ timeout: headingTimeout })
    .catch(() => undefined);
}

/**
 * Switches the interface language in place with the navigation's language switch (at desktop
 * width, where the navigation shows it). A screen without the switch (the phone app) is reloaded
 * with the stored choice instead.
 */
async function switchLanguage(page: Page, locale: Locale) {
  const button = page.locator(`[role="group"] button[lang="${locale}"]:visible`).first();
  if (await button.count()) await button.click();
  else {
    await page.evaluate((l) => localStorage.setItem('locale', l), locale);
    await page.reload();
  }
  await expect(page.locator('html')).toHaveAttribute('lang', locale);
  // The screen refetches its server data in the new language; it had a heading before.
  await settled(page, allow(1_000));
}

/** A screen to check: its path, and what to open on it before the checks (a chat window). */
type Screen = string | { path: string; open: (page: Page) => Promise<void> };

/**
 * The sweep: each screen loaded once, checked in the current language at both widths, then in
 * the other one; the next screen starts in the language the last one ended in.
 */
async function sweep(page: Page, start: Locale, screens: Screen[]) {
  let locale = start;
  const found: string[] = [];
  for (const screen of screens) {
    const path = typeof screen === 'string' ? screen : screen.path;
    await page.goto(path);
    await settled(page);
    if (typeof screen !== 'string') await screen.open(page);
    for (const round of [0, 1]) {
      if (round === 1) {
        locale = other(locale);
        await switchLanguage(page, locale);
      }
      found.push(...(await axeAtWidths(page, `${path} (${locale})`)));
    }
  }
  return found;
}

/** Opens a direct message with `friend` from the friends sidebar and sends one (either language). */
const openDirectMessage = (friend: Player) => async (page: Page) => {
  await page
    .getByTestId('friends-sidebar')
    .locator(`[data-testid="friend-item"][data-name="${friend.name}"]`)
    .getByRole('button', { name: new RegExp(`^(Actions for|Aktionen für) ${friend.name}$`) })
    .click();
  await page.getByRole('menuitem', { name: /^(Send Message|Nachricht senden)$/ }).click();
  const input = chatWindow(page).getByTestId('chat-input');
  await input.fill('Up for a pug tonight?');
  await input.press('Enter');
  await expect(chatWindow(page).getByTestId('chat-message').last()).toContainText('Up for a pug');
};

let admin: Player;
test.beforeAll(async ({ request }) => {
  admin = await signUpAdmin(request);
});

test('every public screen passes axe: en and de, desktop and phone', async ({ browser }) => {
  test.setTimeout(allow(240_000));
  const context = await browser.newContext({ viewport: SIZES.desktop });
  const page = await context.newPage();
  await page.goto('/about');
  await page.evaluate(() => localStorage.setItem('locale', 'en'));
  const found = await sweep(page, 'en', PUBLIC);
  await context.close();
  expect(found).toEqual([]);
});

test('every signed-in screen, the phone app and a chat window pass axe: en and de, desktop and phone', async ({
  browser,
  request,
}) => {
  test.setTimeout(allow(360_000));
  const friend = await signUpPlayer(request, 'AxeFriend');
  await befriend(request, admin, friend);
  const context = await browser.newContext({ viewport: SIZES.desktop });
  const page = await context.newPage();
  await storeSession(page, admin.session, 'en');
  // Last: a direct message open in the chat window over the home screen.
  const screens: Screen[] = [
    ...signedIn(admin.id),
    ...BOTH,
    '/m',
    { path: '/home', open: openDirectMessage(friend) },
  ];
  const found = await sweep(page, 'en', screens);
  await context.close();
  expect(found).toEqual([]);
});
