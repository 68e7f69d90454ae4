/**
 * The design tokens: the one place for openpug's colours, radius, fonts and layout breakpoints.
 * The MUI theme (./theme.ts) is built from them, and the first-paint shell (sidebar, top bar,
 * landing hero) reads them as CSS custom properties, so it paints in the same look without
 * loading MUI. Breakpoints match MUI's defaults; the CSS modules repeat the two pixel values
 * (900px, 1200px) because media queries cannot read custom properties.
 */
export const tokens = {
  accent: '#ff6b35',
  accentSoft: 'rgba(255, 107, 53, 0.12)',
  accentContrast: '#0b0f17',
  bg: '#0b0f17',
  surface: '#121826',
  overlay: '#182031',
  text: '#e8ebf1',
  textMuted: '#98a2b3',
  textSubtle: '#b4bccb',
  hover: 'rgba(255, 255, 255, 0.04)',
  divider: 'rgba(255, 255, 255, 0.08)',
  error: '#f04b4b',
  /** MUI's dark-mode warning colour, which the theme keeps. */
  warning: '#ffa726',
  success: '#2fbf71',
  radius: '10px',
  font: 'Inter, "Segoe UI Variable", "Segoe UI", system-ui, -apple-system, Roboto, "Helvetica Neue", Arial, sans-serif',
  navigationWidth: '248px',
  friendsWidth: '288px',
} as const;

/** Publishes the tokens as `--op-<name>` custom properties on the document root. */
export function applyDesignTokens(root: HTMLElement = document.documentElement): void {
  for (const [name, value] of Object.entries(tokens)) {
    root.style.setProperty(`--op-${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`, value);
  }
}
