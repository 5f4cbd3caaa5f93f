// @vitest-environment node
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDirectory, StoreInUseError } from './dir-lock';

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function lockPath(name = 'db.lock') {
  const dir = await mkdtemp(join(tmpdir(), 'sk-lock-'));
  dirs.push(dir);
  return join(dir, name);
}

/** Another server process holding the lock: resolves once it has it. */
async function holder(path: string): Promise<ChildProcess> {
  const script = `const { lockDirectory } = await import(${JSON.stringify(new URL('./dir-lock.ts', import.meta.url).href)});
await lockDirectory(${JSON.stringify(path)});
console.log('locked');
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('locked') && resolve());
    child.on('exit', (code) => reject(new Error(`the holder exited with ${code}`)));
  });
  return child;
}

describe('the data directory lock', () => {
  it('is not blocked by a lock file naming a live process that is not a server (a pid reused after a reboot)', async () => {
    const path = await lockPath();
    // What the old pid-file lock left after a kill: a pid that now belongs to someone else, alive.
    await writeFile(path, String(process.ppid));
    const release = await lockDirectory(path);
    await expect(lockDirectory(path)).rejects.toThrow(StoreInUseError);
    await release();
  });

  it('refuses a second holder while the first lives, names its process, and is free at once after a kill -9', async () => {
    const path = await lockPath();
    const first = await holder(path);
    const refused = lockDirectory(path);
    await expect(refused).rejects.toThrow(StoreInUseError);
    await expect(refused).rejects.toThrow(`The data directory is in use by process ${first.pid}: stop it first, or set another DATA_DIR.`);

    first.kill('SIGKILL');
    await new Promise((resolve) => first.once('exit', resolve));
    // Its socket is still on disk, but nobody listens on it any more.
    expect(await readdir(path)).toHaveLength(1);
    const release = await lockDirectory(path);
    await expect(lockDirectory(path)).rejects.toThrow(`in use by process ${process.pid}`);
    await release();
    expect(await readdir(path)).toEqual([]);
    await (await lockDirectory(path))();
  });

  it('gives the lock to exactly one of several starters racing over a stale one', async () => {
    const path = await lockPath();
    const killed = await holder(path);
    killed.kill('SIGKILL');
    await new Promise((resolve) => killed.once('exit', resolve));
    const attempts = await Promise.allSettled(Array.from({ length: 6 }, () => lockDirectory(path)));
    const won = attempts.filter((a) => a.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of attempts.filter((a) => a.status === 'rejected')) expect(lost.reason).toBeInstanceOf(StoreInUseError);
    await won[0]!.value();
  });

  it('locks a data directory whose path is too long for a socket', async () => {
    const path = await lockPath(`${'d'.repeat(120)}.lock`);
    const release = await lockDirectory(path);
    await expect(lockDirectory(path)).rejects.toThrow(StoreInUseError);
    await release();
    await (await lockDirectory(path))();
  });
});
