import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

/**
 * The sources of the first screen (sign-in, PIN, password reset, the app frame, toasts and
 * questions, the shared contract): their messages are a catalog of their own, `boot`, loaded with
 * the first screen; the signed-in screens load the whole catalog, `messages`, with the shell
 * (ADR 014). scripts/boot-chunk.ts refuses a build whose first chunk holds a module outside these.
 */
export const BOOT_SOURCES = ['src/app', 'src/views/auth', 'src/components/confirm-dialog.tsx', 'src/components/toasts.tsx', 'src/components/form', 'src/components/intl-formats.ts', 'src/components/lazy-screen.ts', 'src/views/cms-modules.ts', 'src/contract', 'src/api', 'src/db/device-session.ts', 'src/machines'];

const exclude = ['**/*.test.*', '**/*.test-support.*', '**/node_modules/**', '<rootDir>/src/locales/**'];

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'de'],
  catalogs: [
    { path: '<rootDir>/src/locales/{locale}/boot', include: BOOT_SOURCES.map((dir) => `<rootDir>/${dir}`), exclude },
    { path: '<rootDir>/src/locales/{locale}/messages', include: ['<rootDir>/src'], exclude },
  ],
  compileNamespace: 'es',
  // No line numbers: catalogs change only when messages do, since `npm test` extracts.
  format: formatter({ lineNumbers: false }),
});
