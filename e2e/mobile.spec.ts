/**
 * Mobile queue app (issue 8) at phone size: the desktop QR dialog's address (scan-equivalent)
 * signs the phone in once → queue from the phone → accept from the phone while the desktop page
 * shows the same state (10 players: the user, nine socket bots) → match room. Also: the used link
 * is refused, and the settings rows. SHOTS_DIR=<dir> saves screenshots (en/de, 390 px).
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { type Bot, call, connectBot } from './helpers/match';
import { openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const PHONE = { width: 390, height: 844 };
const shots = process.env.SHOTS_DIR;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
};

async function phone(browser: import('@playwright/test').Browser, locale = 'en-US'): Promise<BrowserContext> {
  return browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    locale,
    deviceScaleFactor: 2,
  });
}

test('scan the QR address, queue and accept from the phone while the desktop follows', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(allow(120_000));
  const players = await Promise.all(Array.from({ length: 10 }, (_, i) => signUpPlayer(request, `mob${i}x`)));
  await Promise.all(players.map((p) => linkVoiceByApi(request, p.token)));
  const [me, ...botPlayers] = players;
  const desktop = await openAs(browser, me);
  const bots: Bot[] = await Promise.all(botPlayers.map((p) => connectBot(baseURL as string, p.token)));
  try {
    await desktop.page.goto('/home');
    await desktop.page.getByTestId('open-qr').click();
    const qr = desktop.page.getByTestId('qr-image');
    await expect(qr).toBeVisible();
    await expect(qr).toHaveJSProperty('naturalWidth', 200);
    const url = (await qr.getAttribute('data-url')) as string;
    expect(url).toContain(`/m?u=${me.id}&t=`);
    expect(url).not.toContain(me.token);
    await shot(desktop.page, 'qr-dialog-desktop');
    await desktop.page.keyboard.press('Escape');

    // Scan-equivalent: the phone opens the address (same host as the test server).
    const ctx = await phone(browser);
    const mobile = await ctx.newPage();
    const path = new URL(url).pathname + new URL(url).search;
    await mobile.goto(path);
    await expect(mobile.getByTestId('mobile-queue')).toBeVisible();
    await expect(mobile).toHaveURL(/\/m$/);
    await expect(mobile.getByText(me.name)).toBeVisible();
    await shot(mobile, 'mobile-en');

    // The link works once.
    const other = await phone(browser);
    const reused = await other.newPage();
    await reused.goto(path);
    await expect(reused.getByTestId('mobile-signed-out')).toContainText('already used');
    await other.close();

    // Queue from the phone; the desktop shows it too.
    await mobile.getByRole('button', { name: 'Play' }).click();
    await expect(mobile.getByText('You are in the queue')).toBeVisible();
    await expect(desktop.page.getByTestId('queue-elapsed')).toBeVisible();
    await shot(mobile, 'mobile-queued');

    for (const bot of bots) await call(bot, 'queue-message', { event: 'join' });
    await expect(mobile.getByTestId('mobile-accept')).toBeVisible();
    await expect(desktop.page.getByTestId('accept-dialog')).toBeVisible();
    await expect(mobile.getByTestId('mobile-ready')).toContainText('0/10');
    // A reload during the accept phase brings the dialog back (GET /api/queue); without a click
    // since loading, the browser blocks the sound and the dialog says why and how to allow it.
    // Headless Chromium lets audio autoplay; emulate the rule of a fresh desktop profile (sound only
    // after the user has clicked or typed on the page since it loaded).
    await desktop.page.addInitScript(() => {
      const play = HTMLMediaElement.prototype.play;
      let activated = false;
      for (const type of ['pointerdown', 'keydown'])
        window.addEventListener(
          type,
          () => {
            activated = true;
          },
          true,
        );
      HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
        if (!activated)
          return Promise.reject(new DOMException('play() needs a user gesture', 'NotAllowedError'));
        return play.call(this);
      };
    });
    await desktop.page.reload();
    await expect(desktop.page.getByTestId('accept-dialog')).toBeVisible();
    await expect(desktop.page.getByTestId('sound-blocked')).toBeVisible();
    await shot(desktop.page, 'desktop-accept-sound-blocked');
    await desktop.page.mouse.click(5, 5);
    await expect(desktop.page.getByTestId('sound-blocked')).toBeHidden();
    for (const bot of bots) await call(bot, 'queue-message', { event: 'ready' });
    await expect(mobile.getByTestId('mobile-ready')).toContainText('9/10');
    await expect(desktop.page.getByTestId('accept-ready')).toContainText('9/10');
    await shot(mobile, 'mobile-accept');
    await shot(desktop.page, 'desktop-accept');

    await mobile.getByRole('button', { name: 'Accept' }).click();
    await expect(mobile.getByTestId('mobile-match')).toBeVisible();
    await expect(desktop.page).toHaveURL(/\/match\//);
    await shot(mobile, 'mobile-match');
    await mobile.getByRole('button', { name: 'Open match room' }).click();
    await expect(mobile).toHaveURL(/\/match\//);
    await ctx.close();
  } finally {
    for (const bot of bots) bot.disconnect();
    await desktop.context.close();
  }
});

test('mobile app, QR dialog and settings rows in German at 390 px', async ({ browser, request }) => {
  const me = await signUpPlayer(request, 'mobde');
  const ctx = await browser.newContext({
    viewport: PHONE,
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 2,
  });
  const page = await ctx.newPage();
  await page.goto('/about');
  await page.evaluate(
    ({ session }) => {
      localStorage.setItem('token', session.token);
      localStorage.setItem('user', JSON.stringify(session.user));
      localStorage.setItem('expiry', String(session.expiresAt));
      localStorage.setItem('locale', 'de');
    },
    { session: me.session },
  );
  await page.goto('/m');
  await expect(page.getByTestId('mobile-queue')).toContainText('Spieler in der Warteschlange');
  await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
  const manifest = await (await request.get('/manifest.webmanifest')).json();
  expect(manifest).toMatchObject({ start_url: '/m', display: 'standalone' });
  expect((await request.get('/icons/icon-192.png')).headers()['content-type']).toContain('image/png');
  expect((await request.get('/sw.js')).ok()).toBe(true);
  await shot(page, 'mobile-de');

  await page.goto('/settings');
  await expect(page.getByTestId('linked-discord')).toBeVisible();
  await page.getByTestId('linked-discord').getByRole('button', { name: 'Link-Code holen' }).click();
  await expect(page.getByTestId('discord-code')).toContainText('/link ');
  await page.getByTestId('linked-whatsapp').getByRole('button', { name: 'Verknüpfen' }).click();
  await page.getByTestId('whatsapp-phone').fill('0170 123');
  await page.getByRole('button', { name: 'Code senden' }).click();
  await expect(page.getByText('internationalen Format')).toBeVisible();
  await shot(page, 'settings-de');
  await ctx.close();
});

test('WhatsApp linking and toggling in settings (en)', async ({ browser, request }) => {
  const me = await signUpPlayer(request, 'mobwa');
  const { context, page } = await openAs(browser, me, { viewport: PHONE });
  try {
    await page.goto('/settings');
    await page.getByTestId('linked-whatsapp').getByRole('button', { name: 'Link' }).click();
    await page.getByTestId('whatsapp-phone').fill('+49 170 5550101');
    await page.getByRole('button', { name: 'Send code' }).click();
    await expect(page.getByText('We sent a code to +491705550101')).toBeVisible();
    const res = await request.get(`/api/dev/outbox?to=${me.id}`);
    const messages = ((await res.json()) as { docs: { channel: string; text: string }[] }).docs;
    const code = messages.find((m) => m.channel === 'whatsapp')?.text.match(/\d{4}/)?.[0] as string;
    await page.getByTestId('whatsapp-code').fill(code === '0000' ? '0001' : '0000');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('This code is wrong or expired')).toBeVisible();
    await page.getByTestId('whatsapp-code').fill(code);
    await page.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Messages go to +491705550101')).toBeVisible();
    await expect(page.getByText('We will notify you about events using WhatsApp')).toBeVisible();
    await page.getByLabel('Notify me on WhatsApp').click();
    await expect(page.getByText("You won't receive any WhatsApp messages going forward.")).toBeVisible();
    await shot(page, 'settings-en');
  } finally {
    await context.close();
  }
});
