/**
 * The start-up splash's class (ui/global.css), shared by StartupSplash and the copy of the splash
 * that the build draws into index.html (vite.config.ts), so the two look the same and React's
 * first render changes nothing on the screen.
 */
export const SPLASH_CLASS = 'op-startup-splash';
