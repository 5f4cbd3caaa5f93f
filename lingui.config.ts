import { defineConfig } from '@lingui/cli';
import { formatter } from '@lingui/format-po';

export default defineConfig({
  sourceLocale: 'en',
  locales: ['en', 'de'],
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/messages',
      include: ['<rootDir>/src'],
      exclude: ['**/*.test.*', '**/node_modules/**', '<rootDir>/src/locales/**'],
    },
  ],
  compileNamespace: 'es',
  // No line numbers: catalogs change only when messages do, since `npm test` extracts.
  format: formatter({ lineNumbers: false }),
});
