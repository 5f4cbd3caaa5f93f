import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './tests/support/chromium';

// The built app, served in-process by the real server (tests/e2e/fixtures.ts).
export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  workers: 1,
  reporter: [['list']],
  use: {
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
  },
});
