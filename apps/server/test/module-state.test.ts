/**
 * Module state lives on the context (docs/architecture.md, "Module state"): no server source keeps
 * per-app state in a WeakMap or WeakSet keyed by the AppContext, where two apps in one process (the
 * multi-instance tests) would hide it from the context's readers and tests could not reset it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const src = path.resolve(import.meta.dirname, '../src');
const keyedByContext = /\bnew\s+Weak(Map|Set)\s*<\s*AppContext\b/;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

// It reads files, not the database: once is enough (not again in server-pg).
describe.skipIf(process.env.TEST_DB === 'postgres')('module state', () => {
  it('no server source keys state by the context in a WeakMap or WeakSet', () => {
    const offenders = sources(src)
      .filter((file) => keyedByContext.test(readFileSync(file, 'utf8')))
      .map((file) => path.relative(src, file));
    expect(offenders).toEqual([]);
  });

  it('the check finds such a declaration', () => {
    expect(keyedByContext.test('const polling = new WeakSet<AppContext>();')).toBe(true);
    expect(keyedByContext.test('const started = new WeakMap<object, bigint>();')).toBe(false);
  });
});
