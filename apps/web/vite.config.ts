/**
 * Vite build of the web app. Besides bundling, it stamps one version string into the app (define)
 * and into dist/version.json, so a running tab can notice a newer deployment, and it writes the
 * build manifest that bench/ reads to measure the landing route's initial JavaScript. Every text
 * asset of 1 KB and more is also written precompressed (`.br`, `.gz`), which the server sends to
 * browsers that accept it (@fastify/static preCompressed): no compression work per request.
 * The service worker (/sw.js) is generated here too, with the build's shell files to precache.
 */
import { createRequire } from 'node:module';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';
import rootPackage from '../../package.json' with { type: 'json' };
import { startupSplash } from './src/app/layout/startupSplash';
import { routePreloadsFile } from './src/app/routePreloads';
import { shellServiceWorker } from './src/serviceWorker/plugin';

/** `<root package version>.<build epoch seconds>`: later builds always compare as newer. */
export const appVersion = `${rootPackage.version}.${Math.floor(Date.now() / 1000)}`;

function versionFile(version: string): Plugin {
  return {
    name: 'openpug-version-file',
    apply: 'build',
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'version.json', source: JSON.stringify({ version }) });
    },
  };
}

/**
 * The lamejs MP3 encoder (voice messages) is served as its own prebuilt script (its IIFE build,
 * which `require` resolves to), not bundled: its minified code names a local `z`, and
 * `manualPureFunctions: ['z']` below would drop its `z.setModules(...)` calls.
 */
const lamejsScript = createRequire(import.meta.url).resolve('@breezystack/lamejs');

/**
 * Every module the entry imports statically (its whole static closure) goes into one `shell`
 * chunk. Left to automatic chunking, the landing page's first render needed about 40 module
 * files, each a request of its own behind the last: on a phone's network (Lighthouse's mobile
 * preset: 150 ms round trips, six connections) that chain, not the bytes, held the first paint
 * (issue 20 target 2). Lazy screens keep their own chunks; what they share with the shell is
 * already loaded.
 */
function shellChunk(): { plugin: Plugin; test: (id: string) => boolean } {
  const shell = new Set<string>();
  const plugin: Plugin = {
    name: 'openpug-shell-chunk',
    apply: 'build',
    buildEnd() {
      const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
      // The entry script (index.html's main.tsx) stays its own chunk, the manifest's and the service
      // worker's entry, which imports the shell.
      const scripts = entries.flatMap((id) =>
        id.endsWith('.html') ? (this.getModuleInfo(id)?.importedIds ?? []) : [id],
      );
      // The entry reaches the shared package through its barrel, which re-exports every contract
      // module; a plain walk would put them all, with zod, into the shell although the first page
      // uses none of their schemas (about 25 KB brotli). Modules that import zod, and zod itself,
      // are left to the screens that use them: what the first page takes from the shared package
      // (constants, the error catalogue, compareVersions) lives in modules without zod.
      const isZod = (id: string) => /node_modules[\\/]zod[\\/]/.test(id);
      const buildsSchemas = (id: string) =>
        isZod(id) || (this.getModuleInfo(id)?.importedIds ?? []).some(isZod);
      const stack = scripts.flatMap((id) => this.getModuleInfo(id)?.importedIds ?? []);
      while (stack.length > 0) {
        const id = stack.pop() as string;
        if (shell.has(id) || buildsSchemas(id)) continue;
        shell.add(id);
        stack.push(...(this.getModuleInfo(id)?.importedIds ?? []));
      }
    },
  };
  return { plugin, test: (id) => shell.has(id) };
}
const shell = shellChunk();
const MUI_MODULES =
  /node_modules[\\/](@mui|@emotion|@popperjs|react-transition-group|stylis|hoist-non-react-statics|prop-types|react-is|clsx|@babel[\\/]runtime)[\\/]/;
/**
 * Kept out of the `mui` chunk, in the chunks of the screens that use it: TablePagination makes an
 * Intl.NumberFormat when its module runs, about 70 ms on Lighthouse's phone, a blocking task on
 * every screen that loads MUI, paged tables or not (bench/RESULTS.md, session 16).
 */
const MUI_KEPT_APART = /node_modules[\\/]@mui[\\/]material[\\/](esm[\\/])?TablePagination/;

const backend = 'http://localhost:3000';

export default defineConfig({
  plugins: [
    react(),
    // The start-up splash drawn into index.html: the first paint needs no JavaScript.
    startupSplash(new URL('./public/favicon.svg', import.meta.url)),
    shell.plugin,
    versionFile(appVersion),
    // /sw.js: precaches the shell of this build (index.html + the landing route's JS/CSS).
    shellServiceWorker(appVersion),
    // dist/preloads.json: what each route loads first, named in index.html by the server.
    routePreloadsFile(),
    compression({
      algorithms: ['brotliCompress', 'gzip'],
      include: /\.(js|mjs|css|html|svg|json|webmanifest|txt|map)$/,
      // Served uncached by the health module; tiny anyway.
      exclude: /(version|preloads)\.json$/,
      threshold: 1024,
      skipIfLargerOrEqual: true,
      logLevel: 'silent',
    }),
  ],
  resolve: { alias: [{ find: /^lamejs-script(?=\?)/, replacement: lamejsScript }] },
  define: { __APP_VERSION__: JSON.stringify(appVersion) },
  build: {
    manifest: true,
    target: 'es2022',
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'shell', test: shell.test, priority: 10 },
            // MUI and what it brings, for every screen but the landing page: one file rather than
            // a few dozen small shared chunks, each a request (the route preloads name them all).
            { name: 'mui', test: (id) => MUI_MODULES.test(id) && !MUI_KEPT_APART.test(id), priority: 5 },
          ],
        },
      },
      // The shared package builds zod schemas at module level; marking zod's builders pure lets
      // unused schemas (and zod with them) drop out of the browser bundle.
      treeshake: {
        moduleSideEffects: [{ test: /packages[\\/]shared[\\/]src/, sideEffects: false }],
        manualPureFunctions: ['z'],
      },
    },
  },
  server: {
    proxy: {
      '/api': backend,
      '/socket': { target: backend, ws: true },
      '/_matrix': backend,
      '/version.json': backend,
    },
  },
});
