/**
 * "Notify me at N/10" as a player meets it: B sets 3/10 with desktop notifications in Settings,
 * three others queue, B gets one desktop notification (not another when a fourth joins), clicks it
 * and is in the queue. The Notification constructor is watched by an init script (Chromium grants
 * the permission); the click calls the notification's own onclick, as the browser would.
 * SHOTS_DIR: the settings section in English and German, desktop and 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { type Bot, call, connectBot } from './helpers/match';
import { openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const shotsDir = process.env.SHOTS_DIR;
// Settings, three sign-ups, the queue and a notification: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: allow(120_000) });
let bots: Bot[] = [];

declare global {
  interface Window {
    __notifications: { title: string; body?: string; onclick: ((e: Event) => void) | null }[];
  }
}

/** Records every desktop notification the page shows (title, body and its click handler). */
function watchNotifications() {
  window.__notifications = [];
  const Real = window.Notification;
  class Watched extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      window.__notifications.push(this as never);
    }
  }
  window.Notification = Watched as typeof Notification;
}

async function queueState(page: Page, player: Player) {
  const res = await page.request.get('/api/queue', { headers: { Authorization: `Bearer ${player.token}` } });
  return (await res.json()) as { inQueue: boolean; count: number };
}

test.afterAll(async () => {
  for (const bot of bots) {
    await call(bot, 'queue-message', { event: 'leave' }).catch(() => {});
    bot.disconnect();
  }
});

test('B asks to be told at 3/10, gets one notification, clicks it and is in the queue', async ({
  browser,
  request,
  baseURL,
}) => {
  const b = await signUpPlayer(request, 'alertb');
  await linkVoiceByApi(request, b.token);
  const { context, page } = await openAs(browser, b, { permissions: ['notifications'] });
  await context.addInitScript(watchNotifications);
  await page.goto('/settings');
  const section = page.getByTestId('queue-alert');
  await expect(section).toBeVisible({ timeout: allow(30_000) });
  await section.getByRole('combobox', { name: 'Notify me at' }).click();
  await page.getByRole('option', { name: '3/10' }).click();
  await section.getByTestId('queue-alert-channel-desktop').check();
  await section.getByTestId('queue-alert-save').click();
  await expect(page.getByText('Queue alert saved')).toBeVisible();
  await page.goto('/home');
  await expect(page.getByTestId('queue-widget')).toBeVisible();

  const others = await Promise.all(Array.from({ length: 4 }, (_, i) => signUpPlayer(request, `alert${i}x`)));
  await Promise.all(others.map((p) => linkVoiceByApi(request, p.token)));
  bots = await Promise.all(others.map((p) => connectBot(baseURL as string, p.token)));
  const before = (await queueState(page, b)).count;
  for (const bot of bots.slice(0, 3)) await call(bot, 'queue-message', { event: 'join' });
  expect(before).toBe(0); // the journeys share one queue: this one needs it empty

  await expect
    .poll(() => page.evaluate(() => window.__notifications.map((n) => [n.title, n.body])))
    .toEqual([['The queue is at 3/10', 'Click to join the queue.']]);
  // A fourth player is not a new rise.
  await call(bots[3], 'queue-message', { event: 'join' });
  await expect.poll(async () => (await queueState(page, b)).count).toBe(4);
  await page.waitForTimeout(2_500); // longer than the alert check's one-second window
  expect(await page.evaluate(() => window.__notifications.length)).toBe(1);

  await page.evaluate(() => window.__notifications[0].onclick?.(new Event('click')));
  await expect.poll(async () => (await queueState(page, b)).inQueue).toBe(true);
  await expect(page.getByTestId('queue-widget').getByRole('button', { name: 'Leave' })).toBeVisible();
  await call(await connectBot(baseURL as string, b.token), 'queue-message', { event: 'leave' });
  await context.close();
});

test('the one-tap link joins from the phone app', async ({ browser, request }) => {
  const b = await signUpPlayer(request, 'alertm');
  await linkVoiceByApi(request, b.token);
  const { context, page } = await openAs(browser, b, { viewport: { width: 390, height: 844 } });
  await page.goto('/m?queue=join');
  await expect.poll(async () => (await queueState(page, b)).inQueue).toBe(true);
  await expect(page).toHaveURL(/\/m$/);
  await expect(page.getByTestId('mobile-queue')).toContainText('You are in the queue');
  await page.getByRole('button', { name: 'Leave queue' }).click();
  await expect.poll(async () => (await queueState(page, b)).inQueue).toBe(false);
  await context.close();
});

for (const look of [
  { locale: 'en', viewport: { width: 1400, height: 900 } },
  { locale: 'en', viewport: { width: 390, height: 844 } },
  { locale: 'de', viewport: { width: 1400, height: 900 } },
  { locale: 'de', viewport: { width: 390, height: 844 } },
]) {
  test(`the settings section (${look.locale}, ${look.viewport.width} px)`, async ({ browser, request }) => {
    test.skip(!shotsDir, 'screenshots only');
    const p = await signUpPlayer(request, 'alertshot');
    await request.put('/api/profile/queue-alert', {
      headers: { Authorization: `Bearer ${p.token}` },
      data: {
        threshold: 7,
        channels: ['desktop'],
        quietHours: { from: 22, to: 8 },
        timeZone: 'Europe/Berlin',
      },
    });
    const { context, page } = await openAs(browser, p, { locale: look.locale, viewport: look.viewport });
    await page.goto('/settings');
    const section = page.getByTestId('queue-alert');
    await expect(section).toBeVisible({ timeout: allow(30_000) });
    await section.scrollIntoViewIfNeeded();
    await section.screenshot({ path: `${shotsDir}/queue-alert-${look.locale}-${look.viewport.width}.png` });
    await context.close();
  });
}
