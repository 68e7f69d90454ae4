/**
 * Declining a match and the cooldown it brings, as a player sees it: nine bots and the browser
 * player fill the queue, the browser player declines in the accept dialog, the phase ends at once
 * for everyone, and the queue widget shows why the player cannot queue and for how long instead of
 * Play. Once in English on a desktop, once in German on a 390 px phone (SHOTS_DIR: screenshots).
 */
import { expect, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { type Bot, call, connectBot } from './helpers/match';
import { openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const shotsDir = process.env.SHOTS_DIR;
let bots: Bot[] = [];

test.beforeAll(async ({ request, baseURL }) => {
  const players: Player[] = await Promise.all(
    Array.from({ length: 9 }, (_, i) => signUpPlayer(request, `cd${i}x`)),
  );
  await Promise.all(players.map((p) => linkVoiceByApi(request, p.token)));
  bots = await Promise.all(players.map((p) => connectBot(baseURL as string, p.token)));
  for (const bot of bots) await call(bot, 'queue-message', { event: 'join' });
});

test.afterAll(async () => {
  for (const bot of bots) {
    await call(bot, 'queue-message', { event: 'leave' }).catch(() => {});
    bot.disconnect();
  }
});

for (const look of [
  {
    locale: 'en',
    viewport: { width: 1400, height: 900 },
    decline: 'Decline',
    missed: 'You missed an accept phase',
  },
  {
    locale: 'de',
    viewport: { width: 390, height: 844 },
    decline: 'Ablehnen',
    missed: 'Du hast ein Match nicht angenommen',
  },
]) {
  test(`declining ends the phase for everyone and shows the cooldown (${look.locale}, ${look.viewport.width} px)`, async ({
    browser,
    request,
  }) => {
    const me = await signUpPlayer(request, `cdme${look.locale}`);
    await linkVoiceByApi(request, me.token);
    const { context, page } = await openAs(browser, me, { locale: look.locale, viewport: look.viewport });
    await page.goto('/home');
    await page
      .getByTestId('queue-widget')
      .getByRole('button', { name: /^(Play|Spielen)$/ })
      .click();
    const dialog = page.getByTestId('accept-dialog');
    await expect(dialog).toBeVisible();
    if (shotsDir)
      await page.screenshot({ path: `${shotsDir}/accept-decline-${look.locale}-${look.viewport.width}.png` });
    await dialog.getByRole('button', { name: look.decline }).click();

    // The phase ended at once: the dialog is gone and the widget explains the cooldown.
    await expect(dialog).toBeHidden();
    const notice = page.getByTestId('queue-cooldown');
    await expect(notice).toContainText(look.missed);
    await expect(notice).toContainText(/0?4:5\d|05:00/);
    await expect(
      page.getByTestId('queue-widget').getByRole('button', { name: /^(Play|Spielen)$/ }),
    ).toHaveCount(0);
    if (shotsDir)
      await page.screenshot({ path: `${shotsDir}/queue-cooldown-${look.locale}-${look.viewport.width}.png` });
    // The countdown runs.
    const before = await notice.textContent();
    await expect.poll(async () => notice.textContent(), { timeout: allow(3_000) }).not.toBe(before);
    // A reload keeps it (GET /api/queue).
    await page.reload();
    await expect(page.getByTestId('queue-cooldown')).toContainText(look.missed);
    await context.close();
  });
}
