import styles from './Logo.module.css';
import { tokens } from './tokens';

/** The openpug mark: a hexagon badge with a crosshair. Same drawing as public/favicon.svg. */
export function LogoMark({ size = 32 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path d="M16 1.5 29 9v14l-13 7.5L3 23V9z" fill={tokens.accent} />
      <circle cx="16" cy="16" r="7" fill="none" stroke={tokens.bg} strokeWidth="2.4" />
      <path
        d="M16 6.5v5M16 20.5v5M6.5 16h5M20.5 16h5"
        stroke={tokens.bg}
        strokeWidth="2.4"
        strokeLinecap="round"
      />
      <circle cx="16" cy="16" r="1.8" fill={tokens.bg} />
    </svg>
  );
}

/** Mark plus word mark ("open" + accent "pug"), as in the sidebar header. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <span className={styles.logo} style={{ fontSize: size * 0.62 }}>
      <LogoMark size={size} />
      <span>
        open<span className={styles.accent}>pug</span>
      </span>
    </span>
  );
}
