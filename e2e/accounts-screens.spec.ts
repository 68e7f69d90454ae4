/**
 * Screenshots of the accounts screens in en/de at desktop and phone width, for looking at them.
 * Runs only with SHOTS_DIR set: `SHOTS_DIR=/tmp/shots npx playwright test e2e/accounts-screens.spec.ts`.
 */
import { type Page, test } from '@playwright/test';
import {
  createVoiceIdentity,
  disconnectVoiceIdentities,
  mailLink,
  newPlayerData,
  signUpByApi,
  storeSession,
} from './helpers/accounts';
import { allow } from './helpers/time';

const dir = process.env.SHOTS_DIR;
test.skip(!dir, 'set SHOTS_DIR to take screenshots');

// Each run leaves its identity unlinked (it types a wrong code); accounts.spec.ts, next on this
// server, expects an empty voice server.
test.afterEach(({ request }) => disconnectVoiceIdentities(request));

const sizes = { desktop: { width: 1400, height: 900 }, phone: { width: 390, height: 844 } } as const;

for (const locale of ['en', 'de'] as const) {
  for (const [size, viewport] of Object.entries(sizes)) {
    test(`accounts screens ${locale} ${size}`, async ({ browser, request }) => {
      test.setTimeout(allow(90_000));
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const shot = (name: string, p: Page = page) =>
        p.screenshot({ path: `${dir}/${name}-${locale}-${size}.png`, fullPage: true });
      await page.goto('/about');
      await page.evaluate((l) => localStorage.setItem('locale', l), locale);
      await page.goto('/login');
      await page.locator('form button[type="submit"]').waitFor();
      await shot('login');
      await page.goto('/signup');
      await page.locator('form button[type="submit"]').click();
      await shot('signup-errors');
      await page.goto('/forgot');
      await page.locator('input[name="email"]').fill('someone@example.test');
      await shot('forgot');
      await page.locator('form button[type="submit"]').click();
      await page.getByRole('status').waitFor();
      await shot('forgot-sent');
      await page.goto('/reset/unknown-id');
      await page.locator('form button[type="submit"]').waitFor();
      await shot('reset');

      // A sign-up is verified by its own link; a changed e-mail is what waits for verification.
      const player = await signUpByApi(request, newPlayerData('Shot'), locale);
      const email = `changed-${player.email}`;
      const changed = await request.patch('/api/profile', {
        headers: { Authorization: `Bearer ${player.token}` },
        data: { email },
      });
      if (!changed.ok()) throw new Error(`e-mail change: ${changed.status()} ${await changed.text()}`);
      await storeSession(page, { ...player, user: { ...player.user, email, verified: false } }, locale);
      await page.goto('/home');
      await page.getByTestId('verify-notice').waitFor();
      await shot('home-unverified');
      await page.goto(await mailLink(request, email, 'verify'));
      await page.getByRole('alert').waitFor();
      await shot('verify');
      await page.goto('/profile');
      await page.locator('input[name="oldPassword"]').waitFor();
      await shot('profile');
      await page.goto('/settings');
      await page.getByTestId('linked-voice').waitFor();
      await shot('settings');
      await page.getByTestId('linked-voice').getByRole('button').click();
      await page.getByRole('dialog').waitFor();
      await page.waitForTimeout(400);
      await shot('voice-dialog-empty');
      const identity = await createVoiceIdentity(request, `Shot-${locale}-${size}`);
      await page
        .getByRole('dialog')
        .getByRole('button', { name: new RegExp(identity.name) })
        .waitFor({ timeout: allow(8000) });
      await shot('voice-dialog-list');
      await page
        .getByRole('dialog')
        .getByRole('button', { name: new RegExp(identity.name) })
        .click();
      await page.getByRole('dialog').locator('input').first().waitFor();
      await page.getByRole('dialog').locator('input').first().click();
      await page.keyboard.type('00');
      await shot('voice-dialog-code');
      await page.keyboard.type('00');
      await page.getByRole('dialog').getByRole('alert').waitFor();
      await shot('voice-dialog-error');

      // A nameless (Steam-style) user gets the name dialog.
      await page.evaluate(() => {
        const user = JSON.parse(localStorage.getItem('user') ?? '{}');
        localStorage.setItem('user', JSON.stringify({ ...user, name: null }));
      });
      await page.route('**/api/profile', (route) =>
        route.request().method() === 'GET'
          ? route.fulfill({ json: { ...player.user, name: null } })
          : route.continue(),
      );
      await page.goto('/home');
      await page.getByRole('dialog').waitFor();
      await page.waitForTimeout(400);
      await shot('name-dialog');
      await context.close();
    });
  }
}
