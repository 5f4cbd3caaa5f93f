// @vitest-environment node
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The client build as `npm test` makes it before the unit tests (`npm run build`): what
// vite.config.ts wires in, checked where a unit test of each plugin cannot see it.
const CLIENT = 'dist/client';
const bootChunk = () => {
  const name = readdirSync(join(CLIENT, 'assets')).find((file) => /^boot-[\w-]+\.js$/.test(file) && readFileSync(join(CLIENT, 'assets', file), 'utf8').includes('createRoot'));
  return readFileSync(join(CLIENT, 'assets', name!), 'utf8');
};

describe('the client build', () => {
  it('carries a contract descriptor’s id, not its English text (the catalog has it)', () => {
    const boot = bootChunk();
    expect(boot).toContain('api.networkError');
    expect(boot).not.toContain('Network error or server unavailable');
  });

  it('ships public/snapshot.js minified, doing the same', () => {
    const source = readFileSync('public/snapshot.js', 'utf8');
    const shipped = readFileSync(join(CLIENT, 'snapshot.js'), 'utf8');
    expect(source).toContain('// Paints the screen');
    expect(shipped).not.toContain('// ');
    expect(shipped.length).toBeLessThan(source.length / 2);
    expect(shipped).toContain('signed-in-catalog');
  });
});
