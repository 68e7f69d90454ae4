/**
 * The substitute journey (issue 14): ten socket bots queue, accept and draft; one of them never
 * comes onto the simulated game server (POST /api/dev/simulator/presence keeps it off). After the
 * connect deadline (MATCH_CONNECT_TIMEOUT_MS in playwright.config.ts) its place is offered to the
 * players waiting in the queue: two browsers (en desktop, de 390 px) get the offer; the first takes
 * it, lands in the match room on the no-show's team, and the match goes live; the other's offer
 * closes. The match plays to its end (the substitute on the server from the first round: rated);
 * the substitute and a player of the other team watch their own pages while an admin corrects the
 * result on the match page (the score the other way round, with a reason): both players' Elo and
 * match row change live, without a reload (PRIVATE_ELO_CORRECTED), and the room shows the new
 * winner. On the way: the draft pool shows each player's reliability, and the no-show's player
 * page shows theirs. SHOTS_DIR=<dir> saves the offer dialog, the draft pool, the player page and
 * the admin tools in en and de at 1400 and 390 px.
 */
import { type Browser, type BrowserContext, expect, type Page, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { signUpAdmin } from './helpers/competition';
import { type Bot, botVetoTurn, call, connectBot, matchState, waitForVetoStep } from './helpers/match';
import { openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const shotsDir = process.env.SHOTS_DIR;

/** The page at 1400 px and at 390 px (the page's locale is its own). */
async function shots(page: Page, name: string, locale: string) {
  if (!shotsDir) return;
  for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await page.screenshot({ path: `${shotsDir}/${name}-${locale}-${width}.png` });
  }
}

/** The admin tools dialog on the match page. */
async function openTools(page: Page, matchId: string) {
  await page.goto(`/match/${matchId}`);
  await page.getByTestId('admin-match-tools').click();
  return page.getByRole('dialog');
}

/** The admin tools with a reason typed, in en and de at 1400 and 390 px. */
async function toolShots(browser: Browser, admin: Player, matchId: string) {
  if (!shotsDir) return;
  for (const locale of ['en', 'de']) {
    const shot = await openAs(browser, admin, { locale });
    const dialog = await openTools(shot.page, matchId);
    await dialog
      .getByTestId('tools-reason')
      .fill(locale === 'de' ? 'Falsche Seiten gemeldet' : 'Wrong sides reported');
    await shots(shot.page, 'match-tools', locale);
    await shot.context.close();
  }
}

interface PlayedMatch {
  winner: 'teamOne' | 'teamTwo';
  score: { teamOne: number; teamTwo: number };
  teamOne: { name: string; players: { _id: string }[] };
  teamTwo: { name: string; players: { _id: string }[] };
}

test("a bot never connects: a queued browser player takes its place, the match goes live and ends, and an admin's correction reaches both players' browsers", async ({
  browser,
  request,
  baseURL,
}) => {
  // A match drafted, played and corrected with four browsers: minutes on a busy machine.
  test.setTimeout(allow(shotsDir ? 360_000 : 240_000));
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
  const contexts: BrowserContext[] = [];
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
      await expect(page.getByTestId('substitute-offer')).toBeVisible({ timeout: allow(15_000) });
    await shots(pages[0], 'substitute-offer', 'en');
    await shots(pages[1], 'substitute-offer', 'de');
    await pages[0].setViewportSize(looks[0].viewport);
    await pages[0].getByTestId('substitute-accept').click();

    // The taker lands in the room on the no-show's team; the other's offer closes.
    // PRIVATE_MATCH_START follows the substitute's status patch, whose listeners include the join
    // to the match's chat room (Synapse): seconds on a busy machine.
    await expect(pages[0]).toHaveURL(`/match/${matchId}`, { timeout: allow(45_000) });
    await expect(pages[0].getByTestId(`team-${team}`)).toContainText(humans[0].name);
    await expect(pages[0].getByTestId(`team-${team}`)).not.toContainText(noShow.name);
    await expect(pages[1].getByTestId('substitute-offer')).toBeHidden();
    // The simulator sees the substitute on its server; the game goes live and rounds come in.
    await expect(pages[0].getByTestId('connect-panel')).toBeHidden({ timeout: allow(15_000) });
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

    // The match plays to its end.
    await expect
      .poll(async () => (await matchState(request, matchId)).status, { timeout: allow(40_000) })
      .toBe('finished');
    const played = (await (await request.get(`/api/match/${matchId}`)).json()) as PlayedMatch;
    const otherTeam = team === 'teamOne' ? 'teamTwo' : 'teamOne';
    const otherIds = new Set(played[otherTeam].players.map((p) => p._id));
    const other = botPlayers.find((p) => otherIds.has(p.id)) as Player;
    const subWon = played.winner === team;
    const [won, lost] = [
      { elo: '212', row: 'W +12' },
      { elo: '190', row: 'L -10' },
    ];

    // The substitute (rated: on the server for every round) and a player of the other team watch
    // their own pages: Elo in the header, the match in their history.
    const subPage = pages[0];
    await subPage.goto(`/user/${humans[0].id}`);
    const otherSession = await openAs(browser, other);
    contexts.push(otherSession.context);
    const otherPage = otherSession.page;
    await otherPage.goto(`/user/${other.id}`);
    for (const [page, now] of [
      [subPage, subWon ? won : lost],
      [otherPage, subWon ? lost : won],
    ] as const) {
      await expect(page.getByTestId('user-header')).toContainText(now.elo);
      await expect(page.getByTestId('match-row').first()).toContainText(now.row);
    }

    // An admin corrects the result on the match page: the score the other way round.
    const admin = await signUpAdmin(request);
    const adminSession = await openAs(browser, admin);
    contexts.push(adminSession.context);
    const dialog = await openTools(adminSession.page, matchId);
    await expect(dialog.getByTestId('tool-correct')).toHaveAttribute('aria-pressed', 'true');
    const turned = { teamOne: played.score.teamTwo, teamTwo: played.score.teamOne };
    await dialog.getByTestId('tools-score-teamOne').fill(String(turned.teamOne));
    await dialog.getByTestId('tools-score-teamTwo').fill(String(turned.teamTwo));
    await dialog.getByTestId('tools-reason').fill('The server swapped the sides');
    await dialog.getByTestId('tools-submit').click();
    await expect(dialog).toBeHidden();
    const newWinner = played.winner === 'teamOne' ? 'teamTwo' : 'teamOne';
    // The room follows at once: the other team has won.
    await expect(adminSession.page.getByTestId('match-finished')).toContainText(played[newWinner].name);
    expect((await matchState(request, matchId)) as unknown).toMatchObject({
      winner: newWinner,
      score: turned,
    });

    // Live in both players' browsers: the header Elo and the match row (score, result, change).
    for (const [page, now] of [
      [subPage, subWon ? lost : won],
      [otherPage, subWon ? won : lost],
    ] as const) {
      await expect(page.getByTestId('user-header')).toContainText(now.elo);
      await expect(page.getByTestId('match-row').first()).toContainText(now.row);
      await expect(page.getByTestId('match-row').first()).toContainText(
        `${turned.teamOne} : ${turned.teamTwo}`,
      );
    }
    await toolShots(browser, admin, matchId);
  } finally {
    for (const bot of bots) bot.disconnect();
    for (const s of sessions) await s.context.close();
    for (const c of contexts) await c.close();
  }
});
