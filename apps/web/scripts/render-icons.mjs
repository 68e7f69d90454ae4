// Renders the mobile app's PNG icons from the SVGs in public/icons (run after changing them):
//   node apps/web/scripts/render-icons.mjs
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../public/icons');
const jobs = [
  ['icon.svg', 'icon-192.png', 192],
  ['icon.svg', 'icon-512.png', 512],
  ['icon-maskable.svg', 'icon-maskable-512.png', 512],
  ['badge.svg', 'badge-96.png', 96],
];
for (const [src, out, size] of jobs) {
  await sharp(readFileSync(path.join(dir, src)), { density: 300 })
    .resize(size, size)
    .png({ compressionLevel: 9 })
    .toFile(path.join(dir, out));
  console.log(`${out} ${size}x${size}`);
}
