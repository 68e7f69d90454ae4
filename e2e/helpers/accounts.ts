/**
 * Journey helpers for accounts (sign-up, login, mails, Steam popup, voice linking). Use the API
 * helpers to prepare players quickly and the UI helpers when the screens themselves are under test.
 *
 * - `newPlayerData(prefix)` → unique {name, email, password}
 * - `signUpByApi(request, data?)` → {user, token, expiresAt, matrix, ...data} (sign-up, then the mailed link)
 * - `confirmSignUp(request, email)` → opens the mailed sign-up link; the new account's session
 * - `storeSession(page, session, locale?)` → logged in on the next page load (localStorage)
 * - `signUpInBrowser(page, data)` / `logInInBrowser(page, email, password)` through the screens
 * - `outbox(request, to)`, `mailLink(request, email, kind)` → the newest verify/reset link
 * - `createVoiceIdentity(request, name)`, `voiceCode(request, identityId)`
 * - `disconnectVoiceIdentities(request)` → the identities this worker connected leave the voice server
 * - `linkVoiceByApi(request, token, name?)` → links a fresh simulated voice identity (queue-ready)
 * - `steamLogInInBrowser(page, steamId?)` → clicks "Sign in with Steam" and approves the dev identity popup
 */
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { allow } from './time';

export interface PlayerData {
  name: string;
  email: string;
  password: string;
}

export interface SessionAnswer {
  user: { _id: string; name: string | null; email: string | null; [field: string]: unknown };
  token: string;
  expiresAt: number;
  matrix: unknown;
}

export type SignedUp = PlayerData & SessionAnswer;

let counter = 0;
/** Unique sign-up data: name `<prefix><tag>`, e-mail `<name>@example.test`, password `secret-<tag>`. */
export function newPlayerData(prefix = 'p'): PlayerData {
  const tag = `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const name = `${prefix}${tag}`.slice(0, 64);
  return { name, email: `${name.toLowerCase()}@example.test`, password: `secret-${tag}` };
}

export async function signUpByApi(
  request: APIRequestContext,
  data: PlayerData = newPlayerData(),
  locale: 'en' | 'de' = 'en',
): Promise<SignedUp> {
  const res = await request.post('/api/register', { data: { ...data, locale } });
  expect(res.status(), await res.text()).toBe(202);
  return { ...data, ...(await confirmSignUp(request, data.email)) };
}

/** Opens the sign-up link mailed to `email` (the account is created then): the new session. */
export async function confirmSignUp(request: APIRequestContext, email: string): Promise<SessionAnswer> {
  const id = (await mailLink(request, email, 'verify')).split('/verify/')[1];
  const res = await request.post('/api/verify', { data: { id } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { session: SessionAnswer }).session;
}

/** Stores a session the way the web app does; the next page load starts logged in. */
export async function storeSession(page: Page, session: SessionAnswer, locale = 'en'): Promise<void> {
  if (page.url() === 'about:blank') await page.goto('/about');
  await page.evaluate(
    ({ session, locale }) => {
      localStorage.setItem('token', session.token);
      localStorage.setItem('user', JSON.stringify(session.user));
      localStorage.setItem('expiry', String(session.expiresAt));
      if (session.matrix) localStorage.setItem('matrix', JSON.stringify(session.matrix));
      localStorage.setItem('locale', locale);
    },
    { session, locale },
  );
}

/** Fills the sign-up screen (labels in the page's language are found by their input names). */
export async function signUpInBrowser(page: Page, data: PlayerData): Promise<void> {
  await page.goto('/signup');
  await page.locator('input[name="name"]').fill(data.name);
  await page.locator('input[name="email"]').fill(data.email);
  await page.locator('input[name="password"]').fill(data.password);
  await page.locator('input[name="confirmPassword"]').fill(data.password);
  await page.locator('form button[type="submit"]').click();
  await page.getByTestId('signup-sent').waitFor();
  // The link in the mail creates the account and signs it in.
  await page.goto(await mailLink(page.request, data.email, 'verify'));
  await page.getByRole('alert').waitFor();
  await page.goto('/home');
}

export async function logInInBrowser(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.locator('input[name="email"]').fill(email);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('form button[type="submit"]').click();
  await expect(page).toHaveURL(/\/home$/);
}

export interface OutboxMessage {
  _id: string;
  channel: 'email' | 'voice' | 'whatsapp' | 'push' | 'discord';
  to: string;
  subject: string;
  text: string;
  createdAt: number;
}

/** Dev outbox, newest first. */
export async function outbox(request: APIRequestContext, to: string): Promise<OutboxMessage[]> {
  const res = await request.get('/api/dev/outbox', { params: { to } });
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { docs: OutboxMessage[] }).docs;
}

/** The newest `/verify/…` or `/reset/…` link mailed to `email` (waits up to 10 s for it). */
export async function mailLink(
  request: APIRequestContext,
  email: string,
  kind: 'verify' | 'reset',
): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const m of await outbox(request, email)) {
          const found = m.text.match(new RegExp(`https?://\\S+/${kind}/\\S+`));
          if (m.channel === 'email' && found) {
            link = found[0];
            return true;
          }
        }
        return false;
      },
      { timeout: allow(10_000) },
    )
    .toBe(true);
  return link as string;
}

