import { defineConfig } from '@playwright/test';
import { CHROMIUM_PATH, chromiumArgs } from './e2e/helpers/chromium';
import { allow } from './e2e/helpers/time';

// Browser tests drive Debian's Chromium against the built server on a fresh data directory.
// Playwright never downloads a browser here: the executable is fixed below.
const port = Number(process.env.E2E_PORT ?? 3100);
const baseURL = `http://localhost:${port}`;
// A second server plays matches on CS2 servers (MatchZy provider) for the journeys of
// e2e/matchzy/: only what differs there (queueing needs Steam) is tested against it.
const matchzyPort = port + 1;
const matchzyURL = `http://localhost:${matchzyPort}`;
// The journeys run on two servers of their own, one worker each, so two journeys run at once
// without sharing a queue (see `workers` below). Most journeys wait on timers, sockets and
// animations rather than the CPU, so two at a time nearly halves the wall time on two cores.
// These files go to the second server; the split balances the time measured in
// bench/RESULTS.md ("npm test wall time"), and a journey must not depend on which others ran
// before it on its server.
const secondPort = port + 2;
const secondURL = `http://localhost:${secondPort}`;
const onSecondServer = [
  'accessibility.spec.ts',
  'substitutes.spec.ts',
  'arena.spec.ts',
  'chat-voice.spec.ts',
  'competition.spec.ts',
  'mobile.spec.ts',
  'moderation.spec.ts',
  'offline-shell.spec.ts',
  'player-page.spec.ts',
  'reports.spec.ts',
  'social.spec.ts',
  'voice-channels.spec.ts',
  'accept-phase-clutter.spec.ts',
];
/** The server a journey set runs against: the same settings for both, on its own port. */
function journeyServer(serverPort: number) {
  return {
    command: 'node e2e/serve-built.mjs',
    url: `http://localhost:${serverPort}/api/health`,
    // A fresh PGlite data directory takes ~10 s to initialise; a missing build adds the build.
    timeout: allow(180_000),
    reuseExistingServer: false,
    stdout: 'pipe' as const,
    stderr: 'pipe' as const,
    // SIM_ROUND_MS: the embedded game server plays a round every 300 ms (match journey).
    // ADMIN_EMAILS: the competition journey's admin account.
    // ARENA_POLL_MS: the arena journey's fake CS2 server is asked every second.
    // MATCH_CONNECT_*: the simulated players are on the server at once and seen within half a
    // second; a player the substitute journey keeps off is a no-show after five seconds.
    // ACCEPT_TIMEOUT_MS: the keyboard journey runs axe on two pages at two widths inside one
    // accept phase, which took 37 s on a loaded machine; no journey waits for a phase to run out.
    env: {
      ACCEPT_TIMEOUT_MS: '90000',
      E2E_PORT: String(serverPort),
      SIM_ROUND_MS: '300',
      MATCH_CONNECT_TIMEOUT_MS: '5000',
      MATCH_CONNECT_POLL_MS: '500',
      ADMIN_EMAILS: 'competition-admin@example.test',
      ARENA_POLL_MS: '1000',
    },
  };
}

export default defineConfig({
  testDir: 'e2e',
  // Two workers, but one per project: journeys on one server share one queue, and two that queue
  // ten players at the same time would draw each other's players into their accept phases.
  workers: 2,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  // One retry on CI, where a journey shares two slow cores with two others and three servers; a
  // journey that needed it is still listed by name at the end of `npm test` (scripts/test.mjs).
  retries: process.env.CI ? 1 : 0,
  // Bounds for an idle machine, scaled on a slower one (e2e/helpers/time.ts).
  timeout: allow(30_000),
  expect: { timeout: allow(10_000) },
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL,
    locale: 'en-US',
    colorScheme: 'dark',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        ...chromiumArgs,
        // A fake microphone (a beeping tone) for the voice-recorder journey; no prompt.
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    },
  },
  projects: [
    { name: 'journeys', testIgnore: ['matchzy/**', ...onSecondServer], workers: 1 },
    { name: 'journeys-2', testMatch: onSecondServer, workers: 1, use: { baseURL: secondURL } },
    { name: 'matchzy', testMatch: 'matchzy/**/*.spec.ts', workers: 1, use: { baseURL: matchzyURL } },
  ],
  webServer: [
    journeyServer(port),
    journeyServer(secondPort),
    {
      command: 'node e2e/serve-built.mjs',
      url: `${matchzyURL}/api/health`,
      timeout: allow(180_000),
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
