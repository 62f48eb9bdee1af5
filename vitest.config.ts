import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most test time is spent waiting on spawned servers and loopback sockets, not computing: two files at
    // once keep a 2-core machine busy (vitest's default there is one).
    maxWorkers: 2,
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
