import { describe, expect, it } from 'vitest';
import type { ShellGraph } from '../serviceWorker/shellPrecache';
import { routePreloads } from './routePreloads';
import type { RouteEntry } from './routeTable';

// A build: the entry with its shell, two screens sharing a chunk, FeatureProviders and the texts.
const graph: ShellGraph = {
  'index.js': { file: 'assets/index.js', src: '/w/src/main.tsx', isEntry: true, imports: ['shell.js'] },
  'shell.js': { file: 'assets/shell.js', imports: [], css: ['assets/shell.css'] },
  'landing.js': { file: 'assets/landing.js', src: '/w/src/screens/landing/index.ts', imports: ['shell.js'] },
  'season.js': {
    file: 'assets/season.js',
    src: '/w/src/screens/season/index.ts',
    imports: ['table.js', 'shell.js'],
    css: ['assets/season.css'],
  },
  'table.js': { file: 'assets/table.js', imports: [] },
  'not-found.js': { file: 'assets/not-found.js', src: '/w/src/screens/not-found/index.ts', imports: [] },
  'providers.js': {
    file: 'assets/providers.js',
    src: '/w/src/app/FeatureProviders.tsx',
    imports: ['mui.js'],
  },
  'mui.js': { file: 'assets/mui.js', imports: [] },
  'en.js': { file: 'assets/en.js', src: '/w/src/i18n/en.json', imports: [] },
  'de.js': { file: 'assets/de.js', src: '/w/src/i18n/de.json', imports: [] },
};

const table: RouteEntry[] = [
  { path: '/', requiresAuth: false, screen: 'landing' },
  { path: '/old', requiresAuth: false },
  { path: '/season', requiresAuth: false, screen: 'season' },
  { path: '*', requiresAuth: false, screen: 'not-found' },
];

describe('route preloads', () => {
  const preloads = routePreloads(graph, table);

  it("names each route's screen with its imports and CSS, leaving out what index.html already loads", () => {
    expect(preloads.routes.map((r) => r.path)).toEqual(['/', '/season', '*']);
    // The landing screen is plain: no FeatureProviders.
    expect(preloads.routes[0].files).toEqual(['/assets/landing.js']);
    expect(preloads.routes[1].files).toEqual([
      '/assets/season.js',
      '/assets/table.js',
      '/assets/providers.js',
      '/assets/mui.js',
      '/assets/season.css',
    ]);
  });

  it('lists the texts of each language apart', () => {
    expect(preloads.locales).toEqual({ en: ['/assets/en.js'], de: ['/assets/de.js'] });
  });

  it('refuses a build without one of the chunks it needs', () => {
    const { 'not-found.js': _, ...withoutNotFound } = graph;
    expect(() => routePreloads(withoutNotFound, table)).toThrow('screens/not-found/index');
  });
});
