// `npm test`: the whole suite from a fresh clone — lint, typecheck, unit and API tests (Vitest:
// shared, server on PGlite, server on PostgreSQL when TEST_DATABASE_URL is set, web), then the
// production build and the browser journeys (Playwright driving Debian's Chromium). Ends with one
// "N passed, N failed" line over everything.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, run } from './lib.mjs';

const started = Date.now();
ensureInstalled();

const out = mkdtempSync(path.join(os.tmpdir(), 'openpug-test-'));
const steps = [];
let passed = 0;
let failed = 0;
let skipped = 0;

function step(name, fn) {
  const t = Date.now();
  const ok = fn();
  steps.push(`${ok ? 'ok  ' : 'FAIL'} ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  return ok;
}

step('lint (biome)', () => run('npx', ['biome', 'check', '.']) === 0) || failed++;
step('typecheck', () => run('npm', ['run', 'typecheck', '--silent']) === 0) || failed++;

const vitestJson = path.join(out, 'vitest.json');
step('unit and API tests (vitest)', () => {
  const status = run('npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile=${vitestJson}`,
  ]);
  if (existsSync(vitestJson)) {
    const r = JSON.parse(readFileSync(vitestJson, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    if (status !== 0 && r.numFailedTests === 0) failed++; // e.g. a file that failed to load
  } else if (status !== 0) failed++;
  return status === 0;
});

step('build', () => {
  ensureBuilt({ force: true });
  return true;
});

const pwJson = path.join(out, 'playwright.json');
step('browser journeys (playwright)', () => {
  const status = run('npx', ['playwright', 'test', '--reporter=list,json'], {
    env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson },
  });
  if (existsSync(pwJson)) {
    const s = JSON.parse(readFileSync(pwJson, 'utf8')).stats;
    passed += s.expected;
    failed += s.unexpected;
    skipped += s.skipped;
    // flaky = passed on retry; counted as passed but visible in the list output
    passed += s.flaky;
    if (status !== 0 && s.unexpected === 0) failed++;
  } else if (status !== 0) failed++;
  return status === 0;
});

console.log(`\n${steps.join('\n')}`);
console.log(`total wall time ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
