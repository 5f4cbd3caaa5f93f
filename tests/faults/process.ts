import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

// What `npm start` runs once the build is current: the built server, plain JavaScript.
const BUILT = 'dist/server/main.js';

export interface ServerProcess {
  proc: ChildProcess;
  output: () => string;
  /** Resolves with the first match in what the process printed; rejects when it exits first. */
  waitFor: (pattern: RegExp) => Promise<RegExpMatchArray>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const running = new Set<ChildProcess>();

/** Kills whatever a test left running: call it from afterEach. */
export function killAll(): void {
  for (const proc of running) if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  running.clear();
}

/** The built server as a user runs it, with `env` over this process's environment. */
export function startServer(env: Record<string, string>): ServerProcess {
  if (!existsSync(BUILT)) throw new Error(`${BUILT} is missing: npm test builds it first (npm run build)`);
  const proc = spawn(process.execPath, [BUILT], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(proc);
  let out = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    out += chunk.toString();
    waiters.forEach((wake) => wake());
  };
  proc.stdout!.on('data', onData);
  proc.stderr!.on('data', onData);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    proc.on('exit', (code, signal) => {
      running.delete(proc);
      resolve({ code, signal });
    }),
  );
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = out.match(pattern);
        if (!match) return;
        waiters.delete(check);
        resolve(match);
      };
      waiters.add(check);
      check();
      // Output still in the pipe when it exits is read first.
      void exited.then(() => setTimeout(() => reject(new Error(`exited before printing ${pattern}:\n${out}`)), 50));
    });
  return { proc, output: () => out, waitFor, exited };
}

/** Starts the built server and resolves with its address once it listens. */
export async function startListening(env: Record<string, string>): Promise<ServerProcess & { url: string }> {
  const server = startServer(env);
  const [, url] = await server.waitFor(/running at (http:\/\/\S+)/);
  return { ...server, url: url! };
}

export async function kill(server: ServerProcess, signal: NodeJS.Signals = 'SIGKILL') {
  server.proc.kill(signal);
  return server.exited;
}

/** The 6-digit PIN of a mail to `to` in DATA_DIR/outbox that is not among `seen`. */
async function pinInOutbox(dataDir: string, to: string, seen: Set<string>): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  const names = existsSync(outbox) ? await readdir(outbox) : [];
  for (const name of names.filter((n) => !seen.has(n)).toSorted().toReversed()) {
    const mail = await readFile(join(outbox, name), 'utf8');
    const [headers = '', ...body] = mail.split(/\r?\n\r?\n/);
    if (!new RegExp(`^To: .*${to.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`, 'mi').test(headers)) continue;
    const pin = body.join('\n').replace(/=\r?\n/g, '').match(/\b(\d{6})\b/);
    if (pin) return pin[1]!;
  }
  throw new Error(`no new mail with a PIN to ${to} in ${outbox}`);
}

/**
 * Signs in through the real two steps, as someone at the server's console would: the password,
 * then the PIN from the mail the server wrote to DATA_DIR/outbox (no SMTP_URL). Cookies the first
 * step sets go with the second. Resolves to the bearer token.
 */
export async function signIn(url: string, dataDir: string, email: string, password: string): Promise<string> {
  const outbox = join(dataDir, 'outbox');
  const seen = new Set(existsSync(outbox) ? await readdir(outbox) : []);
  const login = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ emailOrUsername: email, password }),
  });
  if (login.status !== 200) throw new Error(`login of ${email} answered ${login.status}: ${await login.text()}`);
  const cookie = login.headers
    .getSetCookie()
    .map((set) => set.split(';')[0])
    .join('; ');
  const verify = await fetch(`${url}/api/auth/verify-pin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
    body: JSON.stringify({ emailOrUsername: email, pin: await pinInOutbox(dataDir, email, seen) }),
  });
  if (verify.status !== 200) throw new Error(`verify-pin of ${email} answered ${verify.status}: ${await verify.text()}`);
  return ((await verify.json()) as { data: { token: string } }).data.token;
}
