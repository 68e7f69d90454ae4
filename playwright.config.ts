import { defineConfig } from '@playwright/test';

// Browser tests drive Debian's Chromium against the built server on a fresh data directory.
// Playwright never downloads a browser here: the executable is fixed below.
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
// A second server plays matches on CS2 servers (MatchZy provider) for the journeys of
// e2e/matchzy/: only what differs there (queueing needs Steam) is tested against it.
const matchzyPort = port + 1;
const matchzyURL = `http://localhost:${matchzyPort}`;

export default defineConfig({
  testDir: 'e2e',
  // One worker: the journeys share one server and one queue, and two that queue ten players at
  // the same time would draw each other's players into their accept phases.
  workers: 1,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL,
    locale: 'en-US',
    colorScheme: 'dark',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
        // A fake microphone (a beeping tone) for the voice-recorder journey; no prompt.
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    },
  },
  projects: [
    { name: 'journeys', testIgnore: 'matchzy/**' },
    { name: 'matchzy', testMatch: 'matchzy/**/*.spec.ts', use: { baseURL: matchzyURL } },
  ],
  webServer: [
    {
      command: 'node e2e/serve-built.mjs',
      url: `${baseURL}/api/health`,
      // A fresh PGlite data directory takes ~10 s to initialise; a missing build adds the build.
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      // SIM_ROUND_MS: the embedded game server plays a round every 300 ms (match journey).
      // ACCEPT_TIMEOUT_MS: the keyboard journey checks the accept dialog with axe during the phase
      // (two pages at two widths), which took longer than the usual 30 s on a busy machine.
      // ADMIN_EMAILS: the competition journey's admin account.
      // ARENA_POLL_MS: the arena journey's fake CS2 server is asked every second.
      // MATCH_CONNECT_*: the simulated players are on the server at once and seen within half a
      // second; a player the substitute journey keeps off is a no-show after five seconds.
      env: {
        E2E_PORT: String(port),
        SIM_ROUND_MS: '300',
        ACCEPT_TIMEOUT_MS: '90000',
        MATCH_CONNECT_TIMEOUT_MS: '5000',
        MATCH_CONNECT_POLL_MS: '500',
        ADMIN_EMAILS: 'competition-admin@example.test',
        ARENA_POLL_MS: '1000',
      },
    },
    {
      command: 'node e2e/serve-built.mjs',
      url: `${matchzyURL}/api/health`,
      timeout: 180_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      // Nothing listens on this RCON port: no match gets that far in these journeys.
      env: {
        E2E_PORT: String(matchzyPort),
        GAME_SERVER_PROVIDER: 'matchzy',
        CS2_SERVERS: 'rcon://:e2e@127.0.0.1:1',
      },
    },
  ],
});
