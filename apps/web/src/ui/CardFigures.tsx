/**
 * The figures of a user card and of the player page's header: a label over a value, Elo, recent
 * results. Plain React + CSS, so the player page's first paint draws them before MUI has loaded
 * (bench/RESULTS.md, session 16).
 */
import { ELO_DEFAULT } from '@openpug/shared';
import type { CSSProperties, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './CardFigures.module.css';

export const eloOf = (user: { stats?: { elo?: number } | null }) => user.stats?.elo ?? ELO_DEFAULT;

/** A label over its value; `large` on the player page. */
export function Figure({
  label,
  children,
  size = 'body',
  style,
}: {
  label: string;
  children: ReactNode;
  size?: 'body' | 'large';
  /** The value's own style (its colour, its weight). */
  style?: CSSProperties;
}) {
  return (
    <div>
      <div className={styles.label}>{label}</div>
      <div className={size === 'large' ? `${styles.value} ${styles.large}` : styles.value} style={style}>
        {children}
      </div>
    </div>
  );
}

/** Recent results as W/L letters, newest first. */
export function RecentResults({ results }: { results: readonly ('W' | 'L')[] }) {
  const { t } = useTranslation();
  if (results.length === 0) return null;
  return (
    <ul className={styles.results} aria-label={t('friends.card.recentResults')}>
      {results.map((result, index) => (
        <li
          // biome-ignore lint/suspicious/noArrayIndexKey: results have no id; their order is fixed
          key={index}
          title={t(result === 'W' ? 'friends.card.win' : 'friends.card.loss')}
          className={`${styles.result} ${result === 'W' ? styles.win : styles.loss}`}
        >
          {result}
        </li>
      ))}
    </ul>
  );
}
