import { expect, test } from '@playwright/test';
import { befriend, openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

// Screenshots of the social screens in en and de, desktop and phone width, for looking at them:
// SHOTS_DIR=/tmp/shots npx playwright test e2e/social-screens.spec.ts
const dir = process.env.SHOTS_DIR;
test.skip(!dir, 'set SHOTS_DIR to take the social screenshots');

test('social screens', async ({ browser, request }) => {
  test.setTimeout(allow(120_000));
  const me = await signUpPlayer(request, 'Mia');
  const online = await signUpPlayer(request, 'Olli');
  const away = await signUpPlayer(request, 'Zoe');
  const asker = await signUpPlayer(request, 'Rex');
  const asked = await signUpPlayer(request, 'Sam');
  await befriend(request, me, online);
  await befriend(request, me, away);
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  await request.post('/api/friends', { data: { recipient: me.id }, headers: auth(asker.token) });
  await request.post('/api/friends', { data: { recipient: asked.id }, headers: auth(me.token) });
  // Zoe was online a moment ago; Olli stays online.
  const zoe = await openAs(browser, away);
  await zoe.page.goto('/home');
  await expect(zoe.page.getByTestId('friends-sidebar').first()).toBeVisible();
  await zoe.context.close();
  const olli = await openAs(browser, online);
  await olli.page.goto('/home');

  for (const locale of ['en', 'de']) {
    for (const [kind, viewport] of [
      ['desktop', { width: 1400, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const { context, page } = await openAs(browser, me, { locale, viewport });
      const shot = (name: string) => page.screenshot({ path: `${dir}/${name}-${locale}-${kind}.png` });
      await page.goto('/home');
      if (kind === 'phone') {
        await expect(page.getByTestId('phone-received-dot')).toBeVisible();
        await shot('topbar');
        await page.getByRole('button', { name: locale === 'de' ? /Freunde/ : /Friends/ }).click();
        await expect(page.locator('.MuiDrawer-paper').getByTestId('friends-sidebar')).toBeVisible();
      }
      const sidebar = page.locator('[data-testid="friends-sidebar"]:visible');
      await expect(sidebar.getByText(online.name)).toBeVisible();
      await page.waitForTimeout(300);
      await shot('sidebar');
      await sidebar.getByRole('tab', { name: locale === 'de' ? 'Erhalten' : 'Received' }).click();
      await shot('sidebar-received');
      await sidebar.locator('[data-testid="friend-item"]').first().getByRole('button').last().click();
      await shot('sidebar-menu');
      await page.keyboard.press('Escape');
      if (kind === 'phone') await page.keyboard.press('Escape');
      await page.goto('/search');
      await expect(page.getByTestId('player-directory')).toBeVisible();
      await page.waitForTimeout(300);
      await shot('search');
      await page
        .getByRole('article', { name: online.name })
        .screenshot({ path: `${dir}/card-${locale}-${kind}.png` });
      await page.goto(`/user/${online.id}`);
      await expect(page.getByTestId('user-header')).toBeVisible();
      await page.waitForTimeout(300);
      await shot('user');
      await page.goto(`/user/${me.id}/friends`);
      await expect(page.getByRole('article', { name: away.name })).toBeVisible();
      await shot('user-friends');
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await context.close();
    }
  }
  await olli.context.close();
});
