/**
 * Debian's Chromium (apt-get install chromium), never a browser Playwright downloads; the flags keep
 * it from reaching for Google's services on a machine without a network. Browser tests and the
 * benchmark launch it alike.
 */
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
