import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/support/chromium';

// The built app, served in-process by the real server (tests/e2e/fixtures.ts).
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // Three workers on two cores, each with a server and a browser of its own, every test on whichever
  // is free: a test waits on its screens, its timers and its servers, and with two workers the cores
  // were 85-90 % busy (vmstat), with three 97 %: 210 s instead of 233-245 s, run back to back. Two
  // thirds of the CPU time is Chromium's (227 of 350 s, read from /proc per process).
  workers: 3,
  fullyParallel: true,
  // The sweeps first: the longest tests, started last, would run on alone at the end.
  projects: [
    { name: 'sweep', testMatch: 'sweep.spec.ts' },
    { name: 'journeys', testIgnore: 'sweep.spec.ts' },
  ],
  reporter: [['list']],
  use: {
    launchOptions: chromiumLaunchOptions,
    // A trace snapshots the page at every step: a fifth of the run's time. A failure keeps a
    // screenshot; `npx playwright test --trace retain-on-failure` records traces when one is needed.
    screenshot: 'only-on-failure',
    // Without these a step that never ends shows only as the test's own timeout, naming no step.
    actionTimeout: 30_000,
    navigationTimeout: 60_000,
  },
});
