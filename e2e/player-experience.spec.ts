/**
 * Player-experience fixes: keyboard use (focus ring, first field focused), texts in the
 * interface language, the admin section of the navigation and clearer error and empty pages.
 */
import { expect, type Page, test } from '@playwright/test';
import { chatWindow, friendMenu } from './helpers/chat';
import { signUpAdmin } from './helpers/competition';
import { befriend, openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

/** The computed outline of the focused element. */
const focusedOutline = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const style = getComputedStyle(el);
    return { tag: el.tagName, style: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
  });

test('login starts in the e-mail field, and keyboard focus on buttons is visible', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('input[name="email"]')).toBeFocused();
  // One Shift+Tab back is the Steam button: it shows a clear ring.
  await page.keyboard.press('Shift+Tab');
  const steam = await focusedOutline(page);
  expect(steam.tag).toBe('BUTTON');
  expect(steam.style).toBe('solid');
  expect(steam.width).toBeGreaterThanOrEqual(2);
  // Tab on through the form (password, the forgot link) to the submit button: a ring there too.
  await page.locator('input[name="password"]').focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(page.locator('form button[type="submit"]')).toBeFocused();
  expect((await focusedOutline(page)).style).toBe('solid');
});

test('sign-up: Steam first, then "or with e-mail" between it and the form; the name field has focus', async ({
  page,
}) => {
  await page.goto('/signup');
  await expect(page.locator('input[name="name"]')).toBeFocused();
  const steam = await page.getByRole('button', { name: 'Sign in with Steam' }).boundingBox();
  const divider = await page.getByText('or with e-mail').boundingBox();
  const name = await page.locator('input[name="name"]').boundingBox();
  expect(steam && divider && name).toBeTruthy();
  if (steam && divider && name) {
    expect(steam.y + steam.height).toBeLessThanOrEqual(divider.y);
    expect(divider.y + divider.height).toBeLessThanOrEqual(name.y);
  }
  // A name over 64 characters states the limit.
  await page.locator('input[name="name"]').fill('n'.repeat(65));
  await page.locator('form button[type="submit"]').click();
  await expect(page.getByText('At most 64 characters')).toBeVisible();
});

test('an unknown match says it does not exist and links to the start page', async ({ page }) => {
  await page.goto('/match/7d1c1f2e-9a0b-4c5d-8e6f-0a1b2c3d4e5f');
  const notFound = page.getByTestId('match-not-found');
  await expect(notFound).toContainText("This match doesn't exist");
  await notFound.getByRole('link', { name: 'Go to the start page' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a new player is unranked until the placement matches, and the leaderboard lists ranked players only', async ({
  browser,
  request,
}) => {
  const player = await signUpPlayer(request, 'plc');
  const { context, page } = await openAs(browser, player);
  await page.goto('/leaderboard');
  await expect(page.getByTestId('placement-note')).toHaveText('Players are ranked after 5 finished matches.');
  await expect(page.getByTestId('leaderboard-unranked')).toContainText('finish 5 matches');
  await page.getByLabel('Search by name').fill(player.name);
  await expect(page.getByText('No players found')).toBeVisible();
  await expect(page.getByTestId('own-rank').first()).toHaveText('Unranked · 200 ELO');
  await page.goto(`/user/${player.id}/stats`);
  await expect(page.getByText('Unranked', { exact: true }).first()).toBeVisible();
  await context.close();
});

test('phone: the chat button opens the unread direct message, the rooms button is labelled, drawers cover the chat button', async ({
  browser,
  request,
}) => {
  test.setTimeout(allow(60_000));
  const ann = await signUpPlayer(request, 'dmA');
  const ben = await signUpPlayer(request, 'dmB');
  await befriend(request, ann, ben);
  const phone = await openAs(browser, ben, { viewport: { width: 390, height: 844 } });
  await phone.page.goto('/home');
  const a = await openAs(browser, ann);
  await a.page.goto('/home');
  await friendMenu(a.page, ben.name, 'Send Message');
  await chatWindow(a.page).getByTestId('chat-input').fill('Psst, Ben');
  await chatWindow(a.page).getByTestId('chat-input').press('Enter');

  // The badge counts the direct message; a tap opens that room, not the global one.
  const page = phone.page;
  await expect(page.getByTestId('chat-launcher-unread')).toHaveText('1', { timeout: allow(15_000) });
  await page.getByTestId('chat-launcher').click();
  await expect(page.getByTestId('chat-message').filter({ hasText: 'Psst, Ben' })).toBeVisible();
  await expect(page.getByTestId('chat-room-name')).toHaveText(ann.name);
  await expect(page.getByRole('button', { name: 'Rooms' })).toBeVisible();

  // The friends drawer covers the chat button: its add-friends button takes the tap.
  await page.goto('/home');
  await page.getByRole('button', { name: /Friends/ }).click();
  const add = page.locator('.MuiDrawer-paper').getByRole('button', { name: 'Add friends' });
  await expect(add).toBeVisible();
  const box = await add.boundingBox();
  expect(box).toBeTruthy();
  const hit = await page.evaluate(
    ({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? '',
    { x: (box?.x ?? 0) + (box?.width ?? 0) - 8, y: (box?.y ?? 0) + (box?.height ?? 0) / 2 },
  );
  expect(hit).toContain('Add friends');
  await a.context.close();
  await phone.context.close();
});

test('About: the community, rules, how a match works, the Elo numbers and the version; an admin edits the texts', async ({
  browser,
  page,
  request,
}) => {
  // The page states this deployment's numbers; the journey servers lengthen the accept phase
  // (playwright.config.ts), and about.test.ts checks the defaults.
  const { facts } = (await (await request.get('/api/about')).json()) as { facts: { acceptSeconds: number } };
  await page.goto('/about');
  await expect(page.getByTestId('about-how').getByRole('listitem')).toHaveCount(6);
  await expect(page.getByTestId('about-how')).toContainText(
    `Everyone has ${facts.acceptSeconds} seconds to accept`,
  );
  await expect(page.getByTestId('about-elo')).toContainText(
    'Everyone starts at 200 Elo. A win adds 12, a loss takes 10',
  );
  await expect(page.getByTestId('about-elo')).toContainText('after 5 finished matches');
  await expect(page.getByTestId('about-version')).toContainText('Version ');
  await expect(page.getByRole('button', { name: 'Edit texts' })).toHaveCount(0);

  const admin = await signUpAdmin(request);
  const { context, page: adminPage } = await openAs(browser, admin);
  await adminPage.goto('/about');
  await adminPage.getByRole('button', { name: 'Edit texts' }).click();
  const dialog = adminPage.getByRole('dialog');
  const rules = `No smurfs, ${Date.now()}`;
  await dialog.getByLabel('Rules').fill(rules);
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  await context.close();
  await page.reload();
  await expect(page.getByTestId('about-rules')).toContainText(rules);
});
