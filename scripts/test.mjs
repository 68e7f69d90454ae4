// `npm test`: the whole suite from a fresh clone — lint, typecheck, unit and API tests (Vitest:
// shared, server on PGlite, server on PostgreSQL when TEST_DATABASE_URL is set, web), then the
// production build and the browser journeys (Playwright driving Debian's Chromium). Ends with one
// "N passed, N failed" line over everything.
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureBuilt, ensureInstalled, run } from './lib.mjs';
import { ensureNode24 } from './node24.mjs';

ensureNode24();

const started = Date.now();
ensureInstalled();

const out = mkdtempSync(path.join(os.tmpdir(), 'openpug-test-'));
const steps = [];
let passed = 0;
let failed = 0;
let skipped = 0;
// Names of the failed tests, repeated at the end so a truncated log still shows them.
const failures = [];
// Journeys that passed only on their retry (playwright.config.ts retries on CI), named at the end.
const flaky = [];

function step(name, fn) {
  const t = Date.now();
  const ok = fn();
  steps.push(`${ok ? 'ok  ' : 'FAIL'} ${name} (${((Date.now() - t) / 1000).toFixed(1)} s)`);
  return ok;
}

step('lint (biome)', () => run('npx', ['biome', 'check', '.']) === 0) || failed++;
// Module boundaries (.dependency-cruiser.cjs, docs/architecture.md "Boundaries").
step('lint (module boundaries)', () => run('npm', ['run', 'lint:boundaries', '--silent']) === 0) || failed++;
step('typecheck', () => run('npm', ['run', 'typecheck', '--silent']) === 0) || failed++;

const vitestJson = path.join(out, 'vitest.json');
const vitestUnhandled = path.join(out, 'vitest-unhandled.json');
step('unit and API tests (vitest)', () => {
  const status = run(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=default',
      '--reporter=json',
      '--reporter=./scripts/vitest-unhandled-reporter.mjs',
      `--outputFile.json=${vitestJson}`,
    ],
    { env: { ...process.env, VITEST_UNHANDLED_FILE: vitestUnhandled } },
  );
  if (existsSync(vitestJson)) {
    const r = JSON.parse(readFileSync(vitestJson, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    for (const file of r.testResults) {
      const name = path.relative(process.cwd(), file.name);
      for (const t of file.assertionResults) {
        if (t.status === 'failed')
          failures.push(`vitest ${name} › ${t.fullName}\n      ${vitestWhy(t.failureMessages)}`);
        // Passed with the errors of an earlier attempt kept: it needed the retry (vitest.config.ts).
        else if (t.status === 'passed' && t.failureMessages.length > 0)
          flaky.push(`vitest ${name} › ${t.fullName}`);
      }
      if (file.status === 'failed' && file.assertionResults.length === 0) {
        failures.push(`vitest ${name}: ${String(file.message).split('\n')[0]}`);
      }
    }
    if (status !== 0 && r.numFailedTests === 0) {
      // e.g. a file that failed to load, or an unhandled error between tests
      failed++;
      failures.push('vitest: errors outside any test (see "Unhandled Errors" above)');
    }
    for (const e of unhandledErrors()) {
      const where = e.testFile
        ? ` while ${path.relative(process.cwd(), e.testFile)} ran${e.testName ? ` (${e.testName})` : ''}`
        : '';
      failures.push(`vitest unhandled ${e.type}${where}:\n      ${e.stack.split('\n').join('\n      ')}`);
    }
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
    const report = JSON.parse(readFileSync(pwJson, 'utf8'));
    const s = report.stats;
    collectPlaywrightFailures(report.suites ?? [], []);
    passed += s.expected;
    failed += s.unexpected;
    skipped += s.skipped;
    // flaky = passed on retry; counted as passed but visible in the list output
    passed += s.flaky;
    if (status !== 0 && s.unexpected === 0) failed++;
  } else if (status !== 0) failed++;
  return status === 0;
});

/**
 * A failed test's error, first lines of each attempt (the retry's may differ), so the end of a
 * truncated CI log says why and where, not only which.
 */
function vitestWhy(messages) {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the reporter's colour codes
  const plain = (m) => String(m).replace(/\u001b\[[0-9;]*m/g, '');
  const attempt = (m) => {
    const lines = plain(m).split('\n');
    const at = lines.find((l) => /^\s+at .*\.test\.ts:\d+/.test(l))?.trim() ?? '';
    const head = lines.filter((l) => l.trim() && !/^\s+at /.test(l)).slice(0, 3);
    return `${head.join(' | ').slice(0, 400)} ${at}`.trim();
  };
  return messages.length ? messages.map(attempt).join('\n      ') : 'no error recorded';
}

/** What scripts/vitest-unhandled-reporter.mjs recorded, or nothing. */
function unhandledErrors() {
  if (!existsSync(vitestUnhandled)) return [];
  return JSON.parse(readFileSync(vitestUnhandled, 'utf8'));
}

function collectPlaywrightFailures(suites, titles) {
  for (const suite of suites) {
    const suitePath = suite.title ? [...titles, suite.title] : titles;
    for (const spec of suite.specs ?? []) {
      const name = `playwright ${[...suitePath, spec.title].join(' › ')}`;
      if (!spec.ok) failures.push(`${name}\n      ${firstErrorLine(spec)}`);
      else if ((spec.tests ?? []).some((t) => t.status === 'flaky')) flaky.push(name);
    }
    collectPlaywrightFailures(suite.suites ?? [], suitePath);
  }
}

/** A failed journey's first error line (its last attempt), so the end of a truncated log says why. */
function firstErrorLine(spec) {
  const results = (spec.tests ?? []).flatMap((t) => t.results ?? []);
  const error = results.at(-1)?.error;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: strips the reporter's colour codes
  const text = String(error?.message ?? '').replace(/\u001b\[[0-9;]*m/g, '');
  const where = error?.location ? ` (${path.basename(error.location.file)}:${error.location.line})` : '';
  return `${text.split('\n').find((line) => line.trim()) ?? 'no error recorded'}${where}`.slice(0, 300);
}

console.log(`\n${steps.join('\n')}`);
if (failures.length) console.log(`failed:\n${failures.map((f) => `  ${f}`).join('\n')}`);
if (flaky.length) console.log(`passed on the retry only:\n${flaky.map((f) => `  ${f}`).join('\n')}`);
console.log(`total wall time ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
