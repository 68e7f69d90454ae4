/**
 * The one way openpug compares a secret someone sent (a token, a signature, a code hash) with the
 * one it holds. Both sides are hashed first, so neither their content nor their length shows in
 * the time taken: `timingSafeEqual` alone throws on different lengths, and a length check in
 * front of it answers early for a wrong length.
 */
import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string | Buffer) => createHash('sha256').update(value).digest();

export function sameSecret(given: string | Buffer, expected: string | Buffer): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
