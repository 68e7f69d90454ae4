/**
 * Accounts journeys, as a new player would try them: sign-up with the client rules, the
 * verification mail from the dev outbox, linking the voice identity with the bot's code, logout,
 * login, password change, forgot/reset, Steam through the popup (dev identity page) with the
 * name dialog, and the sign-up screens in German.
 */
import { expect, type Page, test } from '@playwright/test';
import {
  createVoiceIdentity,
  disconnectVoiceIdentities,
  logInInBrowser,
  mailLink,
  newPlayerData,
  outbox,
  signUpByApi,
  steamLogInInBrowser,
  storeSession,
  voiceCode,
} from './helpers/accounts';
import { allow } from './helpers/time';

const closeErrors = async (page: Page) => {
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /Close|Schließen/ })
    .click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
};

// The e-mail journey expects an empty voice server when its dialog opens.
test.afterEach(({ request }) => disconnectVoiceIdentities(request));

test('e-mail journey: sign up, verify, link voice, log out and in, change and reset the password', async ({
  page,
  request,
}) => {
  test.setTimeout(allow(90_000));
  const player = newPlayerData('Ace');

  // The landing page invites visitors to sign up.
  await page.goto('/');
  await page.getByRole('link', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('heading', { name: 'Sign up' })).toBeVisible();

  // Client rules of docs/contract.md §5, with the shared texts.
  const form = page.getByRole('form', { name: 'Sign up with e-mail' });
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByText('This field is required')).toHaveCount(3);
  await expect(form.getByText('Password is required')).toBeVisible();
  await form.getByLabel('Name').fill(player.name);
  await form.getByLabel('E-mail').fill('not-an-address');
  await form.getByLabel('Password', { exact: true }).fill('abc');
  await form.getByLabel('Confirm password').fill('abd');
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByText('Valid email is required')).toBeVisible();
  await expect(form.getByText('This field must have no less than 5 characters')).toBeVisible();
  await form.getByLabel('E-mail').fill(player.email);
  await form.getByLabel('Password', { exact: true }).fill(player.password);
  await form.getByRole('button', { name: 'Create account' }).click();
  await expect(form.getByText('Passwords must match')).toBeVisible();
  await form.getByLabel('Confirm password').fill(player.password);
  await form.getByRole('button', { name: 'Create account' }).click();

  // 202 → "check your e-mail" (the same answer whether or not the address has an account): no
  // session yet, and nothing to log in to.
  await expect(page.getByTestId('signup-sent')).toContainText(player.email);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  // The mail's link creates the account and signs it in.
  const verifyLink = await mailLink(request, player.email, 'verify');
  await page.goto(verifyLink);
  await expect(page.getByText('Your account is ready and you are signed in.')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
  expect(Number(await page.evaluate(() => localStorage.getItem('expiry')))).toBeGreaterThan(Date.now());
  expect(JSON.parse((await page.evaluate(() => localStorage.getItem('user'))) ?? '{}').verified).toBe(true);
  await page.getByRole('link', { name: 'Go to home' }).click();
  await expect(page.getByRole('heading', { name: `Welcome, ${player.name}!` })).toBeVisible();
  await expect(page.getByTestId('verify-notice')).toHaveCount(0);

  // Voice server: the identity list refreshes while the dialog is open.
  await page.getByRole('button', { name: 'Link voice server' }).click();
  const dialog = page.getByRole('dialog', { name: 'Link your voice server identity' });
  await expect(dialog.getByText(/Nobody connected yet/)).toBeVisible();
  const identity = await createVoiceIdentity(request, `${player.name}-ts`);
  await dialog.getByRole('button', { name: new RegExp(identity.name) }).click({ timeout: allow(12_000) });
  await expect(dialog.getByText(`Our bot sent a 4-digit code to ${identity.name}`)).toBeVisible();
  const code = await voiceCode(request, identity.id);
  const wrong = code === '0000' ? '1111' : '0000';
  const boxes = dialog.getByRole('group', { name: 'Code digit' }).locator('input');
  await expect(boxes).toHaveCount(4);
  await boxes.first().click();
  await page.keyboard.type(wrong);
  await expect(dialog.getByText('Wrong code. Please try again.')).toBeVisible();
  await expect(boxes.first()).toHaveAttribute('aria-invalid', 'true');
  await boxes.first().click();
  await page.keyboard.type(code);
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText('Voice server identity linked successfully')).toBeVisible();

  // Settings shows the link; unlinking shows the notice and reloads.
  await page.goto('/settings');
  const voiceRow = page.getByTestId('linked-voice');
  await expect(voiceRow.getByText('Linked', { exact: true })).toBeVisible();
  // Named by the identity's nickname on the voice server, not its uid (docs/contract.md §2 /settings, §3 Profile).
  await expect(voiceRow.getByTestId('voice-identity')).toHaveText(`Linked to ${identity.name}`);
  const reloaded = page.waitForEvent('load');
  await voiceRow.getByRole('button', { name: 'Unlink' }).click();
  await expect(page.getByText('TeamSpeak unlinked successfully')).toBeVisible();
  await reloaded;
  await expect(page.getByTestId('linked-voice').getByText('Not linked')).toBeVisible();

  // Log out → login route, storage cleared.
  await page.getByRole('main').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => [localStorage.getItem('token'), localStorage.getItem('user')])).toEqual([
    null,
    null,
  ]);

  // Wrong password, then the right one.
  const loginForm = page.getByRole('form', { name: 'Login with e-mail' });
  await loginForm.getByLabel('E-mail').fill(player.email);
  await loginForm.getByLabel('Password').fill('wrong-password');
  await loginForm.getByRole('button', { name: 'Login' }).click();
  // Shown at the password field (no dialog), with the reset link right under it.
  await expect(loginForm.getByText('Wrong e-mail or password')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(loginForm.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await expect(loginForm.getByRole('link', { name: 'Forgot password?' })).toBeVisible();
  await logInInBrowser(page, player.email, player.password);

  // Change the password in the profile.
  const newPassword = `${player.password}-2`;
  await page.goto('/profile');
  const pw = page.getByRole('form', { name: 'Change password' });
  await pw.getByLabel('Current password').fill('not-my-password');
  await pw.getByLabel('New password').fill(newPassword);
  await pw.getByLabel('Confirm password').fill(newPassword);
  await pw.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('dialog').getByText('Wrong password')).toBeVisible();
  await closeErrors(page);
  await pw.getByLabel('Current password').fill(player.password);
  await pw.getByLabel('New password').fill(newPassword);
  await pw.getByLabel('Confirm password').fill(newPassword);
  await pw.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed successfully')).toBeVisible();

  // Forgot → reset → log in with the reset password.
  await page.getByRole('main').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot$/);
  await page.getByLabel('E-mail').fill(player.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status').filter({ hasText: player.email })).toBeVisible();
  const resetLink = await mailLink(request, player.email, 'reset');
  await page.goto(resetLink);
  const resetPassword = `${player.password}-3`;
  await page.getByLabel('New password').fill(resetPassword);
  await page.getByLabel('Confirm password').fill(resetPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Password changed successfully')).toBeVisible();
  await expect(page.getByLabel('New password')).toHaveCount(0);

  // The link is single-use: a second try hides the inputs too.
  await page.goto(resetLink);
  await page.getByLabel('New password').fill('another-one');
  await page.getByLabel('Confirm password').fill('another-one');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('dialog').getByText('Not found or already used')).toBeVisible();
  await closeErrors(page);
  await expect(page.getByLabel('New password')).toHaveCount(0);

  await logInInBrowser(page, player.email, resetPassword);
  await expect(page.getByRole('heading', { name: `Welcome, ${player.name}!` })).toBeVisible();
});

