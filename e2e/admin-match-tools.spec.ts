/**
 * Admin match tools in the browser: ten bots play a match to its end on the simulator; two of its
 * players have their own page open (Elo and match history). An admin opens the match page's admin
 * tools and corrects the result (the score the other way round, with a reason): both players'
 * Elo and their match row change live, without a reload (PRIVATE_ELO_CORRECTED), and the room
 * shows the new winner. With SHOTS_DIR set, the admin panel is photographed in English and German
 * at desktop width and at 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { botsToLiveMatch, signUpAdmin } from './helpers/competition';
import { matchState } from './helpers/match';
import { openAs } from './helpers/social';

const shots = process.env.SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 900 };

/** The admin tools dialog on the match page. */
async function openTools(page: Page, matchId: string) {
  await page.goto(`/match/${matchId}`);
  await page.getByTestId('admin-match-tools').click();
  return page.getByRole('dialog');
}

test("an admin corrects a finished match's result; both players' Elo and history follow live", async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(shots ? 120_000 : 60_000);
  const admin = await signUpAdmin(request);
  const { players, bots, matchId } = await botsToLiveMatch(request, baseURL as string, 'mt');
  const contexts = [];
  try {
    await expect
      .poll(async () => (await matchState(request, matchId)).status, { timeout: 40_000 })
      .toBe('finished');
    const played = (await (await request.get(`/api/match/${matchId}`)).json()) as {
      winner: 'teamOne' | 'teamTwo';
      score: { teamOne: number; teamTwo: number };
      teamOne: { name: string; players: { _id: string }[] };
      teamTwo: { name: string; players: { _id: string }[] };
    };
    const winners = played[played.winner].players.map((p) => p._id);
    const winner = players.find((p) => p.id === winners[0]);
    const loser = players.find((p) => !winners.includes(p.id));
    if (!winner || !loser) throw new Error('no players on both sides');

    // Both players watch their own page: Elo in the header, the match in their history.
    const watching = [];
    for (const [player, elo, change] of [
      [winner, '212', 'W +12'],
      [loser, '190', 'L -10'],
    ] as const) {
      const { context, page } = await openAs(browser, player);
      contexts.push(context);
      await page.goto(`/user/${player.id}`);
      await expect(page.getByTestId('user-header')).toContainText(elo);
      await expect(page.getByTestId('match-row').first()).toContainText(change);
      watching.push(page);
    }

    const { context, page } = await openAs(browser, admin);
    contexts.push(context);
    const dialog = await openTools(page, matchId);
    await expect(dialog.getByTestId('tool-correct')).toHaveAttribute('aria-pressed', 'true');
    const turned = { teamOne: played.score.teamTwo, teamTwo: played.score.teamOne };
    await dialog.getByTestId('tools-score-teamOne').fill(String(turned.teamOne));
    await dialog.getByTestId('tools-score-teamTwo').fill(String(turned.teamTwo));
    await dialog.getByTestId('tools-reason').fill('The server swapped the sides');
    await dialog.getByTestId('tools-submit').click();
    await expect(dialog).toBeHidden();
    const loserTeam = played.winner === 'teamOne' ? 'teamTwo' : 'teamOne';
    // The room follows at once: the other team has won.
    await expect(page.getByTestId('match-finished')).toContainText(played[loserTeam].name);
    expect((await matchState(request, matchId)) as unknown).toMatchObject({
      winner: loserTeam,
      score: turned,
    });

    // Live in both players' browsers: the header Elo and the match row (score, result, change).
    const [winnerPage, loserPage] = watching;
    await expect(winnerPage.getByTestId('user-header')).toContainText('190');
    await expect(winnerPage.getByTestId('match-row').first()).toContainText('L -10');
    await expect(winnerPage.getByTestId('match-row').first()).toContainText(
      `${turned.teamOne} : ${turned.teamTwo}`,
    );
    await expect(loserPage.getByTestId('user-header')).toContainText('212');
    await expect(loserPage.getByTestId('match-row').first()).toContainText('W +12');

    if (shots) {
      for (const [locale, viewport, tag] of [
        ['en', DESKTOP, 'desktop'],
        ['en', PHONE, '390'],
        ['de', DESKTOP, 'desktop'],
        ['de', PHONE, '390'],
      ] as const) {
        const shot = await openAs(browser, admin, { locale, viewport });
        const d = await openTools(shot.page, matchId);
        await d
          .getByTestId('tools-reason')
          .fill(locale === 'de' ? 'Falsche Seiten gemeldet' : 'Wrong sides reported');
        await shot.page.screenshot({ path: `${shots}/match-tools-${locale}-${tag}.png` });
        await shot.context.close();
      }
    }
  } finally {
    for (const bot of bots) bot.disconnect();
    for (const c of contexts) await c.close();
  }
});
