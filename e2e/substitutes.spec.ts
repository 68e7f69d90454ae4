/**
 * The substitute journey (issue 14): ten socket bots queue, accept and draft; one of them never
 * comes onto the simulated game server (POST /api/dev/simulator/presence keeps it off). After the
 * connect deadline (MATCH_CONNECT_TIMEOUT_MS in playwright.config.ts) its place is offered to the
 * players waiting in the queue: two browsers (en desktop, de 390 px) get the offer; the first takes
 * it, lands in the match room on the no-show's team, and the match goes live; the other's offer
 * closes. On the way: the draft pool shows each player's reliability, and the no-show's player page
 * shows theirs. SHOTS_DIR=<dir> saves the offer dialog, the draft pool and the player page in en
 * and de at 1400 and 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { type Bot, botVetoTurn, call, connectBot, matchState, waitForVetoStep } from './helpers/match';
import { openAs, type Player, signUpPlayer } from './helpers/social';

const shotsDir = process.env.SHOTS_DIR;

/** The page at 1400 px and at 390 px (the page's locale is its own). */
async function shots(page: Page, name: string, locale: string) {
  if (!shotsDir) return;
  for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shotsDir}/${name}-${locale}-${width}.png` });
  }
}

test('a bot never connects: a queued browser player takes its place and the match goes live', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const botPlayers: Player[] = await Promise.all(
    Array.from({ length: 10 }, (_, i) => signUpPlayer(request, `sb${i}x`)),
  );
  const humans: Player[] = await Promise.all([signUpPlayer(request, 'subA'), signUpPlayer(request, 'subB')]);
  await Promise.all([...botPlayers, ...humans].map((p) => linkVoiceByApi(request, p.token)));
  const bots: Bot[] = await Promise.all(botPlayers.map((p) => connectBot(baseURL as string, p.token)));
  const botOf = new Map(botPlayers.map((p, i) => [p.id, bots[i]]));
  const looks = [
    { locale: 'en', viewport: { width: 1400, height: 900 } },
    { locale: 'de', viewport: { width: 390, height: 844 } },
  ];
  const sessions = await Promise.all(humans.map((p, i) => openAs(browser, p, looks[i])));
  const pages = sessions.map((s) => s.page);
  try {
    // The ten bots queue first: theirs is the accept phase. They accept; a match is made.
    const matchStarted = new Promise<string>((resolve) =>
      bots[0].once('PRIVATE_MATCH_START', ({ matchId }: { matchId: string }) => resolve(matchId)),
    );
    for (const bot of bots) await call(bot, 'queue-message', { event: 'join' });
    for (const bot of bots) await call(bot, 'queue-message', { event: 'ready' });
    const matchId = await matchStarted;

    // A player who is not a captain never comes onto the server.
    let state = await matchState(request, matchId);
    const captains = new Set([state.teamOne.captain._id, state.teamTwo.captain._id]);
    const noShow = botPlayers.find((p) => !captains.has(p.id)) as Player;
    const kept = await request.post('/api/dev/simulator/presence', {
      data: { userId: noShow.id, onServer: false },
    });
    expect(kept.ok()).toBe(true);

    // The browsers queue now, outside the accept phase; meanwhile they watch the draft, where the
    // captains see each player's reliability (new players: "New").
    for (const page of pages) {
      await page.goto('/home');
      await page.getByTestId('queue-widget').getByRole('button').click();
      await expect(page.getByTestId('queue-elapsed')).toBeVisible();
    }
    for (const [i, session] of sessions.entries()) {
      const watcher = await session.context.newPage();
      await watcher.goto(`/match/${matchId}`);
      await expect(watcher.getByTestId('pool-player').first().getByTestId('reliability')).toHaveText(
        i === 0 ? 'New' : 'Neu',
      );
      await shots(watcher, 'draft-reliability', looks[i].locale);
      await watcher.close();
    }

    for (;;) {
      state = await matchState(request, matchId);
      if (state.status !== 'playerveto' && state.status !== 'mapveto') break;
      if (state.turn === null) continue;
      await botVetoTurn(botOf.get(state[state.turn].captain._id) as Bot, matchId, state);
      await waitForVetoStep(request, matchId, state);
    }
    const team = (await matchState(request, matchId)).teamOne.players.some((p) => p._id === noShow.id)
      ? 'teamOne'
      : 'teamTwo';

    // The deadline passes with the bot off the server: both queued browsers get the offer.
    for (const page of pages)
      await expect(page.getByTestId('substitute-offer')).toBeVisible({ timeout: 15_000 });
    await shots(pages[0], 'substitute-offer', 'en');
    await shots(pages[1], 'substitute-offer', 'de');
    await pages[0].setViewportSize(looks[0].viewport);
    await pages[0].getByTestId('substitute-accept').click();

    // The taker lands in the room on the no-show's team; the other's offer closes.
    await expect(pages[0]).toHaveURL(`/match/${matchId}`);
    await expect(pages[0].getByTestId(`team-${team}`)).toContainText(humans[0].name);
    await expect(pages[0].getByTestId(`team-${team}`)).not.toContainText(noShow.name);
    await expect(pages[1].getByTestId('substitute-offer')).toBeHidden();
    // The simulator sees the substitute on its server; the game goes live and rounds come in.
    await expect(pages[0].getByTestId('connect-panel')).toBeHidden({ timeout: 15_000 });
    await expect(pages[0].getByTestId('match-status')).toHaveText(/Live|Finished/);
    await expect
      .poll(async () => {
        const s = await matchState(request, matchId);
        return s.score.teamOne + s.score.teamTwo;
      })
      .toBeGreaterThan(0);
    // The other browser is still queued.
    await expect(pages[1].getByTestId('queue-elapsed')).toBeVisible();

    // The no-show's player page: missed the one match they were called for.
    for (const [i, session] of sessions.entries()) {
      const profile = await session.context.newPage();
      await profile.goto(`/user/${noShow.id}`);
      await expect(profile.getByTestId('user-header').getByTestId('reliability')).toHaveText('0 %');
      await shots(profile, 'player-reliability', looks[i].locale);
      await profile.close();
    }
  } finally {
    for (const bot of bots) bot.disconnect();
    for (const s of sessions) await s.context.close();
  }
});
