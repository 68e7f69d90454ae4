// Initial JavaScript of the landing route: the entry chunk plus everything it imports statically
// (not the lazily loaded screens), gzip level 9, read from the Vite build manifest.
// Target (issue 2): ≤ 150 KB gzip. Run after `npm run build`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../apps/web/dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry);
if (!entryKey) throw new Error('no entry in the manifest');

const seen = new Set();
const visit = (key) => {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key].imports ?? []) visit(dep);
};
visit(entryKey);

let raw = 0;
let gz = 0;
const rows = [];
for (const key of seen) {
  const file = manifest[key].file;
  if (!file.endsWith('.js')) continue;
  const bytes = readFileSync(path.join(dist, file));
  const g = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += g;
  rows.push(`${file}  ${(g / 1024).toFixed(1)} KB gz`);
}
export const result = { initialJsGzipKB: +(gz / 1024).toFixed(1), initialJsRawKB: +(raw / 1024).toFixed(1) };
console.log(rows.join('\n'));
console.log(
  `landing initial JS: ${result.initialJsGzipKB} KB gzip (${result.initialJsRawKB} KB raw) — target ≤ 150 KB`,
);
if (result.initialJsGzipKB > 150) process.exitCode = 1;
