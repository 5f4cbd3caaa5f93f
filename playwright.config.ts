import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/support/chromium';

// The built app, served in-process by the real server (tests/e2e/fixtures.ts).
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // Two workers, each with a server and a browser of its own, every test on whichever is free: one
  // worker left a core idle for most of the run (a test mostly waits on its screens). A third made
  // no run faster: Chromium, the servers and the tests then want more than two cores.
  workers: 2,
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
