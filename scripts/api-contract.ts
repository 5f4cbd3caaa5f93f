import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp } from '../tests/support/app';

/**
 * The API contract, from the server's own OpenAPI document (every route, as the running server
 * describes it), made once:
 * - checked with Redocly's recommended rules, no error allowed (the warnings left are the paths the
 *   spec itself names alike, `/websites/client/{id}` beside `/websites/{id}/…`);
 * - turned into a client's types by openapi-typescript: tests/api-client/api.d.ts (not kept in git,
 *   made again before every typecheck), which the typed client test compiles against.
 */
// openapi-typescript needs TypeScript 5's compiler API (scripts/typescript5-hook.mjs).
register('./typescript5-hook.mjs', import.meta.url);
const { default: openapiTS, astToString } = await import('openapi-typescript');

const { app } = await createTestApp();
const dir = await mkdtemp(join(tmpdir(), 'sk-openapi-'));
try {
  await app.ready();
  const text = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).body;
  const file = join(dir, 'openapi.json');
  await writeFile(file, text);
  execFileSync('npx', ['redocly', 'lint', file, '--format', 'summary', '--max-problems', '1000'], { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });

  const types = astToString(await openapiTS(JSON.parse(text)));
  // Nothing else is in the folder: a fresh clone does not have it.
  const folder = join(import.meta.dirname, '../tests/api-client');
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'api.d.ts'), `// Made by scripts/api-contract.ts from the server's OpenAPI document; not edited by hand.\n${types}`);
} finally {
  await app.close();
  await rm(dir, { recursive: true, force: true });
}
