/**
 * The MUI theme: dark surfaces, one orange accent, system fonts (nothing is downloaded at run
 * time), built from the design tokens. It is part of the lazily loaded UI (see
 * app/FeatureProviders.tsx), never of the first paint.
 */
import { alpha, createTheme } from '@mui/material/styles';
import { tokens } from './tokens';

/**
 * The keyboard focus ring: MUI's ButtonBase removes the browser outline, so every button, icon
 * button, tab and menu item gets this one while focused by keyboard (`.Mui-focusVisible`).
 */
export const focusRing = { outline: `2px solid ${tokens.accent}`, outlineOffset: 2 } as const;
/** The same ring drawn inside, for items that fill a list or a menu edge to edge. */
const insetFocusRing = { ...focusRing, outlineOffset: -2 } as const;

export const theme = createTheme({
  palette: {
    mode: 'dark',
    primary: { main: tokens.accent, contrastText: tokens.accentContrast },
    background: { default: tokens.bg, paper: tokens.surface },
    text: { primary: tokens.text, secondary: tokens.textMuted },
    divider: tokens.divider,
    error: { main: tokens.error },
    success: { main: tokens.success },
    warning: { main: tokens.warning },
  },
  shape: { borderRadius: Number.parseInt(tokens.radius, 10) },
  typography: {
    fontFamily: tokens.font,
    h1: { fontSize: '2rem', fontWeight: 800, letterSpacing: '-0.02em' },
    h2: { fontSize: '1.5rem', fontWeight: 800, letterSpacing: '-0.01em' },
    h3: { fontSize: '1.25rem', fontWeight: 700 },
    overline: { fontWeight: 700, letterSpacing: '0.14em' },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiPaper: { styleOverrides: { root: { backgroundImage: 'none' } } },
    MuiDrawer: {
      styleOverrides: { paper: { backgroundColor: tokens.surface, borderColor: tokens.divider } },
    },
    MuiDialog: {
      styleOverrides: { paper: { backgroundColor: tokens.overlay, border: `1px solid ${tokens.divider}` } },
    },
    MuiButtonBase: { styleOverrides: { root: { '&.Mui-focusVisible': focusRing } } },
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiTab: {
      styleOverrides: {
        root: { textTransform: 'none', fontWeight: 600, '&.Mui-focusVisible': insetFocusRing },
      },
    },
    MuiMenuItem: { styleOverrides: { root: { '&.Mui-focusVisible': insetFocusRing } } },
    MuiListItemButton: { styleOverrides: { root: { '&.Mui-focusVisible': insetFocusRing } } },
    MuiCssBaseline: {
      styleOverrides: { '::selection': { backgroundColor: alpha(tokens.accent, 0.35) } },
    },
  },
});
