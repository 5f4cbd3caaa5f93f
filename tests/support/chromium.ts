import { existsSync } from 'node:fs';

/**
 * Debian's chromium-headless-shell when it is installed: Chromium's engine without the browser's
 * own user interface. The full browser in headless mode loads its omnibox WebUI (hundreds of
 * scripts) beside every page, which on a two-core machine costs a page a few hundred milliseconds
 * no phone spends, and the browser tests a minute of their run.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

/**
 * Debian's Chromium (apt-get install chromium-headless-shell, or chromium), never a browser
 * Playwright downloads; the flags keep it from reaching for Google's services on a machine
 * without a network. Browser tests and the benchmark launch it alike.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium'),
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
