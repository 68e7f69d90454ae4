/**
 * Input the database cannot store. PostgreSQL text and jsonb refuse U+0000, so a NUL character in
 * a path, query or body would fail deep inside a handler (a 500, maybe after a partial change).
 * No field of ours needs it: such a request is refused before validation and before any handler
 * (socket payloads likewise, in the hub).
 */
import type { FastifyInstance } from 'fastify';

/** True if `value` (strings, arrays and objects, keys included) holds a NUL character. */
export function containsNul(value: unknown): boolean {
  // Iterative: a deeply nested body must not overflow the stack.
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (item.includes('\u0000')) return true;
    } else if (Array.isArray(item)) {
      for (const element of item) pending.push(element);
    } else if (item !== null && typeof item === 'object') {
      // Binary bodies (media uploads) are not text.
      if (ArrayBuffer.isView(item) || item instanceof ArrayBuffer || seen.has(item)) continue;
      seen.add(item);
      for (const [k, v] of Object.entries(item)) {
        if (k.includes('\u0000')) return true;
        pending.push(v);
      }
    }
  }
  return false;
}

/** True if arrays/objects in `value` nest deeper than `max` levels (checked without recursion). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const pending: Array<[unknown, number]> = [[value, 0]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const child of Object.values(item)) pending.push([child, depth + 1]);
  }
  return false;
}

/** An error both error handlers (the API's and the homeserver's) render as a plain 400. */
export class NulCharacterError extends Error {
  readonly statusCode = 400;
  readonly code = 'NUL_CHARACTER';
  constructor() {
    super('The request contains a NUL character');
  }
}

export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body))
      return done(new NulCharacterError());
    done();
  });
}
