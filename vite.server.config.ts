import { cpSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { defineConfig, type Plugin } from 'vite';
import { INITIAL_IMAGE, migratedDataDir } from './src/server/store/pglite';

/**
 * The migrations are read from disk at start, beside the bundle (store/open.ts: `./migrations`);
 * beside them a database with every migration applied, where a first start on the embedded
 * database begins (store/pglite.ts). Should it ever lag behind the migrations, the start applies
 * the rest.
 */
function serverAssets(): Plugin {
  return {
    name: 'sitekeeper:server-assets',
    apply: 'build',
    async writeBundle(options) {
      cpSync('src/server/store/migrations', `${options.dir}/migrations`, { recursive: true });
      await writeFile(`${options.dir}/${INITIAL_IMAGE}`, new Uint8Array(await (await migratedDataDir('gzip')).arrayBuffer()));
    },
  };
}

/**
 * The server as plain JavaScript for `npm start` (no TypeScript loader at run time): one ES module
 * with our code; packages stay in node_modules (an SSR build leaves them external).
 */
export default defineConfig({
  plugins: [serverAssets()],
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
