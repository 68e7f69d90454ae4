/**
 * How every journey starts Chromium (playwright.config.ts and playwright.deploy.config.ts): the
 * system browser, headless, without the background traffic and first-run screens of a profile.
 */
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

export const CHROMIUM_PATH = '/usr/bin/chromium';
