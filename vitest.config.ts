import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace. The server suite runs on PGlite, and once more on real
// PostgreSQL when TEST_DATABASE_URL is set (CI sets it).
const serverProject = (name: string, env: Record<string, string>) => ({
  test: {
    name,
    root: 'apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    env,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Polls wait for sockets, jobs and other processes; 1 s (Vitest's default) is too short on a
    // busy two-core CI machine running PostgreSQL and Synapse alongside.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks' as const,
  },
});

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
      ...(process.env.TEST_DATABASE_URL ? [serverProject('server-pg', { TEST_DB: 'postgres' })] : []),
      ...(existsSync('apps/web/vitest.config.ts') ? ['apps/web/vitest.config.ts'] : []),
    ],
  },
});
