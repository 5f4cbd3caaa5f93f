import { cpSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';

/** The migrations are read from disk at start, beside the bundle (store/open.ts: `./migrations`). */
function copyMigrations(): Plugin {
  return {
    name: 'sitekeeper:migrations',
    apply: 'build',
    writeBundle(options) {
      cpSync('src/server/store/migrations', `${options.dir}/migrations`, { recursive: true });
    },
  };
}

/**
 * The server as plain JavaScript for `npm start` (no TypeScript loader at run time): one ES module
 * with our code; packages stay in node_modules (an SSR build leaves them external).
 */
export default defineConfig({
  plugins: [copyMigrations()],
  publicDir: false,
  build: {
    ssr: 'src/server/main.ts',
    outDir: 'dist/server',
    emptyOutDir: true,
    target: 'node20',
    sourcemap: true,
    // Flat: every chunk sits beside main.js, where the migrations are.
    rolldownOptions: { output: { entryFileNames: 'main.js', chunkFileNames: '[name]-[hash].js' } },
  },
});
