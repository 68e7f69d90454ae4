import { createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setErrorMessage, setSuccessMessage, useAppState } from '../features/app-state/store';
import { logout, saveSession } from '../features/session/store';
import { guardLoader, guardNavigation } from './guard';
import { buildRoutes } from './routes';

function messagesShown() {
  const { showErrorMessage, errorMessage, successMessage } = useAppState.getState();
  return { showErrorMessage, errorMessage, successMessage };
}

describe('guardNavigation', () => {
  it('sends a login-required route without a token to /, leaving messages alone', () => {
    let cleared = false;
    const target = guardNavigation(true, { isTokenSet: () => false, clearMessages: () => (cleared = true) });
    expect(target).toBe('/');
    expect(cleared).toBe(false);
  });

  it('lets a login-required route through with a token and clears the messages', () => {
    let cleared = false;
    const target = guardNavigation(true, { isTokenSet: () => true, clearMessages: () => (cleared = true) });
    expect(target).toBeNull();
    expect(cleared).toBe(true);
  });

  it('lets a public route through without a token and clears the messages', () => {
    let cleared = false;
    expect(
      guardNavigation(false, { isTokenSet: () => false, clearMessages: () => (cleared = true) }),
    ).toBeNull();
    expect(cleared).toBe(true);
  });
});

describe('guardLoader with the real stores', () => {
  beforeEach(() => {
    localStorage.clear();
    logout();
    setErrorMessage(null);
    setSuccessMessage(null);
  });
  afterEach(() => setSuccessMessage(null));

  it('throws a redirect to / for a login-required route when logged out', () => {
    try {
      guardLoader(true)();
      expect.unreachable('the guard should have redirected');
    } catch (thrown) {
      expect(thrown).toBeInstanceOf(Response);
      expect((thrown as Response).headers.get('Location')).toBe('/');
    }
  });

  it('clears the error list and the success message on a permitted navigation', () => {
    saveSession({ token: 't', user: { _id: 'u1' } });
    setErrorMessage('BAD_TOKEN');
    setSuccessMessage({ key: 'common.SAVED_SUCCESSFULLY', timeout: 0 });
    expect(guardLoader(true)()).toBeNull();
    expect(messagesShown()).toEqual({ showErrorMessage: false, errorMessage: [], successMessage: null });
  });
});

describe('the router built from the route table', () => {
  beforeEach(() => {
    localStorage.clear();
    logout();
  });

  const settle = (router: ReturnType<typeof createMemoryRouter>) =>
    new Promise<void>((resolve) => {
      if (router.state.initialized && router.state.navigation.state === 'idle') return resolve();
      const stop = router.subscribe((state) => {
        if (state.initialized && state.navigation.state === 'idle') {
          stop();
          resolve();
        }
      });
    });

  it('redirects /home to / when no token is stored', async () => {
    const router = createMemoryRouter(buildRoutes(), { initialEntries: ['/home'] });
    await settle(router);
    expect(router.state.location.pathname).toBe('/');
    router.dispose();
  });

  it('keeps /home with a token', async () => {
    saveSession({ token: 't', user: { _id: 'u1' } });
    const router = createMemoryRouter(buildRoutes(), { initialEntries: ['/home'] });
    await settle(router);
    expect(router.state.location.pathname).toBe('/home');
    router.dispose();
  });

  it('redirects /user/:userId to its matches', async () => {
    const router = createMemoryRouter(buildRoutes(), { initialEntries: ['/user/abc'] });
    await settle(router);
    expect(router.state.location.pathname).toBe('/user/abc/matches');
    router.dispose();
  });

  it('sends a later navigation to a login-required route back to /', async () => {
    const router = createMemoryRouter(buildRoutes(), { initialEntries: ['/leaderboard'] });
    await settle(router);
    await router.navigate('/settings');
    await settle(router);
    expect(router.state.location.pathname).toBe('/');
    router.dispose();
  });
});
