import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 9198);
export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

// The built app served by the real server on an in-memory store; Debian's Chromium, never a download.
export default defineConfig({
  testDir: 'tests/e2e',
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'retain-on-failure',
  },
  webServer: {
    command: 'node --import tsx src/server/main.ts',
    url: `http://127.0.0.1:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      PORT: String(port),
      DATABASE_URL: 'memory://',
      DATA_DIR: '.tmp/e2e',
      ADMIN_EMAIL: 'admin@example.test',
      ADMIN_PASSWORD: 'e2e-admin-password',
      LOG_LEVEL: 'warn',
    },
  },
});
