/**
 * The module boundary rules (`.dependency-cruiser.cjs`, run by `npm run lint:boundaries`) do fail
 * on a violation: the real configuration checks the fixture tree in `scripts/boundaries-fixture/`,
 * where each `bad-*` file breaks one rule and every other import is one the rules allow.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const fixture = 'scripts/boundaries-fixture/apps';
const server = 'scripts/boundaries-fixture/apps/server/src';
const web = 'scripts/boundaries-fixture/apps/web/src';

type Cruise = { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };

// The rules read files, not the database: once is enough (not again in server-pg).
describe.skipIf(process.env.TEST_DB === 'postgres')('module boundaries', () => {
  it('refuses imports of another module or feature past its entry, and allows the rest', () => {
    const cruise = (outputType: string) =>
      spawnSync(
        process.execPath,
        [
          'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs',
          fixture,
          '--config',
          '.dependency-cruiser.cjs',
          '--output-type',
          outputType,
        ],
        { cwd: root, encoding: 'utf8' },
      );
    // As `npm run lint:boundaries` runs it: the command fails.
    const lint = cruise('err');
    expect(lint.status, lint.stderr).not.toBe(0);
    expect(lint.stdout).toContain('4 dependency violations');
    const run = cruise('json');
    const { violations } = (JSON.parse(run.stdout) as Cruise).summary;
    expect(violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort()).toEqual(
      [
        `server-foreign-tables: ${server}/modules/alpha/bad-table.ts → ${server}/modules/beta/schema.ts`,
        `server-module-internals: ${server}/modules/alpha/bad-internal.ts → ${server}/modules/beta/helpers.ts`,
        `server-outside-internals: ${server}/bad-outside.ts → ${server}/modules/beta/helpers.ts`,
        `web-feature-internals: ${web}/features/one/bad-internal.ts → ${web}/features/two/store.ts`,
      ].sort(),
    );
  }, 60_000);
});
