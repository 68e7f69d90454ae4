/**
 * Issue 17 item 6 and the voice dialog's spinner:
 * - during the 30-second accept phase nothing but the dialog asks for attention: no "Allow
 *   notifications" prompt (not in the dialog, not in the queue widget behind it), and the widget
 *   says "Match found!" without "Searching" or a Leave button — desktop in English, a 390 px phone
 *   in German;
 * - the voice link dialog's waiting spinner is a named progressbar inside a status (en, de).
 */
import { expect, type Page, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { type Bot, call, connectBot } from './helpers/match';
import { openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const looks = [
  { locale: 'en', viewport: { width: 1400, height: 900 } },
  { locale: 'de', viewport: { width: 390, height: 844 } },
] as const;

const ALLOW = /^(Allow notifications|Benachrichtigungen erlauben)$/;

test('accept phase: no notification prompt, and the widget behind the dialog no longer searches or offers Leave', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(allow(90_000));
  const players = await Promise.all(Array.from({ length: 10 }, (_, i) => signUpPlayer(request, `acc${i}x`)));
  await Promise.all(players.map((p) => linkVoiceByApi(request, p.token)));
  const [a, b, ...botPlayers] = players;
  const sessions = await Promise.all([a, b].map((p, i) => openAs(browser, p, looks[i])));
  const pages: Page[] = sessions.map((s) => s.page);
  const bots: Bot[] = await Promise.all(botPlayers.map((p) => connectBot(baseURL as string, p.token)));
  try {
    // Queued, before the phase: the widget searches, offers Leave and the notification opt-in
    // (headless Chromium has not been asked), so the checks below can fail.
    for (const page of pages) {
      await page.goto('/home');
      const widget = page.getByTestId('queue-widget');
      await widget.getByRole('button', { name: /^(Play|Spielen)$/ }).click();
      await expect(widget.getByTestId('queue-elapsed')).toBeVisible();
      await expect(widget.getByTestId('notify-allow')).toBeVisible();
      await expect(widget.getByRole('button', { name: /^(Leave|Verlassen)$/ })).toBeVisible();
      await expect(widget.getByTestId('queue-title')).toHaveText(
        /^(Searching for a match|Suche nach einem Match)$/,
      );
    }

    for (const bot of bots) await call(bot, 'queue-message', { event: 'join' });
    for (const [i, page] of pages.entries()) {
      const dialog = page.getByTestId('accept-dialog');
      await expect(dialog).toBeVisible();
      // Nothing asks for notifications: neither in the dialog nor anywhere behind it.
      await expect(dialog.getByText(ALLOW)).toHaveCount(0);
      await expect(page.getByTestId('notify-allow')).toHaveCount(0);
      await expect(page.getByText(ALLOW)).toHaveCount(0);
      // The widget behind it: "Match found!", no "Searching", no Leave.
      const widget = page.getByTestId('queue-widget');
      await expect(widget.getByTestId('queue-title')).toHaveText(
        looks[i].locale === 'en' ? 'Match found!' : 'Match gefunden!',
      );
      await expect(widget).not.toContainText(/Searching|Suche nach/);
      await expect(widget.getByRole('button', { includeHidden: true })).toHaveCount(0);
      // The dialog's only buttons are Accept and Decline.
      await expect(dialog.getByRole('button')).toHaveText(
        looks[i].locale === 'en' ? ['Decline', 'Accept'] : ['Ablehnen', 'Annehmen'],
      );
    }
    // Out of the phase again: the first player declines, which ends it for everyone.
    await pages[0].getByTestId('accept-dialog').getByRole('button', { name: 'Decline' }).click();
    for (const page of pages) await expect(page.getByTestId('accept-dialog')).toHaveCount(0);
  } finally {
    // Nobody stays queued for the journeys after this one (the second player keeps a place).
    for (const bot of [...bots, await connectBot(baseURL as string, b.token)]) {
      await call(bot, 'queue-message', { event: 'leave' }).catch(() => undefined);
      bot.disconnect();
    }
    for (const s of sessions) await s.context.close();
  }
});

for (const locale of ['en', 'de'] as const) {
  test(`voice link dialog (${locale}): the waiting spinner has a name and is a status`, async ({
    browser,
    request,
  }) => {
    const player = await signUpPlayer(request, `vsp${locale}`);
    const { context, page } = await openAs(browser, player, { locale });
    // Nobody connected to the voice server yet (the shared test server may have identities of
    // other journeys): the list answers empty, which is when the spinner shows.
    await page.route('**/api/profile/teamSpeakUsers', (route) => route.fulfill({ json: [] }));
    await page.goto('/home');
    await page
      .getByRole('main')
      .getByRole('button', { name: locale === 'en' ? 'Link voice server' : 'Voice-Server verknüpfen' })
      .click();
    const status = page.getByRole('dialog').getByRole('status');
    await expect(status).toContainText(locale === 'en' ? 'Nobody connected yet' : 'Noch niemand verbunden');
    await expect(
      status.getByRole('progressbar', {
        name:
          locale === 'en'
            ? 'Waiting for your voice server identity'
            : 'Warte auf deine Voice-Server-Identität',
      }),
    ).toBeVisible();
    await context.close();
  });
}
