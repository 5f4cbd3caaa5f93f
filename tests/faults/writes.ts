import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { signIn, startListening } from './process';

export const ADMIN = { email: 'faults@example.test', password: 'faults suite password 1' };

/** What the server answered, as the client saw it; null when the connection died first. */
export interface Answer {
  status: number;
  body: string;
  replay: boolean;
}

/** One write the suite sent: its key and body (a menu named `name`), and its first answer if one came. */
export interface Sent {
  key: string;
  name: string;
  first: Answer | null;
  /** The answer to the same request sent again after a restart. */
  retried: Answer | null;
}

/** Answered, and not with a 5xx (a server shutting down answers 503): a client sends anything else again. */
export const acknowledged = (write: Sent) => write.first !== null && write.first.status < 500;

/** The installation every write goes to: a signed-in admin and the demo website, whose menus the writes create. */
export interface Target {
  token: string;
  menus: string;
}

/** A first start with a known admin: signs in and finds the demo website. The server is left running. */
export async function firstStart(env: Record<string, string>) {
  const server = await startListening({ ...env, ADMIN_EMAIL: ADMIN.email, ADMIN_PASSWORD: ADMIN.password });
  const token = await signIn(server.url, env.DATA_DIR!, ADMIN.email, ADMIN.password);
  const sites = await fetch(`${server.url}/api/websites`, { headers: { authorization: `Bearer ${token}` } });
  const [site] = ((await sites.json()) as { data: { _id: string }[] }).data;
  return { server, target: { token, menus: `/api/cms/menus/${site!._id}` } satisfies Target };
}

/** Sends one create under its Idempotency-Key. */
export async function send(url: string, target: Target, write: Pick<Sent, 'key' | 'name'>): Promise<Answer | null> {
  try {
    const res = await fetch(`${url}${target.menus}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json', 'idempotency-key': write.key },
      body: JSON.stringify({ name: write.name, location: 'faults' }),
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, body: await res.text(), replay: res.headers.get('idempotent-replay') === 'true' };
  } catch {
    return null;
  }
}

let counter = 0;

/**
 * `clients` clients writing one create after another, each new write recorded in `ledger` before
 * it is sent, until their server stops acknowledging or `stop()`. `done` resolves when all have stopped.
 */
export function writeLoad(url: string, target: Target, ledger: Sent[], clients: number) {
  const stopping = new AbortController();
  const client = async () => {
    while (!stopping.signal.aborted) {
      const write: Sent = { key: randomUUID(), name: `fault ${process.pid}-${(counter += 1)}`, first: null, retried: null };
      ledger.push(write);
      write.first = await send(url, target, write);
      if (!acknowledged(write)) return;
    }
  };
  const done = Promise.all(Array.from({ length: clients }, client));
  return {
    done,
    stop: async () => {
      stopping.abort();
      await done;
    },
  };
}

/** Sends every write that has no answer yet again, with its key and body; each must now take effect (201). */
export async function retryUnanswered(url: string, target: Target, ledger: Sent[]): Promise<Sent[]> {
  const unanswered = ledger.filter((write) => !acknowledged(write) && !write.retried);
  for (const write of unanswered) {
    write.retried = await send(url, target, write);
    expect(write.retried?.status, `retry of ${write.name}: ${write.retried?.body}`).toBe(201);
  }
  return unanswered;
}

/** Every menu the writes made: name → ids. */
async function menusByName(url: string, target: Target): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (let page = 1; ; page += 1) {
    const res = await fetch(`${url}${target.menus}?search=${encodeURIComponent('fault ')}&limit=100&page=${page}`, { headers: { authorization: `Bearer ${target.token}` } });
    const { data, pagination } = (await res.json()) as { data: { _id: string; name: string }[]; pagination: { totalPages: number } };
    for (const menu of data) found.set(menu.name, [...(found.get(menu.name) ?? []), menu._id]);
    if (page >= pagination.totalPages) return found;
  }
}

const idOf = (answer: Answer) => (JSON.parse(answer.body) as { data: { _id: string } }).data._id;

/**
 * The promise of the whole suite: every write the server acknowledged is there, every write it
 * did not is there exactly once after its retry, and a write sent again answers its first answer.
 */
export async function expectEveryWriteOnce(url: string, target: Target, ledger: Sent[]) {
  const menus = await menusByName(url, target);
  for (const write of ledger) {
    const answer = acknowledged(write) ? write.first : write.retried;
    expect(answer?.status, `${write.name}: ${answer?.body}`).toBe(201);
    expect(menus.get(write.name), write.name).toEqual([idOf(answer!)]);
  }
  expect(menus.size).toBe(ledger.length);
  for (const write of ledger.filter(acknowledged)) {
    const again = await send(url, target, write);
    expect(again, write.name).toEqual({ ...write.first, replay: true });
  }
}
