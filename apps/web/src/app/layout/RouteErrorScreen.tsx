import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import controls from '../../ui/controls.module.css';
import { LogoMark } from '../../ui/Logo';
import styles from './AppLayout.module.css';

/**
 * Shown when a screen fails to load or render, typically a chunk that vanished with a new
 * deployment: reloading fetches the current one. Plain React + CSS, so it works even when the
 * lazily loaded UI cannot be fetched.
 */
export function RouteErrorScreen() {
  const { t } = useTranslation();
  console.error(useRouteError());
  return (
    <main className={styles.routeError}>
      <LogoMark size={48} />
      <h1>{t('routeError.title')}</h1>
      <p>{t('routeError.hint')}</p>
      <button
        type="button"
        className={`${controls.button} ${controls.primary}`}
        onClick={() => location.reload()}
      >
        {t('routeError.reload')}
      </button>
    </main>
  );
}
