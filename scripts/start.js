// `npm start`: build when the output is missing or older than its sources, then run the built
// server, plain JavaScript (no TypeScript loader at run time).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const at = (/** @type {string} */ file) => (existsSync(file) ? statSync(file).mtimeMs : 0);

/** @param {string} path */
function newestSource(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    // Compiled catalogs are build output, not sources.
    if (entry === 'messages.ts') continue;
    newest = Math.max(newest, newestSource(join(path, entry)));
  }
  return newest;
}

const sources = ['index.html', 'vite.config.ts', 'vite.server.config.ts', 'lingui.config.ts', 'public', 'src', 'scripts/precompress.ts'];
const outputs = ['dist/client/index.html', 'dist/server/main.js'].map((file) => at(join(root, file)));
const built = Math.min(...outputs);

if (built < Math.max(...sources.map((source) => newestSource(join(root, source))))) {
  console.info(built ? 'Sources changed since the last build: building…' : 'Building the app and the server (first start)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import('../dist/server/main.js');
