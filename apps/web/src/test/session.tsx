/**
 * What the web tests of a signed-in screen or form share: the session set, the API answered by a
 * function of the test (a `fetch` stub it can inspect), the query client (and a router where the
 * screen links), and the clean-up so no session, stub or DOM reaches the next test.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { logout, type SessionUser, useSession } from '../features/session/store';
import { changeLanguage, initI18n } from '../i18n';

/** The JSON body the API answers a request with. */
export type Answer = (url: string, init?: RequestInit) => unknown;

export function renderWithSession(
  ui: ReactElement,
  options: { answer: Answer; user?: Partial<SessionUser>; router?: boolean },
) {
  const fetch = vi.fn(
    async (url: RequestInfo | URL, init?: RequestInit) =>
      new Response(JSON.stringify(options.answer(String(url), init)), { status: 200 }),
  );
  vi.stubGlobal('fetch', fetch);
  useSession.setState({
    token: 'tok',
    isTokenSet: true,
    user: { _id: 'u1', name: 'Ace', ...options.user } as SessionUser,
  });
  render(
    <QueryClientProvider client={new QueryClient()}>
      {options.router ? <MemoryRouter>{ui}</MemoryRouter> : ui}
    </QueryClientProvider>,
  );
  return fetch;
}

/** Registers the hooks of such a suite: English texts, and a clean slate after every test. */
export function sessionTestHooks() {
  beforeAll(() => initI18n('en'));
  afterAll(() => changeLanguage('en'));
  afterEach(() => {
    cleanup();
    logout();
    vi.unstubAllGlobals();
  });
}
