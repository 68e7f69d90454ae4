/**
 * Chat moderation in the browser (docs/contract.md §4 Chat, Chat moderation): a player writes in
 * the global room; the admin sees a moderation menu beside the player's name and a delete button
 * on the message, mutes the player (who can no longer write), deletes the message (it shows as
 * deleted), bans the player from the room and unbans them from the banner's list of banned
 * members (they are in the room again). Players see none of these controls. With SHOTS_DIR set,
 * the message's hover buttons, the menu and the dialog are photographed in English and German at 390 px and desktop width.
 */
import { expect, type Page, test } from '@playwright/test';
import { signUpAdmin } from './helpers/competition';
import { openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const shots = process.env.SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 900 };

type MatrixSession = { accessToken: string; userId: string };
const matrixOf = (p: Player) => p.session.matrix as MatrixSession;
const enc = encodeURIComponent;

async function openGlobal(page: Page) {
  await page.goto('/chat/global');
  const room = page.getByTestId('chat-page');
  await expect(room.getByTestId('chat-room-name')).not.toHaveText('');
  return room;
}

test('an admin mutes a player, deletes their message and bans them from the global room; players see no controls', async ({
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(allow(shots ? 180_000 : 60_000));
  const admin = await signUpAdmin(request);
  const player = await signUpPlayer(request, 'Rude');
  const mx = matrixOf(player);
  const globalId = (
    await (
      await request.get(
        `${baseURL}/_matrix/client/v3/directory/room/${enc(`#global:${mx.userId.split(':')[1]}`)}`,
      )
    ).json()
  ).room_id as string;
  const say = (txn: string, body: string) =>
    request.put(`${baseURL}/_matrix/client/v3/rooms/${enc(globalId)}/send/m.room.message/${txn}`, {
      headers: { authorization: `Bearer ${mx.accessToken}` },
      data: { msgtype: 'm.text', body },
    });
  const line = `noobs everywhere ${Date.now()}`;
  expect((await say(`a${Date.now()}`, line)).status()).toBe(200);

  // A player sees the message without any moderation control.
  const { context: playerContext, page: playerPage } = await openAs(browser, player);
  const playerRoom = await openGlobal(playerPage);
  await expect(playerRoom.getByTestId('chat-message').filter({ hasText: line })).toBeVisible();
  await expect(playerRoom.getByTestId('chat-moderate')).toHaveCount(0);
  await expect(playerRoom.getByTestId('chat-redact')).toHaveCount(0);
  await playerContext.close();

  const { page } = await openAs(browser, admin);
  const room = await openGlobal(page);
  const message = room.getByTestId('chat-message').filter({ hasText: line });
  await expect(message).toBeVisible();
  const group = room.getByTestId('chat-group').filter({ hasText: player.name });

  // Mute: the player can no longer write in the room.
  await group.getByTestId('chat-moderate').click();
  await page.getByTestId('chat-moderate-mute').click();
  const dialog = page.getByTestId('chat-moderation-dialog');
  await expect(dialog).toContainText(`Mute ${player.name} in this room?`);
  await dialog.getByLabel('Reason (optional)').fill('Insults');
  await dialog.getByTestId('chat-moderation-confirm').click();
  await expect(page.getByText(`${player.name} is muted in this room`)).toBeVisible();
  await expect.poll(async () => (await say(`b${Date.now()}`, 'still here')).status()).toBe(403);
  // The menu now offers to unmute.
  await group.getByTestId('chat-moderate').click();
  await expect(page.getByTestId('chat-moderate-unmute')).toBeVisible();
  await page.keyboard.press('Escape');

  // Delete the message: everybody sees it as deleted.
  await message.hover();
  await message.getByTestId('chat-redact').click();
  await expect(dialog).toContainText(`Delete this message by ${player.name}?`);
  await dialog.getByTestId('chat-moderation-confirm').click();
  await expect(room.getByTestId('chat-message').filter({ hasText: line })).toHaveCount(0);

  // Ban: the player's membership becomes ban.
  await group.getByTestId('chat-moderate').click();
  await page.getByTestId('chat-moderate-ban').click();
  await dialog.getByTestId('chat-moderation-confirm').click();
  await expect(page.getByText(`${player.name} was banned from this room`)).toBeVisible();
  const member = await request.get(
    `${baseURL}/_matrix/client/v3/rooms/${enc(globalId)}/state/m.room.member/${enc(mx.userId)}`,
    { headers: { authorization: `Bearer ${(admin.session.matrix as MatrixSession).accessToken}` } },
  );
  expect((await member.json()).membership).toBe('ban');

  // The banner lists the banned member; unbanning joins them again.
  await room.getByTestId('chat-banned').click();
  await page.getByTestId('chat-unban').filter({ hasText: player.name }).click();
  await expect(dialog).toContainText(`Unban ${player.name}?`);
  await dialog.getByTestId('chat-moderation-confirm').click();
  await expect(page.getByText(`${player.name} was unbanned`)).toBeVisible();
  await expect(room.getByTestId('chat-banned')).toHaveCount(0);
  const again = await request.get(
    `${baseURL}/_matrix/client/v3/rooms/${enc(globalId)}/state/m.room.member/${enc(mx.userId)}`,
    { headers: { authorization: `Bearer ${(admin.session.matrix as MatrixSession).accessToken}` } },
  );
  expect((await again.json()).membership).toBe('join');

  if (shots) {
    // A second player's message to photograph the controls on.
    const other = await signUpPlayer(request, 'Shot');
    const omx = matrixOf(other);
    await request.put(
      `${baseURL}/_matrix/client/v3/rooms/${enc(globalId)}/send/m.room.message/s${Date.now()}`,
      {
        headers: { authorization: `Bearer ${omx.accessToken}` },
        data: { msgtype: 'm.text', body: 'gg wp' },
      },
    );
    for (const [locale, viewport, tag] of [
      ['en', DESKTOP, 'desktop'],
      ['en', PHONE, '390'],
      ['de', DESKTOP, 'desktop'],
      ['de', PHONE, '390'],
    ] as const) {
      const { context, page: p } = await openAs(browser, admin, { locale, viewport });
      const r = await openGlobal(p);
      const g = r.getByTestId('chat-group').filter({ hasText: 'gg wp' }).last();
      // The message's own buttons (reply, and delete for a moderator) show on hover.
      await g.getByTestId('chat-message').last().hover();
      await expect(g.getByTestId('chat-redact').last()).toBeVisible();
      await p.screenshot({ path: `${shots}/chat-moderation-message-${locale}-${tag}.png` });
      await g.getByTestId('chat-moderate').click();
      await p.screenshot({ path: `${shots}/chat-moderation-menu-${locale}-${tag}.png` });
      await p.getByTestId('chat-moderate-kick').click();
      const d = p.getByTestId('chat-moderation-dialog');
      await d.getByRole('textbox').fill('Spam');
      // Photograph once the menu has closed and the dialog has faded in.
      await expect(p.getByRole('menu')).toHaveCount(0);
      await expect
        .poll(() => d.locator('.MuiDialog-container').evaluate((el) => getComputedStyle(el).opacity))
        .toBe('1');
      await p.screenshot({ path: `${shots}/chat-moderation-dialog-${locale}-${tag}.png` });
      await context.close();
    }
  }
});
