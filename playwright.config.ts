import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/support/chromium';

// The built app, served in-process by the real server (tests/e2e/fixtures.ts).
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // A test spends about half its time waiting on the app (timers, the network, animations): two
  // workers keep both cores busy.
  workers: 2,
  reporter: [['list']],
  use: {
    launchOptions: chromiumLaunchOptions,
    // A trace snapshots the page at every step: a fifth of the run's time. A failure keeps a
    // screenshot; `npx playwright test --trace retain-on-failure` records traces when one is needed.
    screenshot: 'only-on-failure',
  },
});
