import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { precompress } from '../../scripts/precompress.ts';

/** The floor pages, built by the same Vite and compressed the same way as the app (bench/browser.ts builds it). */
export default defineConfig({
  root: import.meta.dirname,
  logLevel: 'warn',
  plugins: [react(), precompress()],
  build: {
    outDir: resolve(import.meta.dirname, '../../.tmp/bench/floor'),
    emptyOutDir: true,
    rolldownOptions: { input: { login: resolve(import.meta.dirname, 'index.html'), list: resolve(import.meta.dirname, 'list.html'), menu: resolve(import.meta.dirname, 'menu.html'), form: resolve(import.meta.dirname, 'form.html') } },
  },
});
