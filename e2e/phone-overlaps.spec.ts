/**
 * Phone overlaps (issue 17 item 8), at 390 px in English and German, asserted by bounding boxes:
 * - the queue widget is one line (idle and while searching: short count, the notification opt-in
 *   as a bell in the line), stays beside the chat button, and a page scrolled to its end ends
 *   above both;
 * - in the match room's map veto, every map card a captain moves to with the keyboard is scrolled
 *   clear of the chat button (the page's scroll padding), and the room's end clears it too.
 * SHOTS_DIR=<dir> saves the screens (390 px and desktop, en/de).
 */
import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { type Bot, botVetoTurn, call, connectBot, matchState, waitForVetoStep } from './helpers/match';
import { openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 900 };
const shots = process.env.SHOTS_DIR;
const shot = async (page: Page, name: string) => {
  if (shots) await page.screenshot({ path: `${shots}/${name}.png` });
};

type Box = { x: number; y: number; width: number; height: number };

async function box(locator: Locator): Promise<Box> {
  const b = await locator.boundingBox();
  if (!b) throw new Error(`${locator} has no box`);
  return b;
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const LEAVE = /^(Leave|Verlassen)$/;
const PLAY = /^(Play|Spielen)$/;

/** One line: the widget is no taller than a small button's row, and its parts share one row. */
async function expectOneLine(page: Page, parts: Locator[]) {
  const widget = await box(page.getByTestId('queue-widget'));
  expect(widget.height, `widget ${JSON.stringify(widget)}`).toBeLessThanOrEqual(60);
  for (const part of parts) {
    const b = await box(part);
    const middle = b.y + b.height / 2;
    expect(Math.abs(middle - (widget.y + widget.height / 2)), `${part} off the line`).toBeLessThanOrEqual(6);
    expect(b.x + b.width, `${part} sticks out of the widget`).toBeLessThanOrEqual(widget.x + widget.width);
  }
  expect(overlaps(widget, await box(page.getByTestId('chat-launcher')))).toBe(false);
}

for (const locale of ['en', 'de'] as const) {
  test(`phone (${locale}): the queue widget is one line and pages scroll clear of it and the chat button`, async ({
    browser,
    request,
  }) => {
    const player = await signUpPlayer(request, `ovl${locale}`);
    await linkVoiceByApi(request, player.token);
    const { context, page } = await openAs(browser, player, { locale, viewport: PHONE });
    try {
      await page.goto('/settings');
      const widget = page.getByTestId('queue-widget');
      const play = widget.getByRole('button', { name: PLAY });
      await expect(play).toBeEnabled();
      await expectOneLine(page, [widget.getByTestId('queue-count'), play]);
      await shot(page, `widget-idle-${locale}-phone`);

      await play.click();
      await expect(widget.getByTestId('queue-elapsed')).toBeVisible();
      const leave = widget.getByRole('button', { name: LEAVE });
      // The desktop-notification opt-in is a bell in the line (headless Chromium has not been asked).
      const bell = widget.getByRole('button', {
        name: /^(Allow notifications|Benachrichtigungen erlauben)$/,
      });
      await expect(bell).toBeVisible();
      await expect(widget.getByTestId('queue-count')).toHaveText(
        locale === 'en' ? /^\d+ in queue$/ : /^\d+ (wartet|warten)$/,
      );
      await expectOneLine(page, [
        widget.getByTestId('queue-elapsed'),
        widget.getByTestId('queue-count'),
        bell,
        leave,
      ]);
      await shot(page, `widget-queued-${locale}-phone`);

      // The end of the page (Settings' log-out button) scrolls clear of the widget and the button.
      const logOut = page.getByRole('main').getByRole('button', { name: /^(Log out|Abmelden)$/ });
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const end = await box(logOut);
      expect(end.y + end.height).toBeLessThanOrEqual((await box(widget)).y);
      expect(end.y + end.height).toBeLessThanOrEqual((await box(page.getByTestId('chat-launcher'))).y);
      await shot(page, `widget-queued-end-${locale}-phone`);
      await leave.click();
      await expect(play).toBeVisible();
    } finally {
      await context.close();
    }
  });
}

/** Ten bots through the draft to the map veto; returns the match and the bot of each player. */
async function botsToMapVeto(request: Parameters<typeof signUpPlayer>[0], baseURL: string) {
  const players = await Promise.all(Array.from({ length: 10 }, (_, i) => signUpPlayer(request, `ovm${i}x`)));
  await Promise.all(players.map((p) => linkVoiceByApi(request, p.token)));
  const bots = await Promise.all(players.map((p) => connectBot(baseURL, p.token)));
  const botOf = new Map(players.map((p, i) => [p.id, bots[i]]));
  for (const bot of bots) await call(bot, 'queue-message', { event: 'join' });
  await new Promise((r) => setTimeout(r, 300));
  for (const bot of bots) await call(bot, 'queue-message', { event: 'ready' }).catch(() => {});
  const ids = new Set(players.map((p) => p.id));
  let matchId = '';
  await expect
    .poll(async () => {
      const res = await request.get('/api/match', { params: { status: 'live', limit: '50' } });
      for (const doc of ((await res.json()) as { docs: { _id: string }[] }).docs) {
        const s = await matchState(request, doc._id);
        if ([s.teamOne.captain, ...s.pool].some((m) => ids.has(m._id))) matchId = doc._id;
      }
      return matchId;
    })
    .not.toBe('');
  for (;;) {
    const state = await matchState(request, matchId);
    if (state.status !== 'playerveto') break;
    if (state.turn === null) continue;
    await botVetoTurn(botOf.get(state[state.turn].captain._id) as Bot, matchId, state);
    await waitForVetoStep(request, matchId, state);
  }
  return { players, bots, matchId };
}

async function captainOnTurn(browser: Browser, players: Player[], captainId: string, locale: string) {
  const captain = players.find((p) => p.id === captainId) as Player;
  return openAs(browser, captain, { locale, viewport: PHONE });
}

test('phone (en, de): in the map veto every card a captain tabs to is clear of the chat button', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(allow(120_000));
  const { players, bots, matchId } = await botsToMapVeto(request, baseURL as string);
  try {
    const state = await matchState(request, matchId);
    expect(state.status).toBe('mapveto');
    const onTurn = state[state.turn ?? 'teamOne'].captain._id;
    for (const locale of ['en', 'de']) {
      const { context, page } = await captainOnTurn(browser, players, onTurn, locale);
      await page.goto(`/match/${matchId}`);
      const cards = page.getByTestId('map-veto').locator('[data-testid^="map-"]:enabled');
      await expect(cards).toHaveCount(state.mapVeto.pool.length);
      await shot(page, `veto-${locale}-phone`);
      const launcher = page.getByTestId('chat-launcher');
      await expect(launcher).toBeVisible();
      // From the top of the room, the keyboard moves to each card: the page scrolls it into view,
      // above the chat button. The last card is the one the audit found covered.
      await page.evaluate(() => window.scrollTo(0, 0));
      for (let i = 0; i < state.mapVeto.pool.length; i++) {
        const card = cards.nth(i);
        await card.focus();
        await expect(card).toBeFocused();
        const b = await box(card);
        expect(b.y + b.height, `card ${i} below the window`).toBeLessThanOrEqual(PHONE.height);
        expect(overlaps(b, await box(launcher)), `card ${i} ${JSON.stringify(b)} under the chat button`).toBe(
          false,
        );
      }
      await shot(page, `veto-last-card-${locale}-phone`);
      // The room's end (the match chat's panel) scrolls clear of the button.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const chat = await box(page.getByTestId('match-chat'));
      expect(chat.y + chat.height).toBeLessThanOrEqual((await box(launcher)).y);
      await context.close();
    }
    if (shots) {
      for (const locale of ['en', 'de']) {
        const { context, page } = await openAs(browser, players.find((p) => p.id === onTurn) as Player, {
          locale,
          viewport: DESKTOP,
        });
        await page.goto(`/match/${matchId}`);
        await page.getByTestId('map-veto').waitFor();
        await page.waitForTimeout(800);
        await shot(page, `veto-${locale}-desktop`);
        await context.close();
      }
    }
  } finally {
    for (const bot of bots) bot.disconnect();
  }
});