test('Steam login through the popup, then the name dialog', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  const steamId = `7656119${String(Date.now()).slice(-10)}`;
  await steamLogInInBrowser(page, steamId);

  const dialog = page.getByRole('dialog', { name: 'Choose your name' });
  await expect(dialog).toBeVisible();
  const save = dialog.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  await dialog.getByLabel('Username').fill('   ');
  await expect(save).toBeDisabled();
  const name = `Steamy${Date.now().toString(36)}`;
  await dialog.getByLabel('Username').fill(name);
  await save.click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('heading', { name: `Welcome, ${name}!` })).toBeVisible();

  // Settings: Steam is linked; logging in again with the same identity is the same account.
  await page.goto('/settings');
  await expect(page.getByTestId('linked-steam').getByText('Linked', { exact: true })).toBeVisible();
  await page.getByRole('main').getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await steamLogInInBrowser(page, steamId);
  await expect(page.getByRole('heading', { name: `Welcome, ${name}!` })).toBeVisible();
  await expect(page.getByRole('dialog', { name: 'Choose your name' })).toHaveCount(0);
});

test('a message from another origin is ignored by the login screen', async ({ page }) => {
  await page.goto('/login');
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Sign in with Steam' }).click();
  const popup = await popupPromise;
  // A foreign frame posts a ticket-shaped message: it must not log anyone in.
  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.srcdoc = '<script>parent.postMessage({type:"openpug:steam",steamId:"forged"},"*")</script>';
    document.body.appendChild(frame);
  });
  await page.waitForTimeout(500);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await popup.close();
  await expect(page.getByRole('button', { name: 'Sign in with Steam' })).toBeEnabled();
});

