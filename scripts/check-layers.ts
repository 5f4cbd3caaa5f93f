import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

/**
 * The layers of docs/architecture.md, checked in the imports: a file under src/ may import from
 * its own top folder and the folders its layer allows, never from a layer above, and the folders
 * import each other in no cycle. Run with `npm run check:layers`; exits 1 with every wrong arrow.
 */
const client = ['contract', 'api', 'db', 'machines', 'components', 'views', 'app'];
// The message catalogs are data every layer may read.
const shared = ['locales'];
const allowed: Record<string, readonly string[]> = {
  ...Object.fromEntries(client.map((layer, rank) => [layer, [...client.slice(0, rank + 1), ...shared]])),
  sw: ['sw', 'contract', 'api', 'db', ...shared],
  server: ['server', 'contract', ...shared],
  locales: ['locales'],
};

// Static and dynamic imports, re-exports and vi.mock paths; a template's static prefix names its folder.
const importPattern = /(?:\bfrom\s*|\bimport\s*\(?\s*|\bvi\.(?:mock|doMock|importActual)\(\s*)(['"`])(\.{1,2}\/[^'"`$]*)/g;

const src = resolve('src');
// Tests and their support are left out: a screen's test may render it inside the app's routes.
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : /(?<!\.test|\.test-support)\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : [],
  );
const folderOf = (path: string) => relative(src, path).split(sep)[0]!;

const wrong: string[] = [];
const edges = new Map<string, Set<string>>();
for (const file of files(src)) {
  const from = folderOf(file);
  for (const [, , specifier] of readFileSync(file, 'utf8').matchAll(importPattern)) {
    const target = resolve(dirname(file), specifier!);
    if (!target.startsWith(src + sep)) continue;
    const to = folderOf(target);
    if (to === from) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
    if (!(allowed[from] ?? []).includes(to)) wrong.push(`${relative(src, file)} → ${specifier} (${from} → ${to})`);
  }
}

// A cycle among the folders: those that reach each other, each group named once.
const reach = (from: string, seen = new Set<string>()): Set<string> => {
  for (const next of edges.get(from) ?? []) if (!seen.has(next)) reach(next, seen.add(next));
  return seen;
};
const reached = new Map([...edges.keys()].map((folder) => [folder, reach(folder)]));
const cycles = new Set(
  [...reached].filter(([folder, set]) => set.has(folder)).map(([folder, set]) => [...set].filter((other) => reached.get(other)?.has(folder)).toSorted().join(', ')),
);

for (const line of [...wrong, ...[...cycles].map((cycle) => `cycle among: ${cycle}`)]) console.error(line);
console.info(`layers: ${wrong.length} upward arrow(s), ${cycles.size} folder cycle(s)`);
process.exitCode = wrong.length + cycles.size > 0 ? 1 : 0;
