/**
 * Chat journey (issue 6, docs/contract.md §2 chat screen, §4 Chat, §5): two friends on the embedded Matrix
 * homeserver. A opens a direct chat with B from the friends sidebar, sends text, an image and a
 * reply; B sees them live with the typing indicator and an unread count that clears when read;
 * both post in the global room.
 */
import { expect, test } from '@playwright/test';
import { chatWindow, friendMenu, TINY_PNG } from './helpers/chat';
import { befriend, openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

test('two friends chat directly and in the global room', async ({ browser, request }) => {
  test.setTimeout(allow(90_000));
  const ann = await signUpPlayer(request, 'Ann');
  const ben = await signUpPlayer(request, 'Ben');
  await befriend(request, ann, ben);
  const a = await openAs(browser, ann);
  const b = await openAs(browser, ben);
  await a.page.goto('/home');
  await b.page.goto('/home');

  // A opens the direct chat: the room is created with the sorted-ids alias and B is invited.
  await friendMenu(a.page, ben.name, 'Send Message');
  const aw = chatWindow(a.page);
  await expect(aw.getByTestId('chat-room-name')).toHaveText(ben.name);
  await expect(aw.getByTestId('chat-empty')).toHaveText('this room is empty');
  await expect(aw.getByTestId('chat-input')).toHaveAttribute('placeholder', 'Type a message ...');
  // Whitespace is not sent: no send button for it.
  await aw.getByTestId('chat-input').fill('   ');
  await expect(aw.getByTestId('chat-send')).toHaveCount(0);
  await expect(aw.getByTestId('chat-record')).toBeVisible();
  await aw.getByTestId('chat-input').fill('Hello Ben!');
  await aw.getByTestId('chat-input').press('Enter');
  await expect(aw.getByTestId('chat-message').filter({ hasText: 'Hello Ben!' })).toBeVisible();

  // B was invited and joined automatically; the unread message shows on the chat launcher, also
  // when B's chat joined after the message was sent (it counts from the invite).
  await expect(b.page.getByTestId('chat-launcher-unread')).toHaveText('1', { timeout: allow(15_000) });

  // B opens the direct chat from the friends sidebar and reads it: the count clears.
  await friendMenu(b.page, ann.name, 'Send Message');
  const bw = chatWindow(b.page);
  await expect(bw.getByTestId('chat-room-name')).toHaveText(ann.name);
  await expect(bw.getByTestId('chat-message').filter({ hasText: 'Hello Ben!' })).toBeVisible();
  await bw.getByTestId('chat-timeline').hover();
  await b.page.mouse.move(10, 10);
  await bw.getByTestId('chat-close').click();
  await expect(b.page.getByTestId('chat-launcher')).toBeVisible();
  await expect(b.page.getByTestId('chat-launcher-unread')).toHaveCount(0, { timeout: allow(15_000) });
  await b.page.getByTestId('chat-launcher').click();
  await expect(bw.getByTestId('chat-room-name')).toHaveText(ann.name);

  // Typing indicator, then the text arrives live.
  await aw.getByTestId('chat-input').pressSequentially('How are', { delay: 30 });
  await expect(bw.getByTestId('chat-typing')).toHaveText(`${ann.name} is typing ...`);
  await aw.getByTestId('chat-input').pressSequentially(' you? see www.openpug.gg', { delay: 10 });
  await aw.getByTestId('chat-send').click();
  const linkMessage = bw.getByTestId('chat-message').filter({ hasText: 'How are you?' });
  await expect(linkMessage).toBeVisible();
  await expect(linkMessage.getByRole('link', { name: 'www.openpug.gg' })).toHaveAttribute(
    'href',
    'http://www.openpug.gg',
  );
  await expect(linkMessage.getByRole('link')).toHaveAttribute('target', '_blank');
  await expect(bw.getByTestId('chat-typing')).toHaveText('');

  // An image from the authenticated media API displays on both sides.
  await aw
    .getByTestId('chat-file-input')
    .setInputFiles({ name: 'map.png', mimeType: 'image/png', buffer: TINY_PNG });
  await expect(aw.getByTestId('chat-attachment')).toContainText('map.png');
  await aw.getByTestId('chat-send').click();
  const image = bw.getByTestId('chat-image');
  await expect(image).toBeVisible();
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
  // The image viewer zooms in 0.25 steps and resets.
  await image.click();
  await expect(b.page.getByTestId('viewer-zoom')).toHaveText('100%');
  await b.page.getByTestId('viewer-zoom-in').click();
  await expect(b.page.getByTestId('viewer-zoom')).toHaveText('125%');
  await b.page.getByTestId('viewer-reset').click();
  await expect(b.page.getByTestId('viewer-zoom')).toHaveText('100%');
  await b.page.getByTestId('viewer-close').click();

  // A replies to the first message; B sees the reply with its quote.
  const first = aw.getByTestId('chat-message').filter({ hasText: 'Hello Ben!' });
  await first.hover();
  await first.getByTestId('chat-reply').click();
  await expect(aw.getByTestId('chat-replying')).toContainText('Hello Ben!');
  await aw.getByTestId('chat-input').fill('  a reply to myself  ');
  await aw.getByTestId('chat-input').press('Enter');
  const reply = bw.getByTestId('chat-message').filter({ hasText: 'a reply to myself' });
  await expect(reply).toBeVisible();
  await expect(reply.getByTestId('chat-reply-quote')).toContainText('Hello Ben!');
  await expect(aw.getByTestId('chat-replying')).toHaveCount(0);

  // One emoji is shown big.
  await aw.getByTestId('chat-input').fill('🔥');
  await aw.getByTestId('chat-input').press('Enter');
  await expect(bw.locator('[data-emoji="big"]')).toHaveText('🔥');

  // The global room: A posts, B sees the unread count on the global chat entry, opens and answers.
  await aw.getByTestId('chat-close').click();
  await bw.getByTestId('chat-close').click();
  await a.page
    .getByTestId('friends-sidebar')
    .getByRole('button', { name: /Global chat/ })
    .click();
  await expect(aw.getByTestId('chat-room-name')).not.toHaveText('');
  const globalLine = `gl hf from ${ann.name}`;
  await aw.getByTestId('chat-input').fill(globalLine);
  await aw.getByTestId('chat-input').press('Enter');
  const globalEntry = b.page.getByTestId('friends-sidebar').getByRole('button', { name: /Global chat/ });
  await expect(globalEntry.getByLabel(/unread/i)).toBeVisible({ timeout: allow(15_000) });
  await globalEntry.click();
  await expect(bw.getByTestId('chat-message').filter({ hasText: globalLine })).toBeVisible();
  await bw.getByTestId('chat-input').fill(`thanks ${ann.name}`);
  await bw.getByTestId('chat-input').press('Enter');
  await expect(aw.getByTestId('chat-message').filter({ hasText: `thanks ${ann.name}` })).toBeVisible();
  await bw.getByTestId('chat-timeline').hover();
  await bw.getByTestId('chat-close').click();
  await expect(globalEntry.getByLabel(/unread/i)).toHaveCount(0, { timeout: allow(15_000) });

  // The chat route shows the same room alone, without the sidebars.
  await b.page.goto('/chat/global');
  await expect(
    b.page.getByTestId('chat-page').getByTestId('chat-message').filter({ hasText: globalLine }),
  ).toBeVisible();
  await expect(b.page.getByTestId('friends-sidebar')).toHaveCount(0);

  await a.context.close();
  await b.context.close();
});

test("a friend's first direct message, sent while one was offline, is unread on coming online", async ({
  browser,
  request,
}) => {
  test.setTimeout(allow(60_000));
  const ann = await signUpPlayer(request, 'Ann');
  const ben = await signUpPlayer(request, 'Ben');
  await befriend(request, ann, ben);
  const a = await openAs(browser, ann);
  await a.page.goto('/home');
  await friendMenu(a.page, ben.name, 'Send Message');
  const aw = chatWindow(a.page);
  await expect(aw.getByTestId('chat-empty')).toHaveText('this room is empty');
  await aw.getByTestId('chat-input').fill('Are you there?');
  await aw.getByTestId('chat-input').press('Enter');
  await expect(aw.getByTestId('chat-message').filter({ hasText: 'Are you there?' })).toBeVisible();

  // B comes online only now: B's chat joins the invite after the message, which still counts.
  const b = await openAs(browser, ben);
  await b.page.goto('/home');
  await expect(b.page.getByTestId('chat-launcher-unread')).toHaveText('1', { timeout: allow(15_000) });
  // The launcher opens that room; reading it clears the count (the latest event is B's own join).
  await b.page.getByTestId('chat-launcher').click();
  const bw = chatWindow(b.page);
  await expect(bw.getByTestId('chat-message').filter({ hasText: 'Are you there?' })).toBeVisible();
  await bw.getByTestId('chat-timeline').hover();
  await bw.getByTestId('chat-close').click();
  await expect(b.page.getByTestId('chat-launcher-unread')).toHaveCount(0, { timeout: allow(15_000) });

  await a.context.close();
  await b.context.close();
});
