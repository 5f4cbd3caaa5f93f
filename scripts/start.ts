// `npm start`: build the client when it is missing or older than its sources, then run the server.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const builtAt = (file: string) => (existsSync(file) ? statSync(file).mtimeMs : 0);

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    // The server does not go into the client bundle, and compiled catalogs are build output.
    if (entry === 'server' || entry === 'messages.ts') continue;
    newest = Math.max(newest, newestSource(join(path, entry)));
  }
  return newest;
}

const sources = ['index.html', 'vite.config.ts', 'lingui.config.ts', 'public', 'src'].map((p) => join(root, p));
const built = builtAt(join(root, 'dist/client/index.html'));
const catalogs = builtAt(join(root, 'src/locales/en/messages.ts'));

if (built < Math.max(...sources.map(newestSource)) || catalogs === 0) {
  console.info(built ? 'Sources changed since the last build: building the app…' : 'Building the app (first start)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

await import('../src/server/main.ts');
