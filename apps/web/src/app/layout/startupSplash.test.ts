import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SPLASH_CLASS } from './splashClass';
import { withStartupSplash } from './startupSplash';

// The web package's folder (vitest runs its tests from there: apps/web/vitest.config.ts).
const web = (file: string) => readFileSync(path.resolve(import.meta.dirname, '../../..', file), 'utf8');
const favicon = web('public/favicon.svg');
const indexHtml = web('index.html');

describe('the start-up splash in index.html', () => {
  it('draws the mark in #root with the class StartupSplash uses, hidden from screen readers', () => {
    document.body.innerHTML =
      withStartupSplash(indexHtml, favicon).match(/<body>([\s\S]*)<\/body>/)?.[1] ?? '';
    const splash = document.querySelector(`#root > .${SPLASH_CLASS}`);
    const mark = splash?.querySelector('svg');
    expect(mark?.getAttribute('width')).toBe('56');
    expect(mark?.getAttribute('aria-hidden')).toBe('true');
    expect(mark?.querySelector('path')?.getAttribute('fill')).toBe('#ff6b35');
  });

  it('refuses a page without an empty #root rather than build one that paints nothing', () => {
    expect(() => withStartupSplash('<body><main></main></body>', favicon)).toThrow(
      'index.html has no empty <div id="root"></div>',
    );
  });
});
