import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/support/chromium';

// The built app, served in-process by the real server (tests/e2e/fixtures.ts).
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // One worker: Chromium and the server already keep both cores busy (two workers made two
  // journeys' timings fail under the load).
  workers: 1,
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
