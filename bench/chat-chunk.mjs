// Chat chunk size and proof that the chat (matrix-js-sdk, the chat UI) is not in the landing
// route's initial JavaScript. Reads a web build's .vite/manifest.json:
//   node bench/chat-chunk.mjs [distDir=apps/web/dist]
// The landing route's initial JS is the entry chunk, the landing screen and the English texts
// plus everything they import statically (the same walk as apps/web/scripts/initial-js.mjs).
// The chat chunks are what the chat runtime (mounted lazily after login) loads statically on top.
// Exits 1 if any chunk of the landing graph contains the SDK or a chat module.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? 'apps/web/dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
const closure = (starts) => {
  const seen = new Set();
  const visit = (key) => {
    if (!key || seen.has(key)) return;
    seen.add(key);
    for (const next of manifest[key].imports ?? []) visit(next);
  };
  for (const s of starts) visit(s);
  return seen;
};
const find = (wanted) => Object.keys(manifest).find((k) => k.includes(wanted));
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const landing = closure([entry, find('screens/landing/index'), find('i18n/en.json')]);
const chat = closure([find('features/chat/ChatRuntime')]);
const SDK_MARKER = 'Multiple matrix-js-sdk entrypoints detected';
const gz = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const text = (file) => readFileSync(path.join(dist, file), 'utf8');

let landingBytes = 0;
const offenders = [];
for (const key of landing) {
  const file = manifest[key].file;
  landingBytes += gz(file);
  if (key.includes('features/chat/') || text(file).includes(SDK_MARKER)) offenders.push(file);
}
let chatBytes = 0;
let sdkFile = null;
for (const key of chat) {
  if (landing.has(key)) continue;
  const file = manifest[key].file;
  chatBytes += gz(file);
  if (text(file).includes(SDK_MARKER)) sdkFile = file;
}
const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
console.log(`landing initial JS (gzip): ${kb(landingBytes)} in ${landing.size} chunks`);
console.log(`chat chunks on top (gzip): ${kb(chatBytes)} (matrix-js-sdk in ${sdkFile ?? 'NOT FOUND'})`);
if (!sdkFile) {
  console.error('matrix-js-sdk was not found in the chat chunks: is the marker still in the SDK?');
  process.exit(1);
}
if (offenders.length) {
  console.error(`chat code in the landing route's initial JS: ${offenders.join(', ')}`);
  process.exit(1);
}
console.log('OK: the chat chunk is absent from the landing route static graph');
// The MP3 encoder for voice messages is a separate script, fetched on the first recording only.
const encoder = readdirSync(path.join(dist, 'assets')).find((f) => /^lamejs\.iife-.*\.js$/.test(f));
if (encoder)
  console.log(
    `voice-message MP3 encoder, loaded on the first recording (gzip): ${kb(gz(`assets/${encoder}`))}`,
  );
