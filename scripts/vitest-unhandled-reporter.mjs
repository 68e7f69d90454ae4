// A Vitest reporter that writes the run's unhandled errors (those outside any test: a rejection or
// an exception after a test ended, a worker that crashed) to the JSON file named by
// VITEST_UNHANDLED_FILE, so `npm test` can repeat them in its closing summary: a CI log that keeps
// only its tail still shows what was thrown and from which test file.
import { writeFileSync } from 'node:fs';

export default class UnhandledErrorsReporter {
  onTestRunEnd(_modules, unhandledErrors) {
    const file = process.env.VITEST_UNHANDLED_FILE;
    if (!file) return;
    const errors = unhandledErrors.map((e) => ({
      type: e.type ?? e.name ?? 'Error',
      message: String(e.message ?? ''),
      // Vitest names the file and test that were running when the error was thrown.
      testFile: e.VITEST_TEST_PATH ?? null,
      testName: e.VITEST_TEST_NAME ?? null,
      stack: String(e.stack ?? '')
        .split('\n')
        .slice(0, 8)
        .join('\n'),
    }));
    writeFileSync(file, JSON.stringify(errors, null, 2));
  }
}
