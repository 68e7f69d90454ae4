import { LogoMark } from '../../ui/Logo';
import styles from './AppLayout.module.css';

/** Shown while the first screen's chunk loads. */
export function StartupSplash() {
  return (
    <div className={styles.splash}>
      <LogoMark size={56} />
    </div>
  );
}
