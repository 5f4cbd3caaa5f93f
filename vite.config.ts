import babel from '@rolldown/plugin-babel';
import react from '@vitejs/plugin-react';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { VitePWA } from 'vite-plugin-pwa';
import { BOOT_SOURCES } from './lingui.config.ts';
import { bootChunk } from './scripts/boot-chunk.ts';
import { descriptorIdsOnly } from './scripts/descriptor-text.ts';
import { minifyPublicScripts } from './scripts/minify-public.ts';
import { precompress } from './scripts/precompress.ts';
import { DEFAULT_PRODUCT_NAME } from './src/contract/branding.ts';

// The default interface language (spec §9) is the catalog to fetch alongside the entry.
// A signed-in start runs the shell before any screen: public/snapshot.js asks for it beside boot.
const boot = bootChunk('src/app/main.tsx', { preload: ['src/locales/en/boot.ts'], sources: BOOT_SOURCES, signedIn: ['src/views/shell/shell.tsx'] });
// Test files that hold no DOM: the server, the contract, the test support and the scripts.
const serverDirs = ['src/server/', 'src/contract/', 'tests/support/', 'scripts/'];
const serverOnly = serverDirs.map((dir) => `${dir}**/*.test.ts`);
// A file that replaces modules with vi.mock needs a module graph of its own: in a shared one the
// module it mocks may already be loaded, unmocked, by an earlier file. Such files run isolated, in
// projects apart; every other file shares its worker's graph (React, PGlite and the contract load once).
const mocking = readdirSync('.', { recursive: true, encoding: 'utf8' }).filter(
  (file) => /^(src|tests|scripts)\/.*\.test\.tsx?$/.test(file) && readFileSync(file, 'utf8').includes('vi.mock('),
);
const onServer = (file: string) => serverDirs.some((dir) => file.startsWith(dir));

export default defineConfig({
  plugins: [
    // Lingui macros must be compiled before React's transform sees the JSX.
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    boot.plugin,
    descriptorIdsOnly(),
    react(),
    minifyPublicScripts(['snapshot.js']),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/sw',
      filename: 'sw.ts',
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: DEFAULT_PRODUCT_NAME,
        short_name: DEFAULT_PRODUCT_NAME,
        description: 'Websites, content and restaurant menus — online and offline.',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        theme_color: '#1f4e79',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      // The icons are matched by the glob below; the plugin's own copy would list them twice.
      includeManifestIcons: false,
      injectManifest: { globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'] },
    }),
    precompress(),
  ],
  build: {
    outDir: 'dist/client',
    emptyOutDir: true,
    sourcemap: true,
    rolldownOptions: { output: { codeSplitting: { groups: boot.groups } } },
  },
  server: { proxy: { '/api': 'http://127.0.0.1:9112' } },
  test: {
    // Vitest keeps a core for itself by default, which on two cores runs one file at a time; its own
    // share is small (the files spend their time in PGlite and React, not in Vitest).
    maxWorkers: availableParallelism(),
    // A thread starts faster than a process: the client files, each in a fresh one, ran in 118 s instead of 158.
    pool: 'threads',
    projects: [
      {
        extends: true,
        test: {
          name: 'server',
          environment: 'node',
          include: serverOnly,
          exclude: mocking,
          globalSetup: ['tests/support/migrated-stores.ts'],
          // One module graph per worker instead of one per file: PGlite's WebAssembly, Fastify and the
          // contract load once, not 50 times (the suites ran in 137 s instead of 279). They share no
          // state beyond that: each opens its own stores and apps.
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // The suites over every route capture them with vi.mock('fastify') (tests/support/routes.ts).
          name: 'server-mocks',
          environment: 'node',
          include: mocking.filter(onServer),
          globalSetup: ['tests/support/migrated-stores.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'client',
          environment: 'happy-dom',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: [...serverOnly, ...mocking],
          // The data layer's tests against the real server (src/db) open stores too.
          globalSetup: ['tests/support/migrated-stores.ts'],
          setupFiles: ['tests/support/client-setup.ts'],
          // Packages load once per worker: 78 s instead of 116 s for these files. Our own modules are
          // evaluated afresh for each file, and what a file could leave to the next (IndexedDB,
          // storage) the setup file clears before it (tests/support/client-setup.ts).
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'client-mocks',
          environment: 'happy-dom',
          include: mocking.filter((file) => !onServer(file)),
          setupFiles: ['tests/support/client-setup.ts'],
        },
      },
    ],
  },
});
