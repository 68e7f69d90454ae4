// Prints the landing route's initial JavaScript: the entry chunk plus everything it imports
// statically, gzip-compressed, read from dist/.vite/manifest.json. Usage: node scripts/initial-js.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
const seen = new Set();
const visit = (key) => {
  if (seen.has(key)) return;
  seen.add(key);
  for (const next of manifest[key].imports ?? []) visit(next);
};
visit(entryKey);
// Loaded before the first paint as well: the landing screen's chunk (the router waits for it)
// and the English texts (start-up waits for the active language).
for (const wanted of ['screens/landing/index', 'i18n/en.json']) {
  const key = Object.keys(manifest).find((k) => k.includes(wanted));
  if (key) visit(key);
}

let total = 0;
for (const key of seen) {
  const file = manifest[key].file;
  const bytes = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  total += bytes;
  console.log(`${(bytes / 1024).toFixed(1).padStart(7)} KB  ${file}`);
}
console.log(`${(total / 1024).toFixed(1).padStart(7)} KB  total JavaScript, gzip (${seen.size} files)`);
const css = new Set([...seen].flatMap((key) => manifest[key].css ?? []));
const cssBytes = [...css].reduce(
  (sum, file) => sum + gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length,
  0,
);
console.log(
  `${(cssBytes / 1024).toFixed(1).padStart(7)} KB  CSS, gzip (${css.size} files, not counted above)`,
);
