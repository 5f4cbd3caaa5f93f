import { existsSync } from 'node:fs';

/**
 * Debian's Chromium, never a browser Playwright downloads: `chromium-headless-shell` when it is
 * installed, else the full `chromium`. The shell is Chromium's engine without the browser's own
 * user interface; the full browser in headless mode loads its omnibox WebUI (hundreds of scripts)
 * beside every page, which on a two-core machine costs a page a few hundred milliseconds (the
 * browser tests ran in 30 % less time on the shell). `CHROMIUM_PATH` names another. The flags keep
 * it from reaching for Google's services on a machine without a network. Browser tests and the
 * benchmark launch it alike.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

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
