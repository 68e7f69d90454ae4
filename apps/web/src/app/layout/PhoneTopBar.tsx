import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import controls from '../../ui/controls.module.css';
import { MenuIcon } from '../../ui/icons';
import { Logo } from '../../ui/Logo';
import styles from './AppLayout.module.css';
import { setNavigationOpen } from './layoutState';

/** On phones the sidebar collapses into this bar's menu button. */
export function PhoneTopBar() {
  const { t } = useTranslation();
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
    </header>
  );
}
