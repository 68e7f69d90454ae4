/**
 * Journey helpers for social features: sign up a player through the API and log a browser
 * context in by storing the session the way features/session expects it (localStorage keys
 * token, user, expiry, matrix), so the app auto-logs in on the next page load.
 */
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { type SessionAnswer, signUpByApi, storeSession } from './accounts';

export interface Player {
  id: string;
  name: string;
  email: string;
  password: string;
  token: string;
  session: SessionAnswer;
}

let counter = 0;

/** A fresh player with a unique name (`<prefix><random>`). */
export async function signUpPlayer(request: APIRequestContext, prefix: string): Promise<Player> {
  const tag = `${Date.now().toString(36)}${(counter++).toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const name = `${prefix}${tag}`;
  const email = `${name.toLowerCase()}@example.test`;
  const password = 'secret-pass-1';
  const session = await signUpByApi(request, { name, email, password });
  return { id: session.user._id, name, email, password, token: session.token, session };
}

/** Stores the player's session in the context's origin; the next navigation starts logged in. */
export async function logInContext(context: BrowserContext, player: Player, locale = 'en'): Promise<Page> {
  const page = await context.newPage();
  await storeSession(page, player.session, locale);
  return page;
}

/** A new browser context (its own storage, like another person's browser) logged in as `player`. */
export async function openAs(
  browser: Browser,
  player: Player,
  options: { locale?: string; viewport?: { width: number; height: number }; permissions?: string[] } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1400, height: 900 },
    permissions: options.permissions,
  });
  const page = await logInContext(context, player, options.locale);
  return { context, page };
}

/** Makes two players friends through the API (request + accept). */
export async function befriend(request: APIRequestContext, a: Player, b: Player): Promise<void> {
  const sent = await request.post('/api/friends', {
    data: { recipient: b.id },
    headers: { Authorization: `Bearer ${a.token}` },
  });
  const { _id } = await sent.json();
  await request.patch(`/api/friends/${_id}`, {
    data: { accepted: true },
    headers: { Authorization: `Bearer ${b.token}` },
  });
}
