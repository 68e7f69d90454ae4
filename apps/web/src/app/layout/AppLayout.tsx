/**
 * The global layout of docs/contract.md §2: navigation sidebar, the screen, the friends area (logged in only)
 * and the app-wide dialogs. Chat routes show the screen alone (no sidebars, queue widget or
 * match-result dialog). Everything here is plain React + CSS; MUI parts load lazily.
 */
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { AccountDialogs } from '../../features/accounts/AccountDialogs';
import { useSession } from '../../features/session/store';
import { isChatPath } from '../routeTable';
import styles from './AppLayout.module.css';
import { FriendsArea } from './FriendsArea';
import { NavigationProgress } from './NavigationProgress';
import { NavigationSidebar } from './NavigationSidebar';
import { AppDialogs, preloadOverlays } from './overlays';
import { PhoneTopBar } from './PhoneTopBar';
import { LoggedInOverlays } from './slots';

function whenIdle(run: () => void): void {
  if ('requestIdleCallback' in window) window.requestIdleCallback(run);
  else setTimeout(run, 1500);
}

export function AppLayout() {
  const { pathname } = useLocation();
  const loggedIn = useSession((s) => s.isTokenSet);
  const onChatRoute = isChatPath(pathname);
  useEffect(() => whenIdle(preloadOverlays), []);
  return (
    <div className={styles.shell}>
      <NavigationProgress />
      {!onChatRoute && <NavigationSidebar />}
      <main className={styles.main} data-floating-overlays={loggedIn && !onChatRoute}>
        {!onChatRoute && <PhoneTopBar />}
        <Outlet />
      </main>
      {!onChatRoute && loggedIn && <FriendsArea />}
      {loggedIn && <LoggedInOverlays onChatRoute={onChatRoute} />}
      {loggedIn && <AccountDialogs />}
      <AppDialogs />
    </div>
  );
}
