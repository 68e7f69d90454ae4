/**
 * Screenshots of the screens issue 17's last fixes changed (en/de, desktop and 390 px): forgot
 * password sent, the admin's new-drop form with its field messages, the season page with and
 * without details and its edit dialog, the player page, Settings and the voice dialog with the
 * linked nickname, and a match player's chat rooms. Runs only with SHOTS_DIR set:
 * SHOTS_DIR=/tmp/shots npx playwright test e2e/px-screens.spec.ts
 */
import { type Page, test } from '@playwright/test';
import { newPlayerData, signUpByApi } from './helpers/accounts';
import { botsToLiveMatch, signUpAdmin } from './helpers/competition';
import { openAs } from './helpers/social';
import { allow } from './helpers/time';

const dir = process.env.SHOTS_DIR;
test.skip(!dir, 'screenshots only with SHOTS_DIR');

const sizes = [
  [1400, 900, 'desktop'],
  [390, 844, 'phone'],
] as const;

test('issue 17 leftovers: screens', async ({ browser, request, baseURL }) => {
  test.setTimeout(allow(400_000));
  const admin = await signUpAdmin(request);
  const auth = { authorization: `Bearer ${admin.token}` };
  await request.post('/api/drops/', {
    headers: auth,
    data: { name: 'Golden Knife', image: 'knife', rarity: 'legendary', amount: 1 },
  });
  const { players, bots, matchId } = await botsToLiveMatch(request, baseURL as string, 'pxs');
  const named = await signUpByApi(request, {
    ...newPlayerData('pxn'),
    name: 'Konstantinopolitanus Wolkenkratzerin',
  });
  try {
    for (const locale of ['en', 'de']) {
      for (const [width, height, tag] of sizes) {
        const shot = (page: Page, name: string) =>
          page.screenshot({ path: `${dir}/wt-px-${name}-${locale}-${tag}.png`, fullPage: true });
        const viewport = { width, height };

        // Visitor: forgot password sent, the season without details, the player page.
        const visitor = await browser.newContext({ viewport });
        const v = await visitor.newPage();
        await v.goto('/about');
        await v.evaluate((l) => localStorage.setItem('locale', l), locale);
        await v.goto('/forgot');
        await v.locator('input[name="email"]').fill('someone@example.test');
        await v.locator('form button[type="submit"]').click();
        await v.getByRole('status').waitFor();
        await v.waitForTimeout(400);
        await shot(v, 'forgot-sent');
        await v.goto(`/user/${named.user._id}/matches`);
        await v.getByTestId('user-header').waitFor();
        await v.waitForTimeout(600);
        await shot(v, 'player');
        await visitor.close();

        // Admin: drop form errors, season edit dialog, season with details.
        const a = await openAs(browser, admin, { locale, viewport });
        await a.page.goto('/admin/drops');
        await a.page.getByRole('button', { name: locale === 'en' ? 'New drop' : 'Neuer Drop' }).click();
        const dialog = a.page.getByRole('dialog');
        await dialog.locator('input[type="number"]').fill('0');
        await dialog.getByRole('button', { name: locale === 'en' ? 'Save' : 'Speichern' }).click();
        await a.page.waitForTimeout(400);
        await shot(a.page, 'drop-errors');
        await a.page.keyboard.press('Escape');
        await a.page.locator('input[type="number"]').first().fill('20000');
        await a.page.waitForTimeout(300);
        await shot(a.page, 'drop-interval');
        await a.page.goto('/season1');
        await a.page.getByTestId('season-dates').waitFor();
        await a.page.waitForTimeout(400);
        await shot(a.page, 'season-plain');
        await a.page
          .getByRole('button', { name: locale === 'en' ? 'Edit season' : 'Saison bearbeiten' })
          .click();
        const edit = a.page.getByRole('dialog');
        const texts =
          locale === 'en'
            ? [
                'Autumn league',
                'Ten weeks of pugs, every evening from 8 pm.',
                '1st: a knife skin\n2nd–3rd: gloves',
              ]
            : [
                'Herbstliga',
                'Zehn Wochen Pugs, jeden Abend ab 20 Uhr.',
                '1. Platz: ein Messer-Skin\n2.–3.: Handschuhe',
              ];
        const inputs = edit.locator('input:not([type="date"]), textarea:not([aria-hidden])');
        for (const [i, text] of texts.entries()) await inputs.nth(i).fill(text);
        await a.page.waitForTimeout(300);
        await shot(a.page, 'season-edit');
        await edit.getByRole('button', { name: locale === 'en' ? 'Save' : 'Speichern' }).click();
        await edit.waitFor({ state: 'detached' });
        await a.page.waitForTimeout(400);
        await shot(a.page, 'season-details');
        await a.context.close();

        // A match player: Settings with the nickname, the voice dialog, the chat rooms.
        const p = await openAs(browser, players[0], { locale, viewport });
        await p.page.goto('/settings');
        await p.page.getByTestId('voice-identity').waitFor();
        await p.page.waitForTimeout(400);
        await shot(p.page, 'settings');
        await p.page.goto(`/match/${matchId}`);
        await p.page.getByTestId('match-chat').waitFor();
        await p.page.waitForTimeout(2000);
        await p.page.getByTestId('chat-launcher').click();
        // The window opens on the room list when no room is chosen yet; else the toggle shows it.
        const list = p.page.getByTestId('chat-room-list');
        await list
          .waitFor({ timeout: allow(3000) })
          .catch(() => p.page.getByTestId('chat-rooms-toggle').click());
        await list.waitFor();
        await p.page.waitForTimeout(800);
        await shot(p.page, 'chat-rooms');
        await p.context.close();
      }
    }
  } finally {
    for (const bot of bots) bot.disconnect();
  }
});