/** Identities createVoiceIdentity connected in this worker that are still on the voice server. */
const connectedIdentities = new Set<string>();

/** A simulated voice identity connects (it then shows in the voice link dialog). */
export async function createVoiceIdentity(
  request: APIRequestContext,
  name: string,
): Promise<{ id: string; name: string }> {
  const res = await request.post('/api/dev/voice/identities', { data: { name } });
  expect(res.ok(), await res.text()).toBe(true);
  const identity: { id: string; name: string } = await res.json();
  connectedIdentities.add(identity.id);
  return identity;
}

/**
 * They leave the voice server, as a player closing TeamSpeak would. For an afterEach: a journey
 * that failed after connecting one (or unlinked it again) would otherwise leave it in the next
 * journey's "pick your identity" list — and a retry would never see the empty list again.
 */
export async function disconnectVoiceIdentities(request: APIRequestContext): Promise<void> {
  for (const id of connectedIdentities) {
    const res = await request.delete(`/api/dev/voice/identities/${encodeURIComponent(id)}`);
    // 404: it had already gone (the journey disconnected it itself).
    expect([200, 404], await res.text()).toContain(res.status());
    connectedIdentities.delete(id);
  }
}

/** The newest 4-digit code the voice bot sent to the identity. */
export async function voiceCode(request: APIRequestContext, identityId: string): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const message = (await outbox(request, identityId)).find((m) => m.channel === 'voice');
        code = message?.text.match(/\b(\d{4})\b/)?.[1] ?? '';
        return code;
      },
      { timeout: allow(10_000) },
    )
    .toMatch(/^\d{4}$/);
  return code;
}

/** Links a fresh simulated voice identity to the account behind `token` (what queueing needs). */
export async function linkVoiceByApi(
  request: APIRequestContext,
  token: string,
  name = `voice-${Math.random().toString(36).slice(2, 8)}`,
): Promise<{ id: string; name: string }> {
  const identity = await createVoiceIdentity(request, name);
  const headers = { Authorization: `Bearer ${token}` };
  const link = await request.post('/api/profile/linkTeamSpeak', {
    headers,
    data: { teamSpeakId: identity.id },
  });
  expect(link.ok(), await link.text()).toBe(true);
  const code = await voiceCode(request, identity.id);
  const check = await request.post('/api/profile/teamSpeakCode', {
    headers,
    data: { teamSpeakId: identity.id, code },
  });
  expect(await check.json()).toEqual({ success: true });
  return identity;
}

/**
 * Logs in with Steam through the popup: the dev identity page stands in for Steam. The same
 * `steamId` (17 digits) always means the same account.
 */
export async function steamLogInInBrowser(page: Page, steamId?: string): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  const popupPromise = page.waitForEvent('popup');
  await page.getByRole('button', { name: /Steam/ }).click();
  const popup = await popupPromise;
  await popup.waitForLoadState();
  const field = popup.locator('input[name="steamId"]');
  if (steamId) await field.fill(steamId);
  await Promise.all([popup.waitForEvent('close'), popup.getByRole('button', { name: 'Sign in' }).click()]);
  await expect(page).toHaveURL(/\/home$/);
}
