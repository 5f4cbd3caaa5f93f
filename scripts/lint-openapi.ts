import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestApp } from '../tests/support/app';

/**
 * The API contract's check in `npm run lint`: the server's own OpenAPI document (every route, as
 * the running server describes it) through Redocly's recommended rules, with no error allowed.
 * Warnings are printed; the paths the spec itself names alike (`/websites/client/{id}` beside
 * `/websites/{id}/…`) stay ambiguous for a linter.
 */
const { app } = await createTestApp();
const dir = await mkdtemp(join(tmpdir(), 'sk-openapi-'));
try {
  await app.ready();
  const file = join(dir, 'openapi.json');
  await writeFile(file, (await app.inject({ method: 'GET', url: '/api/openapi.json' })).body);
  execFileSync('npx', ['redocly', 'lint', file, '--format', 'summary', '--max-problems', '1000'], { stdio: 'inherit', env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' } });
} finally {
  await app.close();
  await rm(dir, { recursive: true, force: true });
}
