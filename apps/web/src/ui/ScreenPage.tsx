import type { ReactNode } from 'react';
import styles from './ScreenPage.module.css';

/**
 * The frame of every screen: a centred column with the screen's title as its heading. Plain
 * React + CSS, so a plain screen (app/routeTable.ts PLAIN_SCREENS) paints its title before MUI has
 * loaded, in the same frame as every other screen.
 */
export function ScreenPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{title}</h1>
      {children}
    </div>
  );
}
