/**
 * A match's 10 players share its chat room (issue 6): ten socket bots queue and accept; two of the
 * players open the match page in browsers and talk in its chat panel (no day headers, no close
 * button); a player outside the match cannot read it.
 */
import { expect, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { type Bot, call, connectBot } from './helpers/match';
import { openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

test("a match's players share its chat room", async ({ browser, request, baseURL }) => {
  test.setTimeout(allow(120_000));
  const players: Player[] = await Promise.all(
    Array.from({ length: 10 }, (_, i) => signUpPlayer(request, `mc${i}x`)),
  );
  await Promise.all(players.map((p) => linkVoiceByApi(request, p.token)));
  const bots: Bot[] = await Promise.all(players.map((p) => connectBot(baseURL as string, p.token)));
  try {
    const found = new Promise<string>((resolve) =>
      bots[0].on('PRIVATE_QUEUE_MATCH', ({ matchId }: { matchId: string }) => resolve(matchId)),
    );
    for (const bot of bots) await call(bot, 'queue-message', { event: 'join' });
    for (const bot of bots) await call(bot, 'queue-message', { event: 'ready' });
    const matchId = await found;

    const a = await openAs(browser, players[0]);
    const b = await openAs(browser, players[7], { viewport: { width: 390, height: 844 } });
    await a.page.goto(`/match/${matchId}`);
    await b.page.goto(`/match/${matchId}`);
    const aChat = a.page.getByTestId('match-chat');
    const bChat = b.page.getByTestId('match-chat');
    await expect(aChat.getByTestId('chat-input')).toBeVisible({ timeout: allow(15_000) });
    await aChat.getByTestId('chat-input').fill('gl hf, team');
    await aChat.getByTestId('chat-input').press('Enter');
    await expect(bChat.getByTestId('chat-message').filter({ hasText: 'gl hf, team' })).toBeVisible();
    await bChat.getByTestId('chat-input').fill('same to you');
    await bChat.getByTestId('chat-input').press('Enter');
    await expect(aChat.getByTestId('chat-message').filter({ hasText: 'same to you' })).toBeVisible();
    // Match chats: no close button and no day headers.
    await expect(aChat.getByTestId('chat-close')).toHaveCount(0);
    await expect(aChat.getByText(/\b\d{4}$/)).toHaveCount(0);

    // Someone outside the match does not get in.
    const outsider = await signUpPlayer(request, 'mcout');
    const o = await openAs(browser, outsider);
    await o.page.goto(`/match/${matchId}`);
    await expect(o.page.getByTestId('match-chat')).toContainText('This chat is not available.', {
      timeout: allow(20_000),
    });
    await expect(o.page.getByTestId('match-chat').getByText('gl hf, team')).toHaveCount(0);
    await Promise.all([a.context.close(), b.context.close(), o.context.close()]);
  } finally {
    for (const bot of bots) bot.disconnect();
  }
});
