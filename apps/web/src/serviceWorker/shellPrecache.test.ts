import { describe, expect, it } from 'vitest';
import { graphFromManifest, SHELL_PAGE, shellFiles } from './shellPrecache';

// A build manifest shaped like dist/.vite/manifest.json: the entry, a shared vendor chunk, the
// landing screen (lazy, with CSS and a static import), the texts, and screens the landing never loads.
const manifest = {
  'index.html': {
    file: 'assets/index-a1.js',
    isEntry: true,
    imports: ['_vendor-b2.js'],
    css: ['assets/index-c3.css'],
  },
  '_vendor-b2.js': { file: 'assets/vendor-b2.js' },
  'src/screens/landing/index.ts': {
    file: 'assets/index-d4.js',
    imports: ['_vendor-b2.js', '_hero-e5.js'],
    css: ['assets/index-f6.css'],
  },
  '_hero-e5.js': { file: 'assets/hero-e5.js' },
  'src/i18n/en.json': { file: 'assets/en-g7.js' },
  'src/i18n/de.json': { file: 'assets/de-h8.js' },
  'src/screens/leaderboard/index.ts': { file: 'assets/index-i9.js', imports: ['_chart-j0.js'] },
  '_chart-j0.js': { file: 'assets/chart-j0.js' },
};

describe('shell precache list', () => {
  it('is index.html plus the entry, landing screen and texts with their static imports and CSS', () => {
    expect(shellFiles(graphFromManifest(manifest))).toEqual([
      SHELL_PAGE,
      '/assets/en-g7.js',
      '/assets/hero-e5.js',
      '/assets/index-a1.js',
      '/assets/index-c3.css',
      '/assets/index-d4.js',
      '/assets/index-f6.css',
      '/assets/vendor-b2.js',
    ]);
  });

  it('leaves out what the landing route does not load before its first paint', () => {
    const files = shellFiles(graphFromManifest(manifest));
    for (const other of ['/assets/de-h8.js', '/assets/index-i9.js', '/assets/chart-j0.js'])
      expect(files).not.toContain(other);
  });

  it('refuses a build without an entry or without the landing screen', () => {
    const { 'index.html': _entry, ...noEntry } = manifest;
    expect(() => shellFiles(graphFromManifest(noEntry))).toThrow('no entry');
    const { 'src/screens/landing/index.ts': _landing, ...noLanding } = manifest;
    expect(() => shellFiles(graphFromManifest(noLanding))).toThrow('screens/landing/index');
  });
});
