/**
 * The build draws the start-up splash (StartupSplash: the mark, pulsing, on the page's colour)
 * into index.html's #root, so the page paints as soon as the HTML and the shell's stylesheet are
 * in, not once the shell's JavaScript has downloaded and run; React replaces it with its own
 * splash or the first screen. On a phone's network that is about a second earlier (Lighthouse's
 * FCP, issue 20 target 2; bench/RESULTS.md, session 22). The mark is public/favicon.svg, so it is
 * drawn once.
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { SPLASH_CLASS } from './splashClass';

const ROOT = '<div id="root"></div>';

/** index.html with the splash in its empty #root. */
export function withStartupSplash(html: string, faviconSvg: string): string {
  if (!html.includes(ROOT)) throw new Error(`index.html has no empty ${ROOT}`);
  const mark = faviconSvg
    .trim()
    .replace('<svg ', '<svg width="56" height="56" aria-hidden="true" focusable="false" ');
  return html.replace(ROOT, `<div id="root"><div class="${SPLASH_CLASS}">${mark}</div></div>`);
}

export function startupSplash(faviconPath: URL): Plugin {
  return {
    name: 'openpug-startup-splash',
    transformIndexHtml: (html) => withStartupSplash(html, readFileSync(faviconPath, 'utf8')),
  };
}
