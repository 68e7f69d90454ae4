/**
 * Match voice channels on the simulated TeamSpeak (docs/contract.md §4 "Match voice channels"):
 * ten players with linked, connected voice identities play a match; when it goes live every
 * player's room shows both team channels (`openpug #<match> <team>`) with all ten players in
 * them, and once the match is over the panel is gone (the channels are deleted).
 * SHOTS_DIR=<dir> saves the panel in English and German, at desktop width and at 390 px.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import { botsToLiveMatch } from './helpers/competition';
import { matchState } from './helpers/match';
import { openAs } from './helpers/social';
import { allow } from './helpers/time';

const shotsDir = process.env.SHOTS_DIR;
const desktop = { width: 1400, height: 900 };
const phone = { width: 390, height: 844 };
/** Two rooms per match (the live game lasts seconds with 300 ms rounds); two matches cover en/de × widths. */
const runs = [
  [
    { locale: 'en', viewport: desktop },
    { locale: 'de', viewport: phone },
  ],
  [
    { locale: 'de', viewport: desktop },
    { locale: 'en', viewport: phone },
  ],
] as const;

/** What the voice panel shows, read in one go (the live window is short). */
const readPanel = (page: Page) =>
  page.evaluate(() => {
    const panel = document.querySelector('[data-testid="voice-panel"]');
    if (!panel) return null;
    const names = Array.from(
      panel.querySelectorAll('[data-testid="voice-channel-name"]'),
      (e) => e.textContent,
    );
    const players = panel.querySelectorAll('[data-testid="voice-player"]').length;
    const inChannel = panel.querySelectorAll('[data-testid="voice-player"][data-in-channel="true"]').length;
    return { names, players, inChannel };
  });

for (const [run, looks] of runs.entries()) {
  test(`the players are moved into their team channels while the match is live (${looks.map((l) => `${l.locale}-${l.viewport.width}`).join(', ')})`, async ({
    browser,
    request,
    baseURL,
  }) => {
    test.setTimeout(allow(240_000));
    const rooms: { context: BrowserContext; page: Page; look: (typeof looks)[number] }[] = [];
    // The rooms open before the veto ends, so they are there when the match goes live.
    const { bots, matchId } = await botsToLiveMatch(
      request,
      baseURL as string,
      `vc${run}`,
      async (id, players) => {
        for (const [i, look] of looks.entries()) {
          const { context, page } = await openAs(browser, players[i], look);
          await page.goto(`/match/${id}`);
          rooms.push({ context, page, look });
        }
      },
    );
    const channel = new RegExp(`^openpug #${matchId.slice(0, 8)} `);
    await Promise.all(
      rooms.map(async ({ page, look }) => {
        // Every player's identity is connected (linked through the voice bot): all ten are moved in.
        await expect
          .poll(async () => (await readPanel(page))?.inChannel ?? 0, {
            timeout: allow(60_000),
            intervals: [100],
          })
          .toBe(10);
        if (shotsDir)
          await page.screenshot({
            path: `${shotsDir}/match-voice-${look.locale}-${look.viewport.width}.png`,
            fullPage: true,
          });
        const seen = await readPanel(page);
        expect(seen?.players).toBe(10);
        expect(seen?.names).toHaveLength(2);
        for (const name of seen?.names ?? []) expect(name).toMatch(channel);
      }),
    );
    // Once the match is over, the channels are gone and so is the panel.
    await expect
      .poll(async () => (await matchState(request, matchId)).status, { timeout: allow(90_000) })
      .toBe('finished');
    for (const { page } of rooms)
      await expect(page.getByTestId('voice-panel')).toBeHidden({ timeout: allow(15_000) });
    for (const bot of bots) bot.disconnect();
    for (const { context } of rooms) await context.close();
  });
}
