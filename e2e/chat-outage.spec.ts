/**
 * The chat while its server is down (issue 25 item 3; docs/contract.md §4 Chat): the chat window
 * says the chat is unavailable instead of loading, and an open chat comes back by itself when the
 * homeserver returns; a session that got no chat credentials at login asks for them again.
 *
 * How the outage is made: the browser talks to the homeserver directly (matrix-js-sdk fetches
 * `/_matrix/...` from the page, on the `homeserverUrl` of the chat credentials), while the product
 * API and its socket are a separate conversation. Refusing the page's `/_matrix/**` connections
 * is therefore exactly what the chat client meets when the homeserver is down and openpug is not
 * — the situation of a stopped Synapse. The embedded homeserver runs inside the server process
 * and cannot be stopped on its own, so this is the faithful way to take it away from one browser.
 * The test's own API requests do not pass through the page's routes: they reach the homeserver.
 *
 * With screenshots of the unavailable state (en 1400 px, de 390 px) when SHOTS_DIR is set.
 */
import { expect, type Page, test } from '@playwright/test';
import { chatWindow } from './helpers/chat';
import { openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const OFFLINE_EN = 'The chat is unavailable right now. It reconnects by itself.';
const OFFLINE_DE = 'Der Chat ist gerade nicht erreichbar. Er verbindet sich von selbst wieder.';
const shots = process.env.SHOTS_DIR;

interface Creds {
  userId: string;
  accessToken: string;
}

/** Refuses every connection from the page to the homeserver, as a stopped one would. */
const homeserverDown = (page: Page) =>
  page.route('**/_matrix/**', (route) => route.abort('connectionrefused'));
const homeserverBack = (page: Page) => page.unroute('**/_matrix/**');

test('an open chat says it is unavailable while the homeserver is down and comes back by itself', async ({
  browser,
  request,
}) => {
  test.setTimeout(allow(120_000));
  const ann = await signUpPlayer(request, 'Ann');
  const creds = ann.session.matrix as Creds;
  const a = await openAs(browser, ann);
  await a.page.goto('/home');
  await a.page
    .getByTestId('friends-sidebar')
    .getByRole('button', { name: /Global chat/ })
    .click();
  const aw = chatWindow(a.page);
  await aw.getByTestId('chat-input').fill('before the outage');
  await aw.getByTestId('chat-input').press('Enter');
  await expect(aw.getByTestId('chat-message').filter({ hasText: 'before the outage' })).toBeVisible();
  await expect(aw.getByTestId('chat-offline')).toHaveCount(0);

  await homeserverDown(a.page);
  // The sync request already waiting at the homeserver ends with the next event in the room: Ann
  // posts from elsewhere (the test's request, which the page's routes do not touch). The client's
  // next sync is refused, and matrix-js-sdk reports RECONNECTING.
  const server = creds.userId.split(':').slice(1).join(':');
  const directory = await request.get(
    `/_matrix/client/v3/directory/room/${encodeURIComponent(`#global:${server}`)}`,
  );
  const roomId = (await directory.json()).room_id as string;
  const sent = await request.put(
    `/_matrix/client/v3/rooms/${encodeURIComponent(roomId)}/send/m.room.message/outage-${Date.now()}`,
    {
      headers: { Authorization: `Bearer ${creds.accessToken}` },
      data: { msgtype: 'm.text', body: 'sent during the outage' },
    },
  );
  expect(sent.status(), await sent.text()).toBe(200);
  await expect(aw.getByTestId('chat-offline')).toHaveText(OFFLINE_EN, { timeout: allow(15_000) });
  // What was there stays readable under the notice; nothing spins.
  await expect(aw.getByTestId('chat-message').filter({ hasText: 'before the outage' })).toBeVisible();
  await expect(aw.getByTestId('chat-loading')).toHaveCount(0);
  if (shots) await a.page.screenshot({ path: `${shots}/chat-offline-room-en-1400.png` });

  // The room list says it too.
  await aw.getByTestId('chat-rooms-toggle').click();
  await expect(aw.getByTestId('chat-room-list').getByTestId('chat-offline')).toHaveText(OFFLINE_EN);
  await aw.getByTestId('chat-rooms-toggle').click();

  // The homeserver returns: matrix-js-sdk's keep-alive sees it (within 5–10 s), the sync resumes,
  // the notice goes and the message posted during the outage arrives.
  await homeserverBack(a.page);
  await expect(aw.getByTestId('chat-offline')).toHaveCount(0, { timeout: allow(30_000) });
  await expect(aw.getByTestId('chat-message').filter({ hasText: 'sent during the outage' })).toBeVisible();
  await aw.getByTestId('chat-input').fill('after the outage');
  await aw.getByTestId('chat-input').press('Enter');
  await expect(aw.getByTestId('chat-message').filter({ hasText: 'after the outage' })).toBeVisible();
  await a.context.close();
});

test('a session without chat credentials from login says so and gets them when the chat is back', async ({
  browser,
  request,
}) => {
  test.setTimeout(allow(120_000));
  const ben = await signUpPlayer(request, 'Ben');
  // What login answers while the homeserver is down: a session with `matrix: null`
  // (sessionResponse), and GET /api/chat/session answers 503 CHAT_UNAVAILABLE (chat/routes.ts).
  // Both are the product server's documented answers; the page's route stands in for the
  // homeserver behind it being down.
  const withoutChat: Player = { ...ben, session: { ...ben.session, matrix: null } };
  const b = await openAs(browser, withoutChat, { locale: 'de', viewport: { width: 390, height: 844 } });
  let asked = 0;
  await b.page.route('**/api/chat/session', (route) => {
    asked++;
    return route.fulfill({ status: 503, json: { errors: { msg: 'CHAT_UNAVAILABLE' } } });
  });
  await b.page.goto('/home');
  // On a phone the launcher opens the chat route.
  await b.page.getByTestId('chat-launcher').click();
  await expect(b.page).toHaveURL(/\/chat\//);
  await expect(b.page.getByTestId('chat-offline').first()).toHaveText(OFFLINE_DE);
  await expect(b.page.getByText('Chat wird geladen')).toHaveCount(0);
  if (shots) await b.page.screenshot({ path: `${shots}/chat-offline-de-390.png` });
  await expect.poll(() => asked, { timeout: allow(15_000) }).toBeGreaterThanOrEqual(2);

  // The chat is back: the next try (the backoff doubles from 2 s) gets credentials and the chat syncs.
  await b.page.unroute('**/api/chat/session');
  await expect(b.page.getByTestId('chat-offline')).toHaveCount(0, { timeout: allow(40_000) });
  await expect(b.page.getByTestId('chat-input')).toBeVisible({ timeout: allow(15_000) });
  const stored = await b.page.evaluate(() => JSON.parse(localStorage.getItem('matrix') ?? 'null'));
  expect(stored?.userId).toBe((ben.session.matrix as Creds).userId);
  await b.context.close();
});
