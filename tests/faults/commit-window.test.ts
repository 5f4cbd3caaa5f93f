// @vitest-environment node
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { storeKinds } from '../support/store';
import { installation, removeInstallations } from './installation';
import { kill, startListening } from './process';
import { expectEveryWriteOnce, firstStart, retryUnanswered, writeLoad, type Sent } from './writes';

/*
 * Issue 17, the commit/answer window: with SITEKEEPER_FAULTS=after-commit:<chance> the server kills
 * itself (SIGKILL) right after a request's transaction committed, before its answer is sent. The
 * retry after the restart must find that write done and answer it again, not do it a second time.
 */

const KILLS = 3;
const FAULTS = { SITEKEEPER_FAULTS: 'after-commit:0.2' };
/** Long enough for dozens of writes: with a chance of 0.2 each, the fault point fires in far fewer. */
const WRITING_MS = 15_000;

afterEach(removeInstallations);

describe.each(storeKinds)('a kill between the commit and the answer (%s)', (kind) => {
  it('answers the retry of the killed write with its stored answer, and the write is there once', async () => {
    const env = await installation(kind);
    const ledger: Sent[] = [];
    const first = await firstStart(env);
    const target = first.target;
    await kill(first.server, 'SIGTERM');

    for (let kills = 0; kills < KILLS; kills += 1) {
      const server = await startListening({ ...env, ...FAULTS });
      // One client: the write in flight when the server kills itself is the one whose transaction committed.
      for (const write of await retryUnanswered(server.url, target, ledger)) expect(write.retried!.replay, write.name).toBe(true);
      const load = writeLoad(server.url, target, ledger, 1);
      const exited = await Promise.race([server.exited, sleep(WRITING_MS).then(() => null)]);
      if (!exited) await load.stop();
      expect(exited, `the fault point never fired in ${WRITING_MS} ms of writes`).toEqual({ code: null, signal: 'SIGKILL' });
      await load.done;
    }

    const server = await startListening(env);
    const killed = await retryUnanswered(server.url, target, ledger);
    expect(killed).toHaveLength(1);
    expect(killed[0]!.retried!.replay).toBe(true);
    expect(ledger.filter((write) => write.retried?.replay)).toHaveLength(KILLS);
    await expectEveryWriteOnce(server.url, target, ledger);
  });
});
