import { useTranslation } from 'react-i18next';
import styles from './AppLayout.module.css';
import { LazyFriendsDrawer } from './overlays';
import { LazyFriendsSidebar } from './slots';

/**
 * The right-hand area that holds the friends sidebar: a column on wide screens, a drawer below
 * that. The layout renders it only while the user is logged in.
 */
export function FriendsArea() {
  const { t } = useTranslation();
  return (
    <>
      <aside className={styles.friends} aria-label={t('nav.friends')}>
        <LazyFriendsSidebar />
      </aside>
      <LazyFriendsDrawer />
    </>
  );
}
