/**
 * Community safety in the browser: an admin bans a player from the admin users table's ban/mute
 * dialog; the ban signs the player out at once and the login page tells them "Banned until <date>:
 * <reason>", live and again when they try to sign in; the admin lifts the ban, the player signs in
 * and plays again, and the audit log lists both. With SHOTS_DIR set, the dialog and the
 * audit page are photographed in English and German at 390 px and desktop width.
 */
import { expect, type Page, test } from '@playwright/test';
import { linkVoiceByApi } from './helpers/accounts';
import { signUpAdmin } from './helpers/competition';
import { openAs, type Player, signUpPlayer } from './helpers/social';
import { allow } from './helpers/time';

const shots = process.env.SHOTS_DIR;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 900 };

/** Signs in on the login page (the form, as the player would). */
async function logInByForm(page: Page, player: Player) {
  const form = page.getByRole('form', { name: /Login with e-mail|Mit E-Mail anmelden/ });
  await form.getByLabel(/E-mail|E-Mail/).fill(player.email);
  await form.getByLabel(/^(Password|Passwort)$/).fill(player.password);
  await form.getByRole('button', { name: /^(Login|Anmelden)$/ }).click();
}

async function openSanctions(page: Page, player: Player) {
  await page.goto('/admin/users');
  await page
    .getByLabel(/Search|Suche|Filter/i)
    .first()
    .fill(player.name);
  const row = page.getByRole('row').filter({ hasText: player.name });
  await row.getByTestId('open-sanctions').click();
  return page.getByRole('dialog');
}

test('an admin bans a player, who is signed out at once and told why on the login page; after the lift they play again; both are audited', async ({
  browser,
  request,
}) => {
  test.setTimeout(allow(shots ? 180_000 : 60_000));
  const admin = await signUpAdmin(request);
  const player = await signUpPlayer(request, 'Banned');
  await linkVoiceByApi(request, player.token);

  const { page: playerPage } = await openAs(browser, player);
  await playerPage.goto('/home');
  const widget = playerPage.getByTestId('queue-widget');
  await expect(widget.getByRole('button', { name: 'Play' })).toBeVisible();

  const { page } = await openAs(browser, admin);
  const dialog = await openSanctions(page, player);
  await expect(dialog.getByText('Ban or mute')).toBeVisible();
  await dialog.getByLabel('Duration').fill('2');
  await dialog.getByLabel('Unit').click();
  await page.getByRole('option', { name: 'Hours' }).click();
  await dialog.getByLabel('Reason', { exact: true }).fill('Griefing in three matches');
  await dialog.getByRole('button', { name: 'Ban player' }).click();
  const active = dialog.getByTestId('sanction-row').first();
  await expect(active).toContainText('Griefing in three matches');
  await expect(active.getByRole('button', { name: 'Lift' })).toBeVisible();

  // The ban ends the player's session at once, without a reload: the login page says why.
  const notice = playerPage.getByTestId('login-banned');
  await expect(notice).toContainText(/^Banned until .+: Griefing in three matches$/);
  await expect(playerPage).toHaveURL(/\/login$/);
  // After a reload, signing in again is refused with the same notice.
  await playerPage.reload();
  await expect(notice).toHaveCount(0);
  await logInByForm(playerPage, player);
  await expect(notice).toContainText(/^Banned until .+: Griefing in three matches$/);

  if (shots) {
    for (const [locale, viewport, tag] of [
      ['en', DESKTOP, 'desktop'],
      ['en', PHONE, '390'],
      ['de', DESKTOP, 'desktop'],
      ['de', PHONE, '390'],
    ] as const) {
      const { context, page: p } = await openAs(browser, admin, { locale, viewport });
      const d = await openSanctions(p, player);
      await expect(d.getByTestId('sanction-row').first()).toBeVisible();
      await p.screenshot({ path: `${shots}/moderation-dialog-${locale}-${tag}.png` });
      await context.close();
      const { context: c2, page: pp } = await openAs(browser, player, { locale, viewport });
      await pp.goto('/login');
      await logInByForm(pp, player);
      await expect(pp.getByTestId('login-banned')).toBeVisible();
      await pp.screenshot({ path: `${shots}/moderation-banned-${locale}-${tag}.png` });
      await c2.close();
    }
  }

  await active.getByRole('button', { name: 'Lift' }).click();
  await dialog.getByLabel('Reason for lifting').fill('Appeal accepted');
  await dialog.getByRole('button', { name: 'Lift now' }).click();
  await expect(dialog.getByText(/lifted .+ Appeal accepted/)).toBeVisible();
  await logInByForm(playerPage, player);
  await expect(playerPage).toHaveURL(/\/home$/);
  await expect(widget.getByRole('button', { name: 'Play' })).toBeVisible();
  await expect(playerPage.getByTestId('queue-banned')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Close' }).click();

  // A mute: the player still reads the chat and is told there until when they are muted.
  const muted = await request.post(`/api/admin/users/${player.id}/sanctions`, {
    headers: { Authorization: `Bearer ${admin.token}` },
    data: { kind: 'mute', minutes: 30, reason: 'Spam in global' },
  });
  expect(muted.status()).toBe(201);
  await playerPage.goto('/chat/global');
  await expect(playerPage.getByTestId('chat-muted')).toContainText(
    /^You are muted in the chat until .+: Spam in global$/,
  );
  if (shots) await playerPage.screenshot({ path: `${shots}/moderation-muted-en-desktop.png` });
  await expect(widget.getByRole('button', { name: 'Play' })).toHaveCount(0); // chat routes hide the widget

  await page.goto('/admin/audit');
  const rows = page.getByTestId('audit-row');
  await expect(rows.first()).toContainText('Spam in global');
  await expect(rows.nth(1)).toContainText('Sanction lifted');
  await expect(rows.nth(2)).toContainText('Griefing in three matches');
  await rows.nth(1).getByRole('button', { name: 'Show details' }).click();
  await expect(page.getByTestId('audit-details')).toContainText('Appeal accepted');
  // Filter by action.
  await page.getByRole('combobox', { name: 'Action' }).click();
  await page.getByRole('option', { name: 'Sanction lifted' }).click();
  await expect(rows).toHaveCount(1);

  if (shots) {
    for (const [locale, viewport, tag] of [
      ['en', DESKTOP, 'desktop'],
      ['en', PHONE, '390'],
      ['de', DESKTOP, 'desktop'],
      ['de', PHONE, '390'],
    ] as const) {
      const { context, page: p } = await openAs(browser, admin, { locale, viewport });
      await p.goto('/admin/audit');
      await expect(p.getByTestId('audit-row').first()).toBeVisible();
      await p.getByTestId('audit-row').first().getByRole('button').last().click();
      await p.screenshot({ path: `${shots}/moderation-audit-${locale}-${tag}.png`, fullPage: true });
      await context.close();
    }
  }
});
