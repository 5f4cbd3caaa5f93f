// @vitest-environment node
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreKind } from '../../src/server/store/open';
import { storeKinds } from '../support/store';
import { installation, removeInstallations } from './installation';
import { kill, signIn, startListening, startServer } from './process';

/*
 * Issue 17, defect 8 and the faults suite: a first start killed at any moment — before it opened
 * the store, while it builds it, after it committed but before it printed anything — leaves an
 * installation whose next start tells how to sign in, with passwords that work.
 */

/** After the process starts: at once, while it loads, while it builds the store, and later. */
const KILL_AFTER_MS = [0, 250, 700, 1500, 3000];

afterEach(removeInstallations);

/** The admin's and the demo owner's generated passwords, as the start printed them. */
function printed(output: string) {
  const password = (who: string) => new RegExp(`email: +${who}\\n(?:.*\\n)?.*password: (\\S+) +\\(generated`).exec(output)?.[1];
  const admin = password('admin@localhost');
  const owner = password('owner@localhost');
  expect(admin && owner, output).toBeTruthy();
  return { admin: admin!, owner: owner! };
}

/** Resolves once the first start's transaction has committed: the staging directory renamed into place, or the marker row there. */
async function committed(kind: StoreKind, env: Record<string, string>): Promise<void> {
  if (kind === 'pglite') {
    while (!existsSync(join(env.DATA_DIR!, 'db'))) await sleep(2);
    return;
  }
  const client = new Client({ connectionString: env.DATABASE_URL });
  await client.connect();
  try {
    for (;;) {
      const marker = await client.query(`SELECT 1 FROM settings WHERE key = 'store.initialized'`).catch(() => ({ rowCount: 0 }));
      if (marker.rowCount) return;
      await sleep(2);
    }
  } finally {
    await client.end();
  }
}

async function expectSignInWorks(env: Record<string, string>) {
  const server = await startListening(env);
  const passwords = printed(server.output());
  await signIn(server.url, env.DATA_DIR!, 'admin@localhost', passwords.admin);
  await signIn(server.url, env.DATA_DIR!, 'owner@localhost', passwords.owner);
  await kill(server, 'SIGTERM');
}

describe.each(storeKinds)('a kill during the first start (%s)', (kind) => {
  it(`leaves nothing in the way, whenever it comes (${KILL_AFTER_MS.join(', ')} ms after the start)`, async () => {
    const env = await installation(kind);
    for (const ms of KILL_AFTER_MS) {
      const starting = startServer(env);
      await sleep(ms);
      await kill(starting);
    }
    await expectSignInWorks(env);
  });

  it('leaves the passwords to the next start when it comes after the commit, before anything was printed', async () => {
    const env = await installation(kind);
    const starting = startServer(env);
    await committed(kind, env);
    await kill(starting);
    expect(starting.output()).not.toMatch(/running at|password/);
    await expectSignInWorks(env);
  });
});
