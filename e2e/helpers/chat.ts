/** Journey helpers for the chat: the floating window and a tiny PNG to upload. */
import type { Page } from '@playwright/test';

export const chatWindow = (page: Page) => page.getByTestId('chat-window');

/** A 2×2 PNG (red/green/blue/white). */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEklEQVR4nGP4z8DAAMIM/4EAAB/uBfsL2WiLAAAAAElFTkSuQmCC',
  'base64',
);

/** Opens the friends-sidebar menu of a friend and picks an entry. */
export async function friendMenu(page: Page, friendName: string, entry: string): Promise<void> {
  await page
    .getByTestId('friends-sidebar')
    .locator(`[data-testid="friend-item"][data-name="${friendName}"]`)
    .getByRole('button', { name: `Actions for ${friendName}` })
    .click();
  await page.getByRole('menuitem', { name: entry }).click();
}
