import { useNavigation } from 'react-router';
import styles from './AppLayout.module.css';

/** A thin accent bar while the next screen's chunk is loading. */
export function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state !== 'loading') return null;
  return <div className={styles.progress} role="progressbar" aria-busy="true" />;
}
