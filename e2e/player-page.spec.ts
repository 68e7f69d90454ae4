/**
 * The player page on a 390 px phone (docs/contract.md §1 "Everywhere", §2 `/user/:userId`): every tab can be reached (scroll buttons beside
 * the tab row), and a name breaks between its words, not inside one.
 */
import { expect, test } from '@playwright/test';
import { newPlayerData, signUpByApi } from './helpers/accounts';

test('player page at 390 px: all tabs reachable, the name breaks between words', async ({
  browser,
  request,
}) => {
  const data = newPlayerData('pp');
  const name = 'Konstantinopolitanus Wolkenkratzerin';
  const player = await signUpByApi(request, { ...data, name });
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(`/user/${player.user._id}/matches`);
  const heading = page.getByRole('heading', { level: 1, name });
  await expect(heading).toBeVisible();

  // Each word of the name lies on one line: no word is split across two.
  const splitWords = await heading.evaluate((h) => {
    const text = h.firstChild as Text;
    const split: string[] = [];
    let at = 0;
    for (const word of (text.textContent ?? '').split(' ')) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const tops = new Set(Array.from(range.getClientRects()).map((r) => Math.round(r.top)));
      if (tops.size > 1) split.push(word);
      at += word.length + 1;
    }
    return split;
  });
  expect(splitWords).toEqual([]);

  // The tab row is wider than the phone: a scroll button brings the last tab fully into view.
  const tabs = page.getByRole('tablist', { name: 'Player sections' });
  const last = tabs.getByRole('tab', { name: 'Highlights' });
  // What of the row is on screen: its scroller, between the scroll buttons.
  const visible = page.getByTestId('user-tabs').locator('.MuiTabs-scroller');
  const inView = async () => {
    const row = await visible.boundingBox();
    const tab = await last.boundingBox();
    return Boolean(row && tab && tab.x >= row.x - 1 && tab.x + tab.width <= row.x + row.width + 1);
  };
  expect(await inView()).toBe(false);
  const next = page.locator('[data-testid="user-tabs"] .MuiTabs-scrollButtons').last();
  await expect(next).toBeVisible();
  await next.click();
  await expect.poll(inView).toBe(true);
  await last.click();
  await expect(page).toHaveURL(/\/highlights$/);
  await context.close();
});
