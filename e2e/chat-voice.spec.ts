/**
 * Chat journey, part two (issue 6, docs/contract.md §2 chat screen, §9 chat notifications and recorded audio):
 * desktop notifications follow docs/contract.md §9 (a live message in a two-member room that is not open
 * shows one, with the sound for text only; the open room shows none); a voice message recorded from Chromium's fake microphone
 * arrives as a tagged mp3 'Recording-{timestamp}.mp3' that the other side can decode; rooms are
 * tagged favourite / low priority from the room list, and the tags survive a reload; on a phone
 * the chat page opens the same room list.
 */
import { expect, type Page, test } from '@playwright/test';
import { chatWindow, friendMenu, TINY_PNG } from './helpers/chat';
import { befriend, openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

interface ShownNotification {
  title: string;
  body?: string;
}

/**
 * Records every desktop notification the page creates (still creating the real one) and every
 * notification sound it plays (audio elements whose source is a /sounds/ file).
 */
async function watchNotifications(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const Real = window.Notification;
    const shown: { title: string; body?: string }[] = [];
    const sounds: string[] = [];
    Object.assign(window, { shownNotifications: shown, playedSounds: sounds });
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (this.src.includes('/sounds/')) sounds.push(this.src.slice(this.src.lastIndexOf('/') + 1));
      return play.call(this);
    };
    class Watched extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        shown.push({ title, body: options?.body });
      }
    }
    Object.defineProperty(Watched, 'permission', { get: () => Real.permission });
    window.Notification = Watched;
  });
}

const shownNotifications = (page: Page) =>
  page.evaluate(() => (window as unknown as { shownNotifications: ShownNotification[] }).shownNotifications);
const playedSounds = (page: Page) =>
  page.evaluate(() => (window as unknown as { playedSounds: string[] }).playedSounds);

