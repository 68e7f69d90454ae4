/**
 * Deterministic identicons: a 5×5 horizontally mirrored grid coloured from a SHA-256 of the
 * input, as SVG. The same sender always gets the same picture.
 */
import { createHash } from 'node:crypto';

export function identiconSvg(seed: string, size = 64): string {
  const h = createHash('sha256').update(seed).digest();
  const hue = Math.round((h[0] / 255) * 360);
  const fg = `hsl(${hue} 60% 55%)`;
  const bg = 'hsl(0 0% 94%)';
  const cell = size / 6;
  const pad = cell / 2;
  const rects: string[] = [];
  for (let row = 0; row < 5; row++) {
    for (let col = 0; col < 3; col++) {
      if ((h[1 + row * 3 + col] & 1) === 0) continue;
      for (const c of col === 2 ? [2] : [col, 4 - col]) {
        rects.push(`<rect x="${pad + c * cell}" y="${pad + row * cell}" width="${cell}" height="${cell}"/>`);
      }
    }
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">` +
    `<rect width="${size}" height="${size}" fill="${bg}"/><g fill="${fg}">${rects.join('')}</g></svg>`
  );
}
