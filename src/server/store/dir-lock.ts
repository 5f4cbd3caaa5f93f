import { readFile, unlink, writeFile } from 'node:fs/promises';

/** Another live process already has the embedded store open. */
export class StoreInUseError extends Error {}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else — still alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Two engines on one PGlite directory corrupt it, and starting the server twice is an everyday
 * mistake. The lock file holds the owner's pid; a lock whose owner died (SIGKILL, power loss) is
 * taken over. Resolves to the release function.
 */
export async function lockDirectory(lockFile: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(lockFile, String(process.pid), { flag: 'wx' });
      return () => unlink(lockFile).catch(() => {});
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = Number((await readFile(lockFile, 'utf8').catch(() => '')).trim());
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new StoreInUseError(`The data directory is in use by process ${owner}: stop it first, or set another DATA_DIR.`);
      }
      await unlink(lockFile).catch(() => {});
    }
  }
  throw new StoreInUseError(`Could not lock ${lockFile}`);
}
