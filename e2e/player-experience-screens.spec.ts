/**
 * Screenshots of the screens the player-experience fixes changed, in en/de at desktop and phone
 * width: login and sign-up refusals in the form, "check your e-mail", the confirmed sign-up, the
 * leaderboard's placement notes, an unranked player page, the About page, the chat page's rooms button, the
 * friends drawer and the queue widget on a phone.
 * Runs only with SHOTS_DIR set: `SHOTS_DIR=/tmp/shots npx playwright test e2e/player-experience-screens.spec.ts`.
 */
import { type Page, test } from '@playwright/test';
import { linkVoiceByApi, mailLink, newPlayerData, storeSession } from './helpers/accounts';
import { signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const dir = process.env.SHOTS_DIR;
test.skip(!dir, 'set SHOTS_DIR to take screenshots');

const sizes = { desktop: { width: 1400, height: 900 }, phone: { width: 390, height: 844 } } as const;

for (const locale of ['en', 'de'] as const) {
  for (const [size, viewport] of Object.entries(sizes)) {
    test(`player-experience screens ${locale} ${size}`, async ({ browser, request }) => {
      test.setTimeout(allow(90_000));
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const shot = (name: string, p: Page = page) =>
        p.screenshot({ path: `${dir}/px-${name}-${locale}-${size}.png`, fullPage: true });
      await page.goto('/about');
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);

      const existing = await signUpPlayer(request, 'pxShot');
      await page.goto('/login');
      await page.locator('input[name="email"]').fill(existing.email);
      await page.locator('input[name="password"]').fill('wrong-password');
      await page.locator('form button[type="submit"]').click();
      await page.locator('input[name="password"][aria-invalid="true"]').waitFor();
      await shot('login-wrong');

      const fresh = newPlayerData('pxNew');
      await page.goto('/signup');
      await page.locator('input[name="name"]').fill(fresh.name);
      await page.locator('input[name="email"]').fill(fresh.email);
      await page.locator('input[name="password"]').fill(fresh.password);
      await page.locator('input[name="confirmPassword"]').fill(fresh.password);
      await page.locator('form button[type="submit"]').click();
      await page.getByTestId('signup-sent').waitFor();
      await shot('signup-sent');
      await page.goto(await mailLink(request, fresh.email, 'verify'));
      await page.getByRole('alert').waitFor();
      await shot('verify-created');

      await page.goto('/leaderboard');
      await page.getByTestId('leaderboard-unranked').waitFor();
      await shot('leaderboard');
      const me = JSON.parse((await page.evaluate(() => localStorage.getItem('user'))) ?? '{}') as {
        _id: string;
      };
      await page.goto(`/user/${me._id}/stats`);
      await page.getByRole('tablist').waitFor();
      await shot('user-page');
      await page.goto('/about');
      await page.getByTestId('about-version').waitFor();
      await shot('about');
      await page.goto('/chat/global');
      await page.getByTestId('chat-rooms-toggle').waitFor();
      await shot('chat-page');

      // A queued player: the widget, and on a phone the friends drawer above the chat button.
      await linkVoiceByApi(request, existing.token);
      await storeSession(page, existing.session, locale);
      await page.goto('/home');
      const join = page.getByTestId('queue-widget').getByRole('button').last();
      await join.click();
      await page.getByTestId('queue-elapsed').waitFor();
      await shot('home-queued');
      if (size === 'phone') {
        await page.getByRole('button', { name: locale === 'de' ? /Freunde/ : /Friends/ }).click();
        await page.locator('.MuiDrawer-paper').getByTestId('friends-sidebar').waitFor();
        await page.waitForTimeout(300); // the drawer's slide-in
        await shot('friends-drawer');
        await page.keyboard.press('Escape');
      }
      await page.getByTestId('queue-widget').getByRole('button').last().click();
      await context.close();
    });
  }
}
