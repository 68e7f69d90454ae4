import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFriendsStore } from '../../features/friends/store';
import { useSession } from '../../features/session/store';
import controls from '../../ui/controls.module.css';
import { FriendsIcon, MenuIcon } from '../../ui/icons';
import { Logo } from '../../ui/Logo';
import styles from './AppLayout.module.css';
import { setFriendsOpen, setNavigationOpen } from './layoutState';

/** Opens the friends drawer; a red dot while friend requests wait. */
function FriendsButton() {
  const { t } = useTranslation();
  const received = useFriendsStore((s) => s.received.length);
  return (
    <button
      type="button"
      className={`${controls.iconButton} ${controls.bare} ${styles.friendsButton}`}
      aria-label={
        received > 0
          ? `${t('nav.friends')} (${t('friends.sidebar.requests', { count: received })})`
          : t('nav.friends')
      }
      onClick={() => setFriendsOpen(true)}
    >
      <FriendsIcon />
      {received > 0 && <span className={styles.redDot} data-testid="phone-received-dot" />}
    </button>
  );
}

/** On phones the sidebar collapses into this bar's menu button; friends open from the right. */
export function PhoneTopBar() {
  const { t } = useTranslation();
  const loggedIn = useSession((s) => s.isTokenSet);
  return (
    <header className={styles.topBar}>
      <button
        type="button"
        className={`${controls.iconButton} ${controls.bare}`}
        aria-label={t('nav.openMenu')}
        onClick={() => setNavigationOpen(true)}
      >
        <MenuIcon />
      </button>
      <Link to="/" className={styles.homeLink} aria-label={t('app.home')}>
        <Logo size={28} />
      </Link>
      {loggedIn && <FriendsButton />}
    </header>
  );
}
