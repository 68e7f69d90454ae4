/**
 * Writes /sw.js (apps/web/src/serviceWorker/sw.js) with this build's shell list in front: the
 * files come from the bundle itself (shellPrecache.ts), so the worker can only precache what the
 * build emitted. A dozen lines of our own rather than vite-plugin-pwa/workbox: the worker also
 * carries the phone app's push handling, needs exactly two strategies, and workbox would add a
 * runtime plus a build dependency tree for that. The dev server serves the worker without a list
 * (nothing precached; pushes still work).
 */
import { readFileSync } from 'node:fs';
import type { Plugin } from 'vite';
import { graphFromBundle, shellFiles } from './shellPrecache';

const template = () => readFileSync(new URL('./sw.js', import.meta.url), 'utf8');

export function shellServiceWorker(version: string): Plugin {
  return {
    name: 'openpug-service-worker',
    configureServer(server) {
      server.middlewares.use('/sw.js', (_req, res) => {
        res.setHeader('content-type', 'text/javascript');
        res.end(template());
      });
    },
    generateBundle(_options, bundle) {
      const graph = graphFromBundle(bundle as Parameters<typeof graphFromBundle>[0]);
      const shell = { version, files: shellFiles(graph) };
      this.emitFile({
        type: 'asset',
        fileName: 'sw.js',
        source: `self.__OPENPUG_SHELL__ = ${JSON.stringify(shell)};\n${template()}`,
      });
    },
  };
}
