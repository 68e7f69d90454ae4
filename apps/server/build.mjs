// Bundles the server (and the shared package's TypeScript) into dist/main.js and the embedded
// database's process into dist/engine-child.js; node_modules stay external. Then writes
// dist/pgdata.tar.gz: a PGlite data directory initialised and migrated from our own migrations,
// which a first boot unpacks instead of running initdb (db/engine-child.ts; bench/RESULTS.md
// "Embedded default off the main thread"). It is cached under node_modules/.cache by the
// migrations' content and the PGlite version, so a build without a new migration reuses it.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

// Chunk names carry a hash: drop the previous build's so dist holds one server.
if (existsSync('dist'))
  for (const old of readdirSync('dist')) if (/\.js(\.map)?$/.test(old)) rmSync(path.join('dist', old));

await build({
  entryPoints: { main: 'src/main.ts', 'engine-child': 'src/db/engine-child.ts' },
  // serve.ts is imported dynamically by the launcher: its own chunk, so its packages load only then.
  splitting: true,
  outdir: 'dist',
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

const migrations = path.resolve('migrations');
const pgliteVersion = JSON.parse(
  readFileSync(path.resolve('../../node_modules/@electric-sql/pglite/package.json'), 'utf8'),
).version;
const hash = createHash('sha256').update(pgliteVersion);
const walk = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else hash.update(entry.name).update(readFileSync(file));
  }
};
walk(migrations);
const key = hash.digest('hex').slice(0, 16);
const cacheDir = path.resolve('../../node_modules/.cache/openpug');
const cached = path.join(cacheDir, `pgdata-${key}.tar.gz`);
if (!existsSync(cached)) {
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'openpug-pgdata-'));
  try {
    const db = new PGlite({ dataDir: dir });
    await migrate(drizzle(db), { migrationsFolder: migrations });
    await db.exec('CHECKPOINT');
    const tar = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    await db.close();
    mkdirSync(cacheDir, { recursive: true });
    for (const old of readdirSync(cacheDir)) if (old.startsWith('pgdata-')) rmSync(path.join(cacheDir, old));
    writeFileSync(cached, gzipSync(tar, { level: 6 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
copyFileSync(cached, 'dist/pgdata.tar.gz');
