import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace. The server suite runs on PGlite, and once more on real
// PostgreSQL when TEST_DATABASE_URL is set (CI sets it).
const serverProject = (name: string, env: Record<string, string>, exclude: string[] = []) => ({
  test: {
    name,
    root: 'apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude,
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Polls wait for sockets, jobs and other processes; 1 s (Vitest's default) is too short on a
    // busy two-core CI machine running PostgreSQL and Synapse alongside.
    expect: { poll: { timeout: 10_000 } },
    // One retry on CI, as the journeys have (playwright.config.ts): the stop's machine runs the suite
    // about 2.7 times slower than a developer's, and a test that needed the retry is still named at
    // the end of `npm test` ("passed on the retry only"). Locally a test gets one chance.
    retry: process.env.CI ? 1 : 0,
    pool: 'forks' as const,
  },
});

// Files the PostgreSQL project leaves out. PGlite is PostgreSQL itself compiled to WebAssembly, so
// SQL means the same on both; what PostgreSQL adds is the network driver, a pool of concurrent
// connections, and a server that can restart under us. These files test nothing that depends on
// those: request validation and authorization sweeps (the same route code answers before and after
// any query), the voice protocol, logging, config, pure rules and tables, and files that open no
// database at all. Every other server file, the crash and restart suites included, runs on both.
const notEngineDependent = [
  'test/bad-input.test.ts',
  'test/bad-matrix-input.test.ts',
  'test/bad-socket-input.test.ts',
  'test/authorization-matrix.test.ts',
  'test/private-fields.test.ts',
  'test/upload-limits.test.ts',
  'test/module-state.test.ts',
  'test/matrix/client.test.ts',
  'src/main.test.ts',
  'src/config.test.ts',
  'src/logging.test.ts',
  'src/delivery.test.ts',
  'src/web.test.ts',
  'src/realtime/hub.test.ts',
  'src/lib/*.test.ts',
  'src/db/lock.test.ts',
  'src/modules/voice/serverquery.test.ts',
  'src/modules/gameservers/rcon.test.ts',
  'src/modules/gameservers/pool.test.ts',
  'src/modules/gameservers/cs2-status.test.ts',
  'src/modules/insights/eta.test.ts',
  'src/modules/matches/fairness.test.ts',
  'src/modules/matches/rules.test.ts',
  'src/modules/matches/lifecycle.test.ts',
  'src/modules/queue/accept-phase.test.ts',
  'src/modules/health/health.test.ts',
  'src/modules/metrics/metrics.test.ts',
];

export default defineConfig({
  test: {
    // Two files at a time even on two cores (Vitest's default there is one): many files mostly wait
    // on processes, sockets and databases they started (restarts, ServerQuery, the admin CLI), so
    // a second worker fills that time with CPU-bound PGlite files. Every file uses ports,
    // databases and data directories of its own, so files never see each other.
    maxWorkers: 2,
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
      serverProject('server', { TEST_DB: 'pglite' }),
      ...(process.env.TEST_DATABASE_URL
        ? [serverProject('server-pg', { TEST_DB: 'postgres' }, notEngineDependent)]
        : []),
      ...(existsSync('apps/web/vitest.config.ts') ? ['apps/web/vitest.config.ts'] : []),
    ],
  },
});
