/**
 * The matchmaking journey (issue 5): two players in browsers and eight socket bots go from the
 * queue through the accept phase, captain picks and map veto, the live game on the embedded
 * simulator (SIM_ROUND_MS in playwright.config.ts) to the result dialog with the Elo change.
 * Bots act when their captain is on turn; browsers click when theirs is.
 * Along the way (issue 18): the queue widget's fill estimate, both browsers' win chance in the
 * draft (checked against the Elo logistic formula), the home screen's heatmap with the new match,
 * and the admins' calibration page.
 * SHOTS_DIR=<dir> also saves screenshots of each phase; MATCH_SWAP=1 swaps language and width.
 */
import { expect, type Page, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { signUpAdmin } from './helpers/competition';
import { type Bot, botVetoTurn, call, connectBot, matchState, waitForVetoStep } from './helpers/match';
import { openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const shotsDir = process.env.SHOTS_DIR;
const swap = process.env.MATCH_SWAP === '1';
const looks = [
  { locale: swap ? 'de' : 'en', viewport: swap ? { width: 390, height: 844 } : { width: 1400, height: 900 } },
  { locale: swap ? 'en' : 'de', viewport: swap ? { width: 1400, height: 900 } : { width: 390, height: 844 } },
];

/** Team one's win chance, docs/contract.md §9: 1 / (1 + 10^((mean₂ − mean₁) / 400)). */
const winChance = (one: number[], two: number[]) => {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  return 1 / (1 + 10 ** ((mean(two) - mean(one)) / 400));
};

async function shot(page: Page, name: string, index: number) {
  if (!shotsDir) return;
  const look = looks[index];
  await page.screenshot({
    path: `${shotsDir}/${name}-${look.locale}-${look.viewport.width}.png`,
    fullPage: name.startsWith('match'),
  });
}

test('two browsers and eight bots play a match from the queue to the result', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(allow(180_000));
  const players: Player[] = await Promise.all(
    Array.from({ length: 10 }, (_, i) => signUpPlayer(request, `mm${i}x`)),
  );
  await Promise.all(players.map((p) => linkVoiceByApi(request, p.token)));
  const [a, b, ...botPlayers] = players;
  const humans = [a, b];

  const sessions = await Promise.all(humans.map((p, i) => openAs(browser, p, looks[i])));
  const pages = sessions.map((s) => s.page);
  const bots: Bot[] = await Promise.all(botPlayers.map((p) => connectBot(baseURL as string, p.token)));
  const botOf = new Map(botPlayers.map((p, i) => [p.id, bots[i]]));

  try {
    // ---- queue ----
    for (const [i, page] of pages.entries()) {
      await page.goto('/home');
      const widget = page.getByTestId('queue-widget');
      await expect(widget.getByRole('button')).toBeEnabled();
      await shot(page, 'queue-idle', i);
      await widget.getByRole('button').click();
      await expect(page.getByTestId('queue-elapsed')).toBeVisible();
    }
    await expect(pages[0].getByTestId('queue-count')).toContainText('2');
    // Both players' widgets (desktop and 390 px, en and de) keep the count clear of the button.
    for (const page of pages) {
      const widget = page.getByTestId('queue-widget');
      await expect(widget.getByTestId('queue-count')).toContainText('2');
      const count = await widget.getByTestId('queue-count').boundingBox();
      const leave = await widget.getByRole('button', { name: /^(Leave|Verlassen)$/ }).boundingBox();
      const apart = count && leave && (count.x + count.width <= leave.x || count.y >= leave.y + leave.height);
      expect(apart, `queue count ${JSON.stringify(count)} overlaps the button ${JSON.stringify(leave)}`).toBe(
        true,
      );
    }
    // The fill estimate, or "not enough data" on a young server: never a guess without a basis.
    for (const page of pages) {
      const eta = page.getByTestId('queue-eta');
      await expect(eta).toHaveAttribute('data-status', /^(estimate|notEnoughData)$/);
      await expect(eta).toHaveText(/(~\d+ min|~\d+ Min\.|Not enough data|Noch zu wenige Daten)/);
    }
    await shot(pages[0], 'queue-searching', 0);
    await shot(pages[1], 'queue-searching', 1);
    // A newly opened tab restores the widget from GET /api/queue. (A reload of the only tab closes
    // the user's last socket, and the server then takes them out of the queue.)
    const extra = await sessions[1].context.newPage();
    await extra.goto('/home');
    await expect(extra.getByTestId('queue-elapsed')).toBeVisible();
    await extra.close();

    for (const bot of bots) await call(bot, 'queue-message', { event: 'join' });

    // ---- accept phase ----
    for (const page of pages) await expect(page.getByTestId('accept-dialog')).toBeVisible();
    await expect(pages[0].getByTestId('accept-ready')).toContainText('0/10');
    await shot(pages[0], 'accept', 0);
    for (const bot of bots) await call(bot, 'queue-message', { event: 'ready' });
    await expect(pages[0].getByTestId('accept-ready')).toContainText('8/10');
    await expect(pages[0].getByTestId('accept-decline')).toBeVisible();
    await pages[0]
      .getByTestId('accept-dialog')
      .getByRole('button', { name: /^(Accept|Annehmen)$/ })
      .click();
    await expect(pages[0].getByTestId('accept-decline')).toBeHidden();
    await expect(pages[1].getByTestId('accept-ready')).toContainText('9/10');
    await expect(pages[0].getByTestId('accept-waiting')).toBeVisible();
    await shot(pages[1], 'accept', 1);
    await pages[1]
      .getByTestId('accept-dialog')
      .getByRole('button', { name: /^(Accept|Annehmen)$/ })
      .click();

    // ---- match room: captain picks ----
    for (const page of pages) await expect(page).toHaveURL(/\/match\/[^/]+$/);
    const matchId = pages[0].url().split('/match/')[1];
    await expect(pages[1]).toHaveURL(`/match/${matchId}`);
    await expect(pages[0]).toHaveTitle('Match Page');
    await expect(pages[0].getByTestId('pick-pool')).toBeVisible();
    // Both browsers (captain or not) see the win chance of the teams as picked so far.
    const draft = (await matchState(request, matchId)) as unknown as {
      teamOne: { players: { elo: number }[] };
      teamTwo: { players: { elo: number }[] };
    };
    const expected = winChance(
      draft.teamOne.players.map((p) => p.elo),
      draft.teamTwo.players.map((p) => p.elo),
    );
    for (const page of pages) {
      const chance = page.getByTestId('win-probability');
      await expect(chance).toContainText(`${Math.round(expected * 100)} %`);
      expect(Number(await chance.getAttribute('data-p'))).toBeCloseTo(expected, 3);
    }
    await shot(pages[0], 'match-playerveto', 0);
    await shot(pages[1], 'match-playerveto', 1);
    // The sidebar's Match Lobby button points at the room.
    if ((pages[0].viewportSize()?.width ?? 0) >= 900)
      await expect(pages[0].locator(`a[href="/match/${matchId}"]`).first()).toBeVisible();

    let browserActions = 0;
    let steps = 0;
    for (;;) {
      const state = await matchState(request, matchId);
      if (state.status !== 'playerveto' && state.status !== 'mapveto') break;
      if (state.turn === null) continue;
      const captainId = state[state.turn].captain._id;
      const humanIndex = humans.findIndex((h) => h.id === captainId);
      if (state.status === 'mapveto' && steps === 0) {
        steps++;
        await shot(pages[0], 'match-mapveto', 0);
        await shot(pages[1], 'match-mapveto', 1);
      }
      if (humanIndex >= 0) {
        const page = pages[humanIndex];
        await expect(page.getByTestId('turn-banner')).toBeVisible();
        // The other browser sees whose turn it is and cannot click.
        const other = pages[1 - humanIndex];
        if (state.status === 'playerveto') {
          await expect(other.getByTestId('pool-player').first()).toBeDisabled();
          await page.getByTestId('pool-player').and(page.locator(':enabled')).first().click();
        } else {
          await page.locator('[data-testid^="map-"]:enabled').first().click();
        }
        browserActions++;
      } else {
        await botVetoTurn(botOf.get(captainId) as Bot, matchId, state);
      }
      await waitForVetoStep(request, matchId, state);
    }
    test.info().annotations.push({ type: 'browser captain actions', description: String(browserActions) });
    // (map cards with ban marks are checked in the screenshots; the room moves on at once)

    // ---- live game ----
    for (const page of pages) {
      await expect(page.getByTestId('match-status')).toHaveText(/Live|Finished|Beendet/);
    }
    await expect(
      pages[0].getByTestId('connect-command').or(pages[0].getByTestId('match-finished')),
    ).toBeVisible();
    await shot(pages[0], 'match-active', 0);
    await shot(pages[1], 'match-active', 1);
    // Logged-out spectators see the live state with the GOTV address only.
    const spectator = await browser.newContext();
    const spectatorPage = await spectator.newPage();
    await spectatorPage.goto(`/match/${matchId}`);
    await expect(spectatorPage.getByTestId('match-score')).toBeVisible();
    await expect(spectatorPage.getByTestId('connect-command')).toHaveCount(0);

    // ---- result ----
    for (const page of pages) {
      const dialog = page.getByTestId('result-dialog');
      await expect(dialog).toBeVisible({ timeout: allow(60_000) });
      await expect(page.getByTestId('result-change')).toHaveText(/^(\+12|−10)$/);
      await expect(page.getByTestId('result-text')).toContainText(/212|190/);
    }
    await shot(pages[0], 'result', 0);
    await shot(pages[1], 'result', 1);
    const finished = await matchState(request, matchId);
    expect(finished.status).toBe('finished');
    for (const page of pages) await page.getByTestId('result-dialog').getByRole('button').last().click();
    await expect(pages[0].getByTestId('match-finished')).toBeVisible();
    await pages[0].getByTestId('tab-scoreboard').click();
    await expect(pages[0].getByTestId('score-row')).toHaveCount(10);
    await shot(pages[0], 'match-finished', 0);
    await shot(pages[1], 'match-finished', 1);
    // The match shows on the landing and in the player's matches.
    await pages[0].goto('/');
    await expect(pages[0].locator(`a[href="/match/${matchId}"]`).first()).toBeVisible();
    await shot(pages[0], 'landing', 0);
    await pages[1].goto(`/user/${b.id}/matches`);
    await expect(pages[1].getByTestId('match-row').first()).toBeVisible();
    await shot(pages[1], 'user-matches', 1);
    // The home screen's heatmap counts this match in the player's time zone.
    for (const [i, page] of pages.entries()) {
      await page.goto('/home');
      const heatmap = page.getByTestId('starts-heatmap');
      await expect(heatmap.getByTestId('heatmap-busiest')).toBeVisible();
      const counts = await heatmap
        .locator('td[data-count]')
        .evaluateAll((cells) => cells.map((c) => Number(c.getAttribute('data-count'))));
      expect(counts).toHaveLength(7 * 24);
      expect(counts.reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(1);
      await heatmap.scrollIntoViewIfNeeded();
      await shot(page, 'home-heatmap', i);
    }
    // The admins' calibration page: this server has too few finished matches for a Brier score.
    const admin = await signUpAdmin(request);
    const adminSession = await openAs(browser, admin, looks[0]);
    try {
      await adminSession.page.goto('/admin/calibration');
      await expect(
        adminSession.page
          .getByTestId('calibration-not-enough')
          .or(adminSession.page.getByTestId('calibration-brier')),
      ).toBeVisible();
      await shot(adminSession.page, 'admin-calibration', 0);
    } finally {
      await adminSession.context.close();
    }
    await spectator.close();
  } finally {
    for (const bot of bots) bot.disconnect();
    for (const s of sessions) await s.context.close();
  }
});
