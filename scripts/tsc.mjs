import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';

// The project's compiler is TypeScript 7, named by its own path: `tsc` in node_modules/.bin may be
// TypeScript 5's, which openapi-typescript needs beside it (scripts/api-contract.ts).
const tsc = createRequire(import.meta.url).resolve('typescript/package.json').replace(/package\.json$/, 'bin/tsc');
for (const project of ['tsconfig.app.json', 'tsconfig.sw.json', 'tsconfig.node.json', 'tsconfig.e2e.json', 'tsconfig.bench.json']) {
  execFileSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit' });
}
