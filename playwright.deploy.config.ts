import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_PATH, chromiumArgs } from './e2e/helpers/chromium';
import { allow } from './e2e/helpers/time';

// The deploy journey (e2e/deploy/*.deploy.ts): the production topology of deploy/ started by
// `npm run deploy:local` (nginx with TLS in front of two instances on PostgreSQL, Redis and
// Synapse). Run by .ci/run after `npm test`:
//
//   npx playwright test -c playwright.deploy.config.ts
//
// Its files end in .deploy.ts, so the main configuration (playwright.config.ts) never picks them up.
const port = Number(process.env.DEPLOY_E2E_PORT ?? 3443);
const stateFile = path.join(os.tmpdir(), `openpug-deploy-e2e-${port}.json`);
// The journeys read the state (instance ports and pids) from here.
process.env.DEPLOY_STATE_FILE = stateFile;

export default defineConfig({
  testDir: 'e2e/deploy',
  testMatch: '**/*.deploy.ts',
  // Not test-results/: the main journeys, run at the same time by others, empty that folder.
  outputDir: path.join(os.tmpdir(), 'openpug-deploy-e2e-results'),
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // Bounds for an idle machine, scaled on a slower one (e2e/helpers/time.ts).
  timeout: allow(240_000),
  expect: { timeout: allow(15_000) },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL: `https://localhost:${port}`,
    // deploy:local makes a self-signed certificate at start.
    ignoreHTTPSErrors: true,
    locale: 'en-US',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: chromiumArgs,
    },
  },
  webServer: {
    command: 'node scripts/deploy-local.mjs',
    url: `https://localhost:${port}/api/health`,
    ignoreHTTPSErrors: true,
    // Synapse starts first (and is installed into its venv on a fresh machine).
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    // SIGTERM lets deploy:local stop the instances, drop its database and stop its Synapse.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
    env: {
      DEPLOY_PORT: String(port),
      DEPLOY_STATE_FILE: stateFile,
      // A killed instance comes back after 10 s, as systemd's Restart=on-failure would bring it.
      DEPLOY_RESTART_SEC: '10',
      // A round a second: a match lasts 15–30 s, long enough to kill an instance in the middle.
      SIM_ROUND_MS: '1000',
      // The journey signs up ten players from one address.
      RATE_LIMIT_PER_MIN: '0',
      LOG_LEVEL: 'warn',
    },
  },
});
