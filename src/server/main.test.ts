// @vitest-environment node
import { PGlite } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killAll, signIn, startServer as start } from '../../tests/faults/process';
import { createPgDatabase, storeKinds } from '../../tests/support/store';
import { INITIAL_IMAGE, pgliteOptions } from './store/pglite';

const dirs: string[] = [];
afterEach(async () => {
  killAll();
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function dataDir() {
  const dir = await mkdtemp(join(tmpdir(), 'sk-main-'));
  dirs.push(dir);
  return dir;
}

async function health(url: string): Promise<{ success: boolean; data: { status: string } }> {
  const res = await fetch(`${url}/api/health`);
  return (await res.json()) as never;
}

/** The cluster's identifier, which initdb makes new each time; the client is closed after. */
async function identifier(client: PGlite): Promise<string> {
  const { rows } = await client.query<{ id: string }>('select system_identifier::text as id from pg_control_system()');
  await client.close();
  return rows[0]!.id;
}

const ADMIN = 'admin@localhost';
/** Several starts of the real server, each building or opening its store: seconds each on a busy machine. */
const PROCESS_TEST_MS = 120_000;

/** The generated password a start printed with its address (both in one write). */
function printedPassword(output: string): string {
  const password = /password: (\S+) +\(generated/.exec(output)?.[1];
  expect(password, output).toBeDefined();
  return password!;
}

describe('the server process', () => {
  it('starts without what only a later request needs: Fastify’s own validator, the HTML sanitizer', async () => {
    const dir = await dataDir();
    // Told by a signal, the process names the packages it has loaded so far.
    const probe = join(dir, 'loaded.cjs');
    await writeFile(
      probe,
      "process.on('SIGUSR2', () => console.log('loaded: ' + JSON.stringify(Object.keys(require.cache).map((file) => /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file)?.[1]).filter(Boolean))));",
    );
    const server = start({ DATA_DIR: dir, DEMO: '0', NODE_OPTIONS: `--require ${probe}` });
    await server.waitFor(/running at/);
    server.proc.kill('SIGUSR2');
    const [, names] = await server.waitFor(/loaded: (\[.*\])/);
    const loaded = new Set(JSON.parse(names!) as string[]);
    // The probe sees what a start loads from node_modules (the build carries the rest: ADR 040)…
    expect(loaded).toContain('@node-rs/argon2');
    expect(loaded).toContain('@fastify/swagger-ui');
    // …and none of these: Ajv for the validator ours replaces, the sanitizer and its CSS parser until rich text is written.
    expect(['ajv', 'sanitize-html', 'postcss'].filter((name) => loaded.has(name))).toEqual([]);
  }, PROCESS_TEST_MS);

  it('survives a kill during first start, prints how to sign in until the first sign-in, shuts down on SIGTERM and keeps its admin', async () => {
    const dir = await dataDir();
    const env = { DATA_DIR: dir, DEMO: '0' };

    const killed = start(env);
    // Kill it while the store is being built, which happens in a staging directory.
    while (!(await readdir(dir)).some((entry) => entry.startsWith('db.init-'))) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    killed.proc.kill('SIGKILL');
    await killed.exited;
    expect(existsSync(join(dir, 'db'))).toBe(false);

    const second = start(env);
    const [, url] = await second.waitFor(/running at (http:\/\/\S+)/);
    const password = printedPassword(second.output());
    expect(second.output()).toContain('First admin created');
    expect((await health(url!)).data.status).toBe('ok');
    second.proc.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);

    // Nobody has signed in yet: the same password again, from a file only this user can read.
    const third = start(env);
    const [, url3] = await third.waitFor(/running at (http:\/\/\S+)/);
    expect(printedPassword(third.output())).toBe(password);
    expect(third.output()).not.toContain('First admin created');
    expect((await stat(join(dir, 'first-sign-in.json'))).mode & 0o777).toBe(0o600);

    // Started twice by mistake: the second one must not open the same store, nor crash with a trace.
    const twice = start({ ...env, PORT: '0' });
    expect((await twice.exited).code).toBe(1);
    expect(twice.output()).toMatch(/data directory is in use by process \d+/);
    expect(twice.output()).not.toMatch(/\n\s+at /);
    const portTaken = start({ DATA_DIR: join(dir, 'other'), PORT: new URL(url3!).port });
    expect((await portTaken.exited).code).toBe(1);
    expect(portTaken.output()).toMatch(/Port \d+ is already in use/);
    expect(portTaken.output()).not.toMatch(/\n\s+at /);
    expect((await health(url3!)).success).toBe(true);

    await signIn(url3!, dir, ADMIN, password);
    third.proc.kill('SIGTERM');
    expect((await third.exited).code).toBe(0);

    // Signed in once: the password is nowhere any more, and no start prints it.
    const fourth = start(env);
    await fourth.waitFor(/running at/);
    expect(fourth.output()).not.toMatch(/password/);
    expect(existsSync(join(dir, 'first-sign-in.json'))).toBe(false);
  }, PROCESS_TEST_MS);

  it('begins its first embedded store as the database the build migrated, not from initdb', async () => {
    const dir = await dataDir();
    const server = start({ DATA_DIR: dir, DEMO: '0' });
    await server.waitFor(/running at/);
    server.proc.kill('SIGTERM');
    expect((await server.exited).code).toBe(0);
    // initdb gives every cluster an identifier of its own; a copy of the image keeps the image's.
    const image = new Blob([await readFile(join('dist/server', INITIAL_IMAGE))]);
    expect(await identifier(await PGlite.create(join(dir, 'db'), pgliteOptions))).toBe(await identifier(await PGlite.create({ ...pgliteOptions, loadDataDir: image })));
  });

  it('starts on a data directory whose lock file names a live process that is no server (issue 17, defect 9)', async () => {
    const dir = await dataDir();
    // What the pid-file lock of a killed server left, its pid since given to another process.
    await writeFile(join(dir, 'db.lock'), String(process.ppid));
    const server = start({ DATA_DIR: dir, DEMO: '0' });
    await server.waitFor(/running at/);
    expect(server.output()).not.toMatch(/in use/);
  });

  it.runIf(storeKinds.includes('postgres'))('creates one admin when two instances start on one PostgreSQL at once', async () => {
    const database = await createPgDatabase();
    try {
      const env = { DATABASE_URL: database.url, DATA_DIR: await mkdtemp(join(tmpdir(), 'sk-main-pg-')) };
      dirs.push(env.DATA_DIR);
      const instances = [start(env), start(env)];
      await Promise.all(instances.map((i) => i.waitFor(/running at/)));
      const announcements = instances.filter((i) => i.output().includes('First admin created'));
      expect(announcements).toHaveLength(1);
      for (const i of instances) i.proc.kill('SIGTERM');
      expect((await Promise.all(instances.map((i) => i.exited))).map((exit) => exit.code)).toEqual([0, 0]);
    } finally {
      await database.drop();
    }
  });
});
