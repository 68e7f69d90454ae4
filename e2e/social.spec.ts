import { expect, type Page, test } from '@playwright/test';
import { openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const sidebar = (page: Page) => page.getByTestId('friends-sidebar').first();
const friendItem = (page: Page, name: string) =>
  sidebar(page).locator(`[data-testid="friend-item"][data-name="${name}"]`);
const section = (page: Page, name: 'Online' | 'Offline') => sidebar(page).getByRole('region', { name });

test('two players become friends, see each other live, and part again', async ({ browser, request }) => {
  test.setTimeout(allow(90_000));
  const ann = await signUpPlayer(request, 'Ann');
  const ben = await signUpPlayer(request, 'Ben');

  const a = await openAs(browser, ann);
  const b = await openAs(browser, ben);
  await a.page.goto('/home');
  await b.page.goto('/home');
  await expect(sidebar(a.page).getByText(ann.name)).toBeVisible();
  await expect(sidebar(b.page).getByText(ben.name)).toBeVisible();
  await expect(b.page.getByTestId('received-dot')).toHaveCount(0);

  // A finds B in the player directory and sends a request.
  await sidebar(a.page).getByRole('button', { name: 'Add friends' }).click();
  await expect(a.page).toHaveURL(/\/search$/);
  await a.page
    .getByRole('searchbox', { name: 'Search players by name' })
    .fill(ben.name.slice(0, 8).toUpperCase());
  const benCard = a.page.getByRole('article', { name: ben.name });
  await expect(benCard).toBeVisible();
  await benCard.getByRole('button', { name: 'Add friend' }).click();
  await expect(a.page.getByText('Friend request created successfully')).toBeVisible();
  // The request is pending: Add friend gives way to Cancel request, and A's Sent tab lists it.
  await expect(benCard.getByRole('button', { name: 'Add friend' })).toHaveCount(0);
  await expect(benCard.getByRole('button', { name: 'Cancel request' })).toBeVisible();
  await sidebar(a.page).getByRole('tab', { name: 'Sent' }).click();
  await expect(friendItem(a.page, ben.name)).toBeVisible();

  // B sees it live, with the red dot, and accepts.
  await expect(b.page.getByTestId('received-dot')).toBeVisible();
  await sidebar(b.page).getByRole('tab', { name: 'Received' }).click();
  await expect(friendItem(b.page, ann.name)).toBeVisible();
  await friendItem(b.page, ann.name).getByRole('button', { name: 'Accept' }).click();
  await expect(b.page.getByTestId('received-dot')).toHaveCount(0);
  await expect(sidebar(b.page).getByText('No friend requests received.')).toBeVisible();

  // Both see each other online.
  await sidebar(b.page)
    .getByRole('tab', { name: /Friends/ })
    .click();
  await expect(section(b.page, 'Online').getByText(ann.name)).toBeVisible();
  await expect(sidebar(a.page).getByText('No pending requests sent.')).toBeVisible();
  await sidebar(a.page)
    .getByRole('tab', { name: /Friends/ })
    .click();
  await expect(section(a.page, 'Online').getByText(ben.name)).toBeVisible();
  await expect(friendItem(a.page, ben.name).locator('[data-status="online"]')).toHaveText('Online');
  await expect(benCard.getByRole('button', { name: 'Send message' })).toBeVisible();

  // B closes the browser: A sees "Last seen" with the relative time in English.
  await b.context.close();
  await expect(section(a.page, 'Offline').getByText(ben.name)).toBeVisible();
  await expect(friendItem(a.page, ben.name).locator('[data-status="lastSeen"]')).toHaveText(
    'Last seen a few seconds ago',
  );

  // B comes back; A removes B and both lists update live.
  const b2 = await openAs(browser, ben);
  await b2.page.goto('/home');
  await expect(section(b2.page, 'Online').getByText(ann.name)).toBeVisible();
  await expect(section(a.page, 'Online').getByText(ben.name)).toBeVisible();
  await friendItem(a.page, ben.name)
    .getByRole('button', { name: `Actions for ${ben.name}` })
    .click();
  await a.page.getByRole('menuitem', { name: 'Remove Friend' }).click();
  await expect(a.page.getByText('Removed friend successfully')).toBeVisible();
  await expect(friendItem(a.page, ben.name)).toHaveCount(0);
  await expect(friendItem(b2.page, ann.name)).toHaveCount(0);
  await expect(sidebar(b2.page).getByText('No friends yet. Find players with Add friends.')).toBeVisible();
  await expect(benCard.getByRole('button', { name: 'Add friend' })).toBeVisible();

  await a.context.close();
  await b2.context.close();
});
