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
 * Packages that stay in node_modules: native code (argon2, sharp), files read beside their own
 * code (PGlite's WebAssembly and data, Swagger UI's pages), and those a start never loads, which
 * are loaded when first used: mail, S3, upload sniffing, the sanitizer, and Ajv, Fastify's own
 * validator, which ours replaces (src/server/main.test.ts checks a start loads none of these).
 */
const EXTERNAL = ['@node-rs/argon2', 'sharp', '@electric-sql/pglite', '@fastify/swagger-ui', 'pg', 'nodemailer', '@aws-sdk/client-s3', 'file-type', 'sanitize-html', 'ajv'];

/**
 * The server as plain JavaScript for `npm start` (no TypeScript loader at run time): one ES module
 * with our code and the packages it runs on. Left in node_modules, Node resolved and read them
 * file by file at every start, a fifth of its time to ready (ADR 040).
 */
export default defineConfig({
  plugins: [serverAssets()],
  publicDir: false,
  ssr: { noExternal: true, external: EXTERNAL },
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
