import { expect, test } from '@playwright/test';
import { chatWindow, friendMenu, TINY_PNG } from './helpers/chat';
import { befriend, openAs, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

// Screenshots of the chat window and the chat route in en and de, desktop and phone width:
// SHOTS_DIR=/tmp/shots npx playwright test e2e/chat-screens.spec.ts
const dir = process.env.SHOTS_DIR;
test.skip(!dir, 'set SHOTS_DIR to take the chat screenshots');

test('chat screens', async ({ browser, request }) => {
  test.setTimeout(allow(120_000));
  const ann = await signUpPlayer(request, 'Ann');
  const ben = await signUpPlayer(request, 'Ben');
  await befriend(request, ann, ben);
  const dmId = [ann.id, ben.id].sort().join('_');
  const a = await openAs(browser, ann);
  const b = await openAs(browser, ben);
  await a.page.goto('/home');
  await friendMenu(a.page, ben.name, 'Send Message');
  const aw = chatWindow(a.page);
  const say = async (text: string) => {
    await aw.getByTestId('chat-input').fill(text);
    await aw.getByTestId('chat-input').press('Enter');
    await expect(
      aw
        .getByTestId('chat-message')
        .filter({ hasText: text.slice(0, 12) })
        .last(),
    ).toBeVisible();
  };
  await say('Hey! Up for a pug tonight?');
  await say('Rules are on www.openpug.gg and [the season page](/season1)');
  await b.page.goto(`/chat/${dmId}`);
  const bInput = b.page.getByTestId('chat-input');
  await bInput.fill('Sure, after dinner 🍕');
  await bInput.press('Enter');
  await bInput.fill('🔥');
  await bInput.press('Enter');
  await aw
    .getByTestId('chat-file-input')
    .setInputFiles({ name: 'mirage.png', mimeType: 'image/png', buffer: TINY_PNG });
  await aw.getByTestId('chat-send').click();
  await expect(aw.getByTestId('chat-image')).toBeVisible();
  const target = aw.getByTestId('chat-message').filter({ hasText: 'after dinner' });
  await target.hover();
  await target.getByTestId('chat-reply').click();
  await say('Perfect, see you at 8');
  await bInput.pressSequentially('typing', { delay: 50 });
  await a.context.close();

  for (const locale of ['en', 'de']) {
    for (const [kind, viewport] of [
      ['desktop', { width: 1400, height: 900 }],
      ['phone', { width: 390, height: 844 }],
    ] as const) {
      const s = await openAs(browser, ann, { locale, viewport });
      if (kind === 'desktop') {
        await s.page.goto('/home');
        await s.page.getByTestId('chat-launcher').click();
        await expect(chatWindow(s.page).getByTestId('chat-room-item').first()).toBeVisible();
        await s.page.screenshot({ path: `${dir}/chat-rooms-${locale}-${kind}.png` });
        await chatWindow(s.page).getByTestId('chat-room-item').filter({ hasText: ben.name }).click();
        await expect(chatWindow(s.page).getByTestId('chat-image')).toBeVisible();
        await s.page.waitForTimeout(600);
        await s.page.screenshot({ path: `${dir}/chat-window-${locale}-${kind}.png` });
      }
      await s.page.goto(`/chat/${dmId}`);
      await expect(s.page.getByTestId('chat-image')).toBeVisible();
      await s.page.waitForTimeout(600);
      await s.page.screenshot({ path: `${dir}/chat-route-${locale}-${kind}.png` });
      await s.context.close();
    }
  }
  await b.context.close();
});
