import { createBrowserRouter } from 'react-router';
import { LOGIN_PATH, startSessionRules } from '../features/accounts/sessionRules';
import { useSession } from '../features/session/store';
import { reloadIntoPendingNavigation } from './chunkRecovery';
import { buildRoutes } from './routes';
import { checkVersionWhenDue } from './versionCheck';

export function createAppRouter() {
  const router = createBrowserRouter(buildRoutes(), { basename: '/' });
  // Logging out (also by a 401) re-runs the guard, which leaves login-required pages.
  useSession.subscribe((state, previous) => {
    if (previous.isTokenSet && !state.isTokenSet) void router.revalidate();
  });
  // Token refresh, live user updates, and the login route after a logout (also by a 401).
  startSessionRules({ onLoggedOut: () => void router.navigate(LOGIN_PATH) });
  // A chunk that fails after a deploy reloads into the screen the player was opening.
  reloadIntoPendingNavigation(() => {
    const to = router.state.navigation.location;
    return to ? `${to.pathname}${to.search}${to.hash}` : null;
  });
  // Long-lived tabs pick up new deployments at a navigation, where a reload disturbs least.
  router.subscribe((state) => {
    if (state.navigation.state === 'idle') void checkVersionWhenDue();
  });
  return router;
}
