/**
 * Queueing when matches are played on CS2 servers (GAME_SERVER_PROVIDER=matchzy, the second
 * e2e server): MatchZy admits players by SteamID64, so Play without a linked Steam account is
 * refused with STEAM_NOT_LINKED; the dialog links Steam through the popup and puts the player in
 * the queue.
 */
import { expect, test } from '@playwright/test';
import { linkVoiceByApi } from '../helpers/accounts';
import { openAs, signUpPlayer } from '../helpers/social';

test('Play without Steam opens the Steam dialog, which links Steam and queues', async ({
  browser,
  request,
}) => {
  const player = await signUpPlayer(request, 'NoSteam');
  await linkVoiceByApi(request, player.token);
  const { context, page } = await openAs(browser, player);
  await page.goto('/home');

  await page.getByRole('button', { name: 'Play', exact: true }).click();
  const dialog = page.getByTestId('queue-steam-required');
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Link your Steam account before queueing');
  await expect(page.getByRole('button', { name: 'Leave' })).toHaveCount(0);

  const popupPromise = page.waitForEvent('popup');
  await dialog.getByRole('button', { name: 'Link Steam and play' }).click();
  const popup = await popupPromise;
  await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()]);
  await expect(page.getByText('Steam linked successfully')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Leave' })).toBeVisible();

  // Leave again so the queue of this server stays empty for other journeys.
  await page.getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await context.close();
});