test('desktop notifications, a voice message as tagged mp3 and room tags', async ({ browser, request }) => {
  test.setTimeout(allow(90_000));
  const ann = await signUpPlayer(request, 'Vox');
  const ben = await signUpPlayer(request, 'Ear');
  await befriend(request, ann, ben);
  const permissions = ['microphone', 'notifications'];
  const a = await openAs(browser, ann, { permissions });
  const b = await openAs(browser, ben, { permissions });
  await watchNotifications(b.page);
  await a.page.goto('/home');
  await b.page.goto('/home');
  await expect(b.page.getByTestId('friends-sidebar')).toContainText(ann.name);

  // A's first message in the direct room: B, who has the room closed, gets a desktop notification.
  await friendMenu(a.page, ben.name, 'Send Message');
  const aw = chatWindow(a.page);
  await expect(aw.getByTestId('chat-room-name')).toHaveText(ben.name);
  await aw.getByTestId('chat-input').fill('are you there?');
  await aw.getByTestId('chat-input').press('Enter');
  await expect(b.page.getByTestId('chat-launcher-unread')).toHaveText('1', { timeout: allow(15_000) });
  await expect.poll(() => shownNotifications(b.page)).toEqual([{ title: ann.name, body: 'are you there?' }]);
  expect(await playedSounds(b.page)).toEqual(['retro.mp3']);

  // An image also shows a notification, but only text messages play the sound (docs/contract.md §9).
  await aw
    .getByTestId('chat-file-input')
    .setInputFiles({ name: 'map.png', mimeType: 'image/png', buffer: TINY_PNG });
  await aw.getByTestId('chat-send').click();
  await expect.poll(() => shownNotifications(b.page)).toHaveLength(2);
  expect((await shownNotifications(b.page))[1]).toEqual({ title: ann.name, body: 'map.png' });
  expect(await playedSounds(b.page)).toEqual(['retro.mp3']);

  // With the room open and visible, the next message shows no notification.
  await friendMenu(b.page, ann.name, 'Send Message');
  const bw = chatWindow(b.page);
  await expect(bw.getByTestId('chat-message').filter({ hasText: 'are you there?' })).toBeVisible();
  await aw.getByTestId('chat-input').fill('now you see me');
  await aw.getByTestId('chat-input').press('Enter');
  await expect(bw.getByTestId('chat-message').filter({ hasText: 'now you see me' })).toBeVisible();
  expect(await shownNotifications(b.page)).toHaveLength(2);

  // A records a voice message from the fake microphone: it becomes Recording-{timestamp}.mp3.
  await expect(aw.getByTestId('chat-send')).toHaveCount(0);
  const before = Date.now();
  await aw.getByTestId('chat-record').click();
  await expect(aw.getByTestId('chat-recording')).toBeVisible();
  await a.page.waitForTimeout(1500);
  await aw.getByRole('button', { name: 'Stop recording' }).click();
  const attachment = aw.getByTestId('chat-attachment');
  await expect(attachment).toContainText(/Recording-\d{13}\.mp3/);
  const stamp = Number((await attachment.textContent())?.match(/Recording-(\d{13})/)?.[1]);
  expect(stamp).toBeGreaterThanOrEqual(before);
  await aw.getByTestId('chat-send').click();

  // B receives it as audio: an ID3v2 tag titled like the file, then MP3 that Chromium decodes.
  const audio = bw.getByTestId('chat-audio');
  await expect(audio).toHaveAttribute('src', /^blob:/, { timeout: allow(15_000) });
  const received = await audio.evaluate(async (element: HTMLAudioElement) => {
    const bytes = new Uint8Array(await (await fetch(element.src)).arrayBuffer());
    const tagSize = ((bytes[6] << 21) | (bytes[7] << 14) | (bytes[8] << 7) | bytes[9]) + 10;
    const titleLength = new DataView(bytes.buffer).getUint32(14);
    const title = new TextDecoder('utf-16le').decode(bytes.subarray(23, 20 + titleLength));
    const decoded = await new AudioContext().decodeAudioData(bytes.buffer.slice(0));
    return {
      magic: String.fromCharCode(bytes[0], bytes[1], bytes[2]),
      frameSync: bytes[tagSize] === 0xff && (bytes[tagSize + 1] & 0xe0) === 0xe0,
      title,
      seconds: decoded.duration,
    };
  });
  expect(received.magic).toBe('ID3');
  expect(received.frameSync).toBe(true);
  expect(received.title).toBe(`Recording-${stamp}`);
  expect(received.seconds).toBeGreaterThan(1);
  expect(received.seconds).toBeLessThan(10);

  // B tags the direct room favourite from the room list; it moves to Favourites.
  await bw.getByTestId('chat-rooms-toggle').click();
  const list = bw.getByTestId('chat-room-list');
  const directRow = (section: string) =>
    list.getByTestId(section).getByTestId('chat-room-row').filter({ hasText: ann.name });
  await expect(directRow('chat-rooms-other')).toBeVisible();
  await directRow('chat-rooms-other').getByTestId('chat-room-menu').click();
  await b.page.getByRole('menuitemcheckbox', { name: 'Favourite' }).click();
  await expect(directRow('chat-rooms-favourite')).toBeVisible();
  await expect(directRow('chat-rooms-other')).toHaveCount(0);

  // The tag is stored on the homeserver: it is still there after a reload.
  await b.page.reload();
  // The launcher opens a room with unread messages if there is one, else the room list (which says
  // 'Loading chat...' until the reloaded chat has synced); from a room the list is one click away.
  await b.page.getByTestId('chat-launcher').click();
  await expect(bw).toBeVisible();
  await expect(list.or(bw.getByTestId('chat-rooms-toggle')).first()).toBeVisible({ timeout: allow(15_000) });
  if (!(await list.isVisible())) await bw.getByTestId('chat-rooms-toggle').click();
  await expect(directRow('chat-rooms-favourite')).toBeVisible({ timeout: allow(15_000) });

  // Low priority replaces favourite; unticking it returns the room to the other rooms.
  await directRow('chat-rooms-favourite').getByTestId('chat-room-menu').click();
  await expect(b.page.getByRole('menuitemcheckbox', { name: 'Favourite' })).toHaveAttribute(
    'aria-checked',
    'true',
  );
  await b.page.getByRole('menuitemcheckbox', { name: 'Low priority' }).click();
  await expect(directRow('chat-rooms-lowpriority')).toBeVisible();
  await expect(directRow('chat-rooms-favourite')).toHaveCount(0);
  await directRow('chat-rooms-lowpriority').getByTestId('chat-room-menu').click();
  await b.page.getByRole('menuitemcheckbox', { name: 'Low priority' }).click();
  await expect(directRow('chat-rooms-other')).toBeVisible();
  await expect(list.getByTestId('chat-rooms-lowpriority')).toHaveCount(0);

  // On a phone the chat is a page; its banner opens the same room list, and a room opens there.
  const phone = await openAs(browser, ben, { viewport: { width: 390, height: 800 } });
  await phone.page.goto('/chat/global');
  const page = phone.page.getByTestId('chat-page');
  await expect(page.getByTestId('chat-room-name')).toHaveText('Global');
  await page.getByTestId('chat-rooms-toggle').click();
  await page.getByTestId('chat-room-item').filter({ hasText: ann.name }).click();
  await expect(phone.page).toHaveURL(/\/chat\/!/);
  await expect(page.getByTestId('chat-room-name')).toHaveText(ann.name);
  await expect(page.getByTestId('chat-audio')).toBeVisible();

  await a.context.close();
  await b.context.close();
  await phone.context.close();
});
