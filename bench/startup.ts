import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './browser';

const root = join(import.meta.dirname, '..');

export interface Startup {
  /** From spawning the process until /api/health answers 200. */
  readyMs: number;
  /** Resident memory a few seconds after it became ready, with nothing to do. */
  idleRssMb: number;
}

const IDLE_WAIT_MS = 3000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Exactly what `npm start` runs (package.json), without npm around it: `node …` with its flags. */
export function startCommand(): string[] {
  const script = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const words = script.replace(/^exec\s+/, '').split(/\s+/);
  if (words[0] !== 'node') throw new Error(`npm start does not run node directly: ${script}`);
  return [process.execPath, ...words.slice(1)];
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1]);
  return kb / 1024;
}

async function startOnce(command: string[], env: Record<string, string>): Promise<Startup> {
  const port = await freePort();
  const started = performance.now();
  const proc = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  proc.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  try {
    const deadline = started + 60_000;
    for (;;) {
      if (proc.exitCode !== null) throw new Error(`the server exited (${proc.exitCode}): ${stderr.slice(-500)}`);
      if (performance.now() > deadline) throw new Error('the server did not become ready within 60 s');
      const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const readyMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, IDLE_WAIT_MS));
    return { readyMs, idleRssMb: await rssMb(proc.pid!) };
  } finally {
    proc.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
    if (proc.exitCode === null) proc.kill('SIGKILL');
  }
}

/**
 * Restarts on an initialized store, as every start but the first is: the first start (migrations,
 * first admin, demo data) runs once before, unmeasured. Median of `samples`.
 */
export async function benchStartup(command: string[], env: Record<string, string>, samples: number): Promise<Startup> {
  const dataDir = await mkdtemp(join(tmpdir(), 'sk-bench-start-'));
  try {
    const withDir = { DATA_DIR: dataDir, ADMIN_PASSWORD: 'bench-start-admin', ...env };
    await startOnce(command, withDir);
    const runs: Startup[] = [];
    for (let i = 0; i < samples; i++) runs.push(await startOnce(command, withDir));
    return { readyMs: median(runs.map((r) => r.readyMs)), idleRssMb: median(runs.map((r) => r.idleRssMb)) };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The floor: Fastify and a pg pool in plain JavaScript, nothing of ours (bench/floor/server.js). */
export function floorServerCommand(): string[] {
  return [process.execPath, join(import.meta.dirname, 'floor/server.js')];
}
