// @vitest-environment node
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import { minifyScripts } from './minify-public';

describe('minifyScripts', () => {
  let dir = '';
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('ships a public script without its comments, doing what it did', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sk-minify-'));
    const source = `// Why this runs before the app: a long explanation for the next reader.\n(function () {\n  /* the visitor's choice */\n  var chosen = 'de';\n  result.push(chosen + '-' + chosen.length);\n})();\n`;
    await writeFile(join(dir, 'early.js'), source);

    minifyScripts(dir, ['early.js']);

    const shipped = readFileSync(join(dir, 'early.js'), 'utf8');
    expect(shipped).not.toContain('Why this runs');
    expect(shipped).not.toContain('choice');
    expect(shipped.length).toBeLessThan(source.length / 2);
    const result: string[] = [];
    runInNewContext(shipped, { result });
    expect(result).toEqual(['de-2']);
  });

  it('refuses a script it cannot parse, rather than shipping it broken', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sk-minify-'));
    await writeFile(join(dir, 'broken.js'), 'var = ;');
    expect(() => minifyScripts(dir, ['broken.js'])).toThrow(/broken\.js does not minify/);
  });
});
