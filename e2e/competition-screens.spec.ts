/**
 * Screenshots of the competition screens (en/de, desktop and 390 px phone width). Runs only with
 * SHOTS_DIR set: SHOTS_DIR=/tmp/shots npx playwright test e2e/competition-screens.spec.ts
 */
import { expect, test } from '@playwright/test';
import { botsToLiveMatch, signUpAdmin } from './helpers/competition';
import { matchState } from './helpers/match';
import { openAs } from './helpers/social';
import { allow } from './helpers/time';

const dir = process.env.SHOTS_DIR;
test.skip(!dir, 'screenshots only with SHOTS_DIR');

test('competition screens', async ({ browser, request, baseURL }) => {
  test.setTimeout(allow(240_000));
  const admin = await signUpAdmin(request);
  const auth = { authorization: `Bearer ${admin.token}` };
  for (const drop of [
    { name: 'Golden Knife', image: 'knife', rarity: 'legendary', amount: 1, unlocksBanner: 'inferno' },
    { name: 'Neon Gloves', image: 'gloves', rarity: 'rare', amount: 3 },
    { name: 'Smiley Sticker', image: 'sticker', rarity: 'uncommon', amount: 10, unlocksSound: 'chime.mp3' },
    { name: 'Supply Crate', image: 'crate', rarity: 'common', amount: 50 },
  ])
    expect((await request.post('/api/drops/', { headers: auth, data: drop })).status()).toBe(201);
  const { players, bots, matchId } = await botsToLiveMatch(request, baseURL as string, 'sh');
  for (let i = 0; i < 3; i++)
    await request.post('/api/drops/engine/roll', { headers: auth, data: { force: true } });
  await expect
    .poll(async () => (await matchState(request, matchId)).status, { timeout: allow(90_000) })
    .toBe('finished');
  for (const bot of bots) bot.disconnect();
  const res = await request.get(`/api/match/${matchId}`);
  const state = await res.json();
  const me = players.find((p) => p.id === state.teamOne.captain._id) ?? players[0];

  for (const locale of ['en', 'de']) {
    for (const [w, h, tag] of [
      [1400, 900, 'desktop'],
      [390, 844, 'phone'],
    ] as const) {
      for (const who of [admin, me]) {
        const { context, page } = await openAs(browser, who, { locale, viewport: { width: w, height: h } });
        const shots: [string, string][] =
          who === admin
            ? [
                ['/admin/drops', 'admin-drops'],
                ['/admin/users', 'admin-users'],
              ]
            : [
                ['/leaderboard', 'leaderboard'],
                [`/user/${me.id}/stats`, 'stats'],
                [`/user/${me.id}/highlights`, 'highlights'],
                [`/user/${me.id}/drops`, 'drops'],
                ['/season1', 'season1'],
              ];
        for (const [path, name] of shots) {
          await page.goto(path);
          // The screen's own heading: the sidebar's section headings are hidden on a phone.
          await page.locator('main').locator('h1, h2').first().waitFor();
          if (name === 'leaderboard' || name.startsWith('admin'))
            await page.locator('tbody tr').first().waitFor();
          await page.waitForTimeout(500);
          await page.screenshot({ path: `${dir}/${name}-${locale}-${tag}.png`, fullPage: true });
        }
        await context.close();
      }
    }
  }
});
