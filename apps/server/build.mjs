// Bundles the server (and the shared package's TypeScript) into dist/main.js; node_modules stay external.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  packages: 'external',
  // The shared workspace package is TypeScript source: bundle it instead of leaving it external.
  alias: { '@openpug/shared': '../../packages/shared/src/index.ts' },
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
