import { createHash, randomBytes, randomInt } from 'node:crypto';
import { mkdir, readdir, realpath, unlink } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** Another live process already has the embedded store open. */
export class StoreInUseError extends Error {}

// A socket's path must fit in sun_path (104 bytes on macOS, 108 on Linux, with the NUL); a longer
// one is cut short without an error, so two data directories could end up sharing a lock.
const MAX_SOCKET_PATH = 103;
const PROBE_MS = 1000;
const ATTEMPTS = 10;

const socketName = () => `${process.pid}-${randomBytes(6).toString('hex')}`;

/** The lock's directory: beside the store, or where a socket's path fits, named for the store's real path. */
async function lockDir(lockPath: string): Promise<string> {
  await mkdir(dirname(lockPath), { recursive: true });
  if (Buffer.byteLength(join(lockPath, socketName())) <= MAX_SOCKET_PATH) return lockPath;
  const where = join(await realpath(dirname(lockPath)), basename(lockPath));
  return join(tmpdir(), `sitekeeper-${createHash('sha256').update(where).digest('hex').slice(0, 24)}.lock`);
}

async function makeDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // The pid file an earlier version kept under this name.
    await unlink(dir).catch(() => {});
    await mkdir(dir, { recursive: true });
  }
}

type State = 'wait' | 'held';

/** Listens at `path`; whoever connects learns whether this process holds the lock or is still deciding, and its pid. */
function listen(path: string, state: () => State): Promise<Server> {
  const server = createServer((socket) => socket.on('error', () => {}).end(`${state()} ${process.pid}`));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve(server.unref()));
  });
}

/** null: nobody listens there any more (its process ended however it ended), or it is gone. */
function probe(path: string): Promise<{ state: State; pid: string } | null> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    let answer = '';
    let connected = false;
    socket.on('connect', () => (connected = true));
    // One too busy to answer in time counts as the holder: better refused than two engines on one store.
    socket.setTimeout(PROBE_MS, () => socket.destroy());
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (connected) return;
      if (err.code === 'ECONNREFUSED' || err.code === 'ENOENT') resolve(null);
      // Reset while connecting: a starter closing its socket as it steps back. Counted as one still
      // deciding, so this one steps back too and asks again (by then it is gone), never as the way clear.
      else if (err.code === 'ECONNRESET') resolve({ state: 'wait', pid: '' });
      else reject(err);
    });
    // After a refusal too, but then the promise is settled already.
    socket.on('close', () => {
      const [state, pid = ''] = answer.split(' ');
      resolve({ state: state === 'wait' ? 'wait' : 'held', pid });
    });
  });
}

const inUse = (pid: string) => new StoreInUseError(`The data directory is in use by process ${pid || '(unknown)'}: stop it first, or set another DATA_DIR.`);

/**
 * Two engines on one PGlite directory corrupt it, and starting the server twice is an everyday
 * mistake. The lock is a Unix socket this process listens on, in a directory of such sockets: the
 * kernel closes it with the process however that ends, so a socket whose connection is refused
 * was left by a dead process, is deleted and never blocks a start (a pid in a file cannot tell:
 * after a reboot it may name any process). Each starter adds a socket under a name of its own and
 * then asks every other one: with another live socket there it does not take the lock. Of two
 * starting at once each sees the other, so both step back and try again a moment apart; one that
 * finds nothing else alive holds the lock, and anyone who comes later sees it.
 * Resolves to the release function.
 */
export async function lockDirectory(lockPath: string): Promise<() => Promise<void>> {
  const dir = await lockDir(lockPath);
  let state: State = 'wait';
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    await makeDir(dir);
    const mine = join(dir, socketName());
    const server = await listen(mine, () => state);
    const giveUp = async () => {
      await unlink(mine).catch(() => {});
      await new Promise((resolve) => server.close(resolve));
    };
    let starting = false;
    try {
      for (const name of await readdir(dir)) {
        const path = join(dir, name);
        if (path === mine) continue;
        const other = await probe(path);
        if (!other) await unlink(path).catch(() => {});
        else if (other.state === 'held') throw inUse(other.pid);
        else starting = true;
      }
    } catch (err) {
      await giveUp();
      throw err;
    }
    if (!starting) {
      state = 'held';
      return giveUp;
    }
    await giveUp();
    await sleep(randomInt(5, 60));
  }
  throw new StoreInUseError('Another server is starting on this data directory: try again in a moment.');
}
