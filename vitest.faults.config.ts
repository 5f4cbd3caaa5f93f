import { defineConfig } from 'vitest/config';

/**
 * `npm run test:faults`: the built server (dist/server) as a child process, killed and started
 * again (tests/faults). Two files at a time, each with servers and installations of its own: a
 * file mostly waits on its servers' starts and stops (one at a time took 63-66 s, two 42-44 s
 * with PostgreSQL). What each claims holds whenever its kill comes; the one time it asserts, a
 * SIGTERM's exit within a supervisor's 10 s grace, took 89-179 ms with two files running.
 */
export default defineConfig({
  test: {
    name: 'faults',
    environment: 'node',
    include: ['tests/faults/**/*.test.ts'],
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
