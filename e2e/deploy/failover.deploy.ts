/**
 * The deploy journey: the topology of deploy/ (nginx with TLS in front of two openpug instances
 * on PostgreSQL, Redis and Synapse), started by `npm run deploy:local` (playwright.deploy.config.ts).
 *
 * 1. The proxy never exposes Synapse's admin API or the metrics (404), and does proxy /_matrix.
 * 2. Two players in browsers and eight socket bots, all through https://localhost:<port>, queue,
 *    accept, pick and ban; while the simulated match is live one instance is SIGKILLed. The
 *    sockets it held reconnect through nginx to the other instance, the persisted simulator jobs
 *    go on there, and the match ends with the score the seeded simulator plays and the Elo of
 *    the rules (+12 / −10), which both browsers show.
 */
import {
  type APIRequestContext,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from '@playwright/test';
import type { Socket } from 'socket.io-client';
import { linkVoiceByApi } from '../helpers/accounts';
import { botVetoTurn, call, matchState, waitForVetoStep } from '../helpers/match';
import { openAs, type Player, signUpPlayer } from '../helpers/social';
import { allow } from '../helpers/time';
import { connectBotTls, expectedScore, readState, socketLines, waitAllUp } from './deployment';

test('the proxy answers 404 for Synapse admin and metrics, and proxies the client API', async ({
  request,
}) => {
  for (const path of [
    '/_synapse/admin/v1/server_version',
    '/_synapse/admin/v1/register',
    '/_synapse/metrics',
    '/metrics',
  ]) {
    const res = await request.get(path);
    expect(res.status(), path).toBe(404);
  }
  const versions = await request.get('/_matrix/client/versions');
  expect(versions.ok()).toBe(true);
  expect((await versions.json()).versions).toBeInstanceOf(Array);
  // Behind it, Synapse does answer its admin API (on loopback only): the 404 is the proxy's.
  const state = readState();
  expect((await fetch(`${state.synapse}/_synapse/admin/v1/register`)).status).toBe(200);
  // The app's health through the proxy.
  expect((await request.get('/api/health')).ok()).toBe(true);
});

test('ten players play a match through nginx while one instance is killed', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(allow(240_000));
  const state = await waitAllUp();
  const players: Player[] = await Promise.all(
    Array.from({ length: 10 }, (_, i) => signUpPlayer(request, `dp${i}x`)),
  );
  // The simulated voice server (the dev stand-in for TeamSpeak) keeps its identities in the
  // memory of one instance: link them on one instance directly.
  const direct: APIRequestContext = await playwrightRequest.newContext({ baseURL: state.instances[0].url });
  await Promise.all(players.map((p) => linkVoiceByApi(direct, p.token)));
  await direct.dispose();

  const [a, b, ...botPlayers] = players;
  const humans = [a, b];
  const sessions = await Promise.all(humans.map((p) => openAs(browser, p)));
  const pages: Page[] = sessions.map((s) => s.page);
  const bots: Socket[] = await Promise.all(botPlayers.map((p) => connectBotTls(baseURL as string, p.token)));
  const botOf = new Map(botPlayers.map((p, i) => [p.id, bots[i]]));

  try {
    // ---- queue and accept ----
    for (const page of pages) {
      await page.goto('/home');
      const widget = page.getByTestId('queue-widget');
      await expect(widget.getByRole('button')).toBeEnabled();
      await widget.getByRole('button').click();
      await expect(page.getByTestId('queue-elapsed')).toBeVisible();
    }
    for (const bot of bots) await call(bot, 'queue-message', { event: 'join' });
    for (const page of pages) await expect(page.getByTestId('accept-dialog')).toBeVisible();
    for (const bot of bots) await call(bot, 'queue-message', { event: 'ready' });
    for (const page of pages) {
      await page
        .getByTestId('accept-dialog')
        .getByRole('button', { name: /^(Accept|Annehmen)$/ })
        .click();
    }

    // ---- captain picks and map veto ----
    for (const page of pages) await expect(page).toHaveURL(/\/match\/[^/]+$/);
    const matchId = pages[0].url().split('/match/')[1];
    for (;;) {
      const s = await matchState(request, matchId);
      if (s.status !== 'playerveto' && s.status !== 'mapveto') break;
      if (s.turn === null) continue;
      const captainId = s[s.turn].captain._id;
      const humanIndex = humans.findIndex((h) => h.id === captainId);
      if (humanIndex >= 0) {
        const page = pages[humanIndex];
        await expect(page.getByTestId('turn-banner')).toBeVisible();
        if (s.status === 'playerveto')
          await page.getByTestId('pool-player').and(page.locator(':enabled')).first().click();
        else await page.locator('[data-testid^="map-"]:enabled').first().click();
      } else {
        await botVetoTurn(botOf.get(captainId) as Socket, matchId, s);
      }
      await waitForVetoStep(request, matchId, s);
    }

    // ---- live: kill one instance in the middle of the match ----
    await expect
      .poll(async () => {
        const s = await matchState(request, matchId);
        return s.status === 'active' && s.score.teamOne + s.score.teamTwo >= 2;
      })
      .toBe(true);
    const victim = state.instances[1];
    const socketsEndedBefore = socketLines(state, victim.port).length;
    const killedAt = Date.now();
    process.kill(victim.pid as number, 'SIGKILL');
    test
      .info()
      .annotations.push({ type: 'killed', description: `instance :${victim.port} (pid ${victim.pid})` });
    const during = await matchState(request, matchId);
    expect(during.status).toBe('active');
    expect(during.score.teamOne + during.score.teamTwo).toBeLessThan(13);

    // Every bot is connected again (to the surviving instance, or to the victim once it is back).
    await expect
      .poll(() => bots.filter((bot) => bot.connected).length, { timeout: allow(30_000) })
      .toBe(bots.length);

    // ---- the match ends with the seeded simulator's score and the rules' Elo ----
    await expect
      .poll(async () => (await matchState(request, matchId)).status, { timeout: allow(120_000) })
      .toBe('finished');
    const finished = await matchState(request, matchId);
    expect(finished.score).toEqual(expectedScore(matchId));
    const winner = finished.score.teamOne > finished.score.teamTwo ? 'teamOne' : 'teamTwo';
    const members = (team: 'teamOne' | 'teamTwo') =>
      new Set([finished[team].captain._id, ...finished[team].players.map((p) => p._id)]);
    const winners = members(winner);
    const losers = members(winner === 'teamOne' ? 'teamTwo' : 'teamOne');
    expect(winners.size).toBe(5);
    expect(losers.size).toBe(5);
    for (const p of players) {
      const user = await (await request.get(`/api/users/${p.id}`)).json();
      expect(user.stats.elo, p.name).toBe(winners.has(p.id) ? 212 : 190);
    }
    // Both browsers got the result over their (reconnected) sockets.
    for (const [i, page] of pages.entries()) {
      await expect(page.getByTestId('result-dialog')).toBeVisible({ timeout: allow(30_000) });
      await expect(page.getByTestId('result-change')).toHaveText(winners.has(humans[i].id) ? '+12' : '−10');
    }

    // Sockets were on the killed instance when it died (nginx logs a websocket when it ends).
    const cut = socketLines(readState(), victim.port).length - socketsEndedBefore;
    test.info().annotations.push({ type: 'sockets on the killed instance', description: String(cut) });
    expect(cut, 'no socket was on the killed instance: the failover was not exercised').toBeGreaterThan(0);
    test
      .info()
      .annotations.push({ type: 'match after the kill', description: `${Date.now() - killedAt} ms` });
    // The killed instance comes back (as systemd would restart it) and serves through the proxy.
    await waitAllUp();
  } finally {
    for (const bot of bots) bot.disconnect();
    for (const s of sessions) await s.context.close();
  }
});
