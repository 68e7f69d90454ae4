import type { ReactNode } from 'react';
import styles from './PlainScreenPage.module.css';

/**
 * ScreenPage's frame without MUI, for the plain screens (app/routeTable.ts PLAIN_SCREENS) whose
 * title paints before MUI has loaded: the same column, padding and heading (PlainScreenPage.module.css
 * copies ScreenPage's sx and the theme's h1).
 */
export function PlainScreenPage({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className={styles.page}>
      <h1 className={styles.title}>{title}</h1>
      {children}
    </div>
  );
}