test('linking Steam from the settings of an e-mail account', async ({ page, request }) => {
  const player = await signUpByApi(request, newPlayerData('Linker'));
  await storeSession(page, player);
  await page.goto('/settings');
  const steamRow = page.getByTestId('linked-steam');
  await expect(steamRow.getByText('Not linked')).toBeVisible();
  const popupPromise = page.waitForEvent('popup');
  await steamRow.getByRole('button', { name: 'Link' }).click();
  const popup = await popupPromise;
  await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()]);
  await expect(page.getByText('Steam linked successfully')).toBeVisible();
  await expect(steamRow.getByText('Linked', { exact: true })).toBeVisible();
  await expect(steamRow.getByRole('link', { name: 'Open Steam profile' })).toBeVisible();
});

test('sign-up screens in German', async ({ page, request }) => {
  const player = newPlayerData('Deutsch');
  await page.goto('/');
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await page.getByRole('link', { name: 'Registrieren' }).first().click();
  await expect(page.getByRole('heading', { name: 'Registrieren' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Mit E-Mail registrieren' });
  await form.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(form.getByText('Dieses Feld ist erforderlich')).toHaveCount(3);
  await expect(form.getByText('Passwort ist erforderlich')).toBeVisible();
  await form.getByLabel('Name').fill(player.name);
  await form.getByLabel('E-Mail').fill('kaputt');
  await form.getByLabel('Passwort', { exact: true }).fill('abc');
  await form.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(form.getByText('Eine gültige E-Mail ist erforderlich')).toBeVisible();
  await expect(form.getByText('Dieses Feld muss mindestens 5 Zeichen haben')).toBeVisible();
  await form.getByLabel('E-Mail').fill(player.email);
  await form.getByLabel('Passwort', { exact: true }).fill(player.password);
  await form.getByLabel('Passwort bestätigen').fill(`${player.password}x`);
  await form.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(form.getByText('Passwörter müssen übereinstimmen')).toBeVisible();
  await form.getByLabel('Passwort bestätigen').fill(player.password);
  await form.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(page.getByTestId('signup-sent')).toContainText(player.email);

  // The mail is German too; its link signs the new account in.
  const mails = await outbox(request, player.email);
  expect(mails[0]?.subject).toBe('Bestätige dein openpug-Konto');
  await page.goto(await mailLink(request, player.email, 'verify'));
  await expect(page.getByText('Dein Konto ist bereit und du bist angemeldet.')).toBeVisible();
  await page.goto('/home');
  await expect(page.getByRole('heading', { name: `Willkommen, ${player.name}!` })).toBeVisible();

  // The same address again: the same "check your e-mail" answer (nobody learns that the address
  // has an account), with the log-in and reset links; the owner gets a mail about the attempt.
  await page.evaluate(() => localStorage.removeItem('token'));
  await page.goto('/signup');
  const again = page.getByRole('form', { name: 'Mit E-Mail registrieren' });
  await again.getByLabel('Name').fill(`${player.name}2`);
  await again.getByLabel('E-Mail').fill(player.email);
  await again.getByLabel('Passwort', { exact: true }).fill('another-password');
  await again.getByLabel('Passwort bestätigen').fill('another-password');
  await again.getByRole('button', { name: 'Konto erstellen' }).click();
  await expect(page.getByTestId('signup-sent')).toContainText(player.email);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Anmelden' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Passwort zurücksetzen' })).toBeVisible();
  await expect
    .poll(async () => (await outbox(request, player.email))[0]?.subject)
    .toBe('Jemand wollte sich mit deiner Adresse registrieren');
});
