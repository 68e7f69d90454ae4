/**
 * Competition journeys: the leaderboard logged out; an admin creates a drop in /admin/drops, the
 * engine awards it during a live (simulated) match — rolled at once through the dev-tools roll
 * call, which ignores the odds but keeps the eligibility rules — every open browser shows the
 * drop toast, and the winner's sidebar badge shows and clears when they open their drops.
 */
import { expect, test } from '@playwright/test';
import { botsToLiveMatch, signUpAdmin } from './helpers/competition';
import { openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

test('the leaderboard is visible logged out', async ({ page }) => {
  await page.goto('/leaderboard');
  await expect(page.getByRole('heading', { name: 'Leaderboard' })).toBeVisible();
  await expect(page.getByRole('table')).toBeVisible();
  await page.goto('/season1');
  await expect(page.getByTestId('season-dates')).toBeVisible();
});

test('an admin creates a drop, the engine awards it in a live match, everyone sees the toast', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(allow(150_000));
  const admin = await signUpAdmin(request);
  const adminSession = await openAs(browser, admin);
  const adminPage = adminSession.page;
  await adminPage.goto('/admin/drops');
  await adminPage.getByRole('button', { name: 'New drop' }).click();
  const dialog = adminPage.getByRole('dialog');
  await dialog.getByTestId('drop-name').fill('E2E Golden Knife');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(adminPage.getByTestId('catalogue-row').filter({ hasText: 'E2E Golden Knife' })).toBeVisible();

  // A second browser: a player (not in the match) watching the leaderboard. Both browsers are
  // connected (own card online, overlays loaded) before the match goes live: the simulated game
  // ends within seconds, and the roll must happen while it is live.
  const watcherPlayer = await signUpPlayer(request, 'cw');
  const watcher = await openAs(browser, watcherPlayer);
  await watcher.page.goto('/leaderboard');
  // A new player is unranked until the placement matches, and the page says so.
  await expect(watcher.page.getByTestId('leaderboard-unranked')).toBeVisible();
  for (const page of [adminPage, watcher.page])
    await expect(page.getByText('Online', { exact: true }).first()).toBeVisible();

  const { players, bots, matchId } = await botsToLiveMatch(request, baseURL as string, 'cp');
  try {
    const roll = await request.post('/api/drops/engine/roll', {
      headers: { authorization: `Bearer ${admin.token}` },
      data: { force: true },
    });
    expect(roll.status()).toBe(200);
    const result = (await roll.json()) as { outcome: string; award: { ownerId: string; matchId: string } };
    expect(result.outcome).toBe('drop');
    expect(result.award.matchId).toBe(matchId);
    const winner = players.find((p) => p.id === result.award.ownerId);
    expect(winner).toBeDefined();
    for (const page of [adminPage, watcher.page]) {
      await expect(page.getByTestId('drop-toast')).toContainText(
        `${winner?.name} received a drop: E2E Golden Knife`,
      );
    }

    // The winner's badge (a fresh login carries unseenDropsCount) shows and clears on opening drops.
    if (!winner) return;
    const login = await request.post('/api/login', {
      data: { email: winner.email, password: winner.password },
    });
    const session = await login.json();
    const own = await openAs(browser, { ...winner, session, token: session.token });
    await own.page.goto('/leaderboard');
    const drops = own.page.locator(`a[href="/user/${winner.id}/drops"]`).first();
    await expect(drops).toContainText('1');
    await drops.click();
    await expect(own.page.getByTestId('drop-card').filter({ hasText: 'E2E Golden Knife' })).toBeVisible();
    await expect(drops).not.toContainText('1');
    await own.context.close();
  } finally {
    for (const bot of bots) bot.disconnect();
    await adminSession.context.close();
    await watcher.context.close();
  }
});
