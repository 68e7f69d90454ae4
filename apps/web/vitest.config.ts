import { defineProject } from 'vitest/config';

// The web unit tests: DOM APIs from happy-dom, the same compile-time version constant as the app.
export default defineProject({
  define: { __APP_VERSION__: JSON.stringify('0.0.0-test') },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test-setup.ts'],
    expect: { poll: { timeout: 5_000 } },
  },
});
