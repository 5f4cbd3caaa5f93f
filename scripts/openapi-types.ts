import { register } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createTestApp } from '../tests/support/app';

/**
 * The API's types for a client, as openapi-typescript makes them from the server's own document:
 * tests/api-client/api.d.ts (not kept in git: made again before every typecheck), which the typed
 * client in tests/api-client must compile against and whose calls its test makes.
 */
register('./typescript5-hook.mjs', import.meta.url);
const { default: openapiTS, astToString } = await import('openapi-typescript');

const { app } = await createTestApp();
try {
  await app.ready();
  const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  const types = astToString(await openapiTS(document));
  // Nothing else is in the folder: a fresh clone does not have it.
  const folder = join(import.meta.dirname, '../tests/api-client');
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'api.d.ts'), `// Made by scripts/openapi-types.ts from the server's OpenAPI document; not edited by hand.\n${types}`);
} finally {
  await app.close();
}
