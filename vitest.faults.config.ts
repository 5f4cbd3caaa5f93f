import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the built server (dist/server) as a child process, killed and started
 * again (tests/faults). One file at a time: each runs servers of its own, and on a small machine
 * two files at once would time each other's restarts instead of the server's.
 */
export default defineConfig({
  test: {
    name: 'faults',
    environment: 'node',
    include: ['tests/faults/**/*.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
