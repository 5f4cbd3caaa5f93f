// @vitest-environment node
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPgDatabase, storeKinds } from '../../tests/support/store';

interface Running {
  proc: ChildProcess;
  output: () => string;
  waitFor: (pattern: RegExp) => Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

const running: Running[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) if (r.proc.exitCode === null) r.proc.kill('SIGKILL');
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

// What `npm start` runs once the build is current: the built server, plain JavaScript.
const built = 'dist/server/main.js';

/** `npm start`'s server process, as a user runs it. */
function start(env: Record<string, string>): Running {
  if (!existsSync(built)) throw new Error(`${built} is missing: npm test builds it first (npm run build)`);
  const proc = spawn(process.execPath, [built], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const waiters: (() => void)[] = [];
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    waiters.forEach((w) => w());
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = out.match(pattern);
        if (match) resolve(match);
      };
      waiters.push(check);
      check();
      void exited.then(() => setTimeout(() => reject(new Error(`exited before ${pattern}:\n${out}`)), 50));
    });
  const r = { proc, output: () => out, waitFor, exited };
  running.push(r);
  return r;
}

async function health(url: string): Promise<{ success: boolean; data: { status: string } }> {
  const res = await fetch(`${url}/api/health`);
  return (await res.json()) as never;
}

describe('the server process', () => {
  it('survives a kill during first start, then starts, shuts down on SIGTERM and keeps its admin', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sk-main-'));
    dirs.push(dir);
    const env = { DATA_DIR: dir };

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
    await second.waitFor(/password: \S+ +\(generated/);
    expect((await health(url!)).data.status).toBe('ok');
    second.proc.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const third = start(env);
    const [, url3] = await third.waitFor(/running at (http:\/\/\S+)/);
    expect((await health(url3!)).success).toBe(true);
    expect(third.output()).not.toContain('First admin');

    // Started twice by mistake: the second one must not open the same store, nor crash with a trace.
    const twice = start({ ...env, PORT: '0' });
    expect(await twice.exited).toBe(1);
    expect(twice.output()).toMatch(/data directory is in use by process \d+/);
    expect(twice.output()).not.toMatch(/\n\s+at /);
    const portTaken = start({ DATA_DIR: join(dir, 'other'), PORT: new URL(url3!).port });
    expect(await portTaken.exited).toBe(1);
    expect(portTaken.output()).toMatch(/Port \d+ is already in use/);
    expect(portTaken.output()).not.toMatch(/\n\s+at /);
    expect((await health(url3!)).success).toBe(true);

    third.proc.kill('SIGTERM');
    expect(await third.exited).toBe(0);
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
      expect(await Promise.all(instances.map((i) => i.exited))).toEqual([0, 0]);
    } finally {
      await database.drop();
    }
  });
});
