import { useEffect } from 'react';
import { useLocation } from 'react-router';
import styles from './AppLayout.module.css';
import { setNavigationOpen } from './layoutState';
import { NavigationMenu } from './NavigationMenu';
import { LazyPhoneNavigationDrawer } from './overlays';

/** Docked on wide screens; on phones an overlay drawer opened from the top bar. */
export function NavigationSidebar() {
  const { pathname } = useLocation();
  // Following a link on a phone closes the drawer.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every page change
  useEffect(() => setNavigationOpen(false), [pathname]);
  return (
    <>
      <aside className={styles.navigation}>
        <NavigationMenu />
      </aside>
      <LazyPhoneNavigationDrawer />
    </>
  );
}
