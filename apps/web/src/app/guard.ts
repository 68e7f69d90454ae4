/**
 * Navigation guard of docs/contract.md §2: before every navigation, a login-required route without a token
 * goes to `/`; any other navigation clears the error and success messages left by the previous
 * page. It runs as the loader of every route, so it sees the first load, links, back/forward and
 * redirects alike.
 */
import { redirect } from 'react-router';
import { setErrorMessage, setSuccessMessage } from '../features/app-state/store';
import { useSession } from '../features/session/store';

export interface GuardDeps {
  isTokenSet: () => boolean;
  clearMessages: () => void;
}

const defaultDeps: GuardDeps = {
  isTokenSet: () => useSession.getState().isTokenSet,
  clearMessages: () => {
    setErrorMessage(null);
    setSuccessMessage(null);
  },
};

/** Returns the path to redirect to, or null to let the navigation proceed. */
export function guardNavigation(requiresAuth: boolean, deps: GuardDeps = defaultDeps): string | null {
  if (requiresAuth && !deps.isTokenSet()) return '/';
  deps.clearMessages();
  return null;
}

/** The guard as a route loader. */
export function guardLoader(requiresAuth: boolean, deps?: GuardDeps) {
  return () => {
    const target = guardNavigation(requiresAuth, deps);
    if (target !== null) throw redirect(target);
    return null;
  };
}
