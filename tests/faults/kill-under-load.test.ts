// @vitest-environment node
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { storeKinds } from '../support/store';
import { installation, removeInstallations } from './installation';
import { kill, startListening } from './process';
import { acknowledged, expectEveryWriteOnce, firstStart, retryUnanswered, writeLoad, type Sent } from './writes';

/*
 * Issue 17, the faults suite: the built server killed with SIGKILL at random moments while
 * clients write, then started again on the same data with nothing done by hand. Every write it
 * acknowledged is there, every write it did not is retried with its key and takes effect once.
 */

const KILLS = 3;
const CLIENTS = 6;

afterEach(removeInstallations);

describe.each(storeKinds)('kill -9 under write load (%s)', (kind) => {
  it('loses no acknowledged write, and every retry takes effect exactly once with its first answer', async () => {
    const env = await installation(kind);
    const ledger: Sent[] = [];
    const first = await firstStart(env);
    const target = first.target;
    let server = first.server;
    for (let kill9 = 0; kill9 < KILLS; kill9 += 1) {
      const load = writeLoad(server.url, target, ledger, CLIENTS);
      await sleep(randomInt(200, 1500));
      await kill(server);
      await load.done;
      server = await startListening(env);
      await retryUnanswered(server.url, target, ledger);
    }
    expect(ledger.filter((write) => !acknowledged(write)).length, 'writes cut off by the kills').toBeGreaterThanOrEqual(KILLS);
    await expectEveryWriteOnce(server.url, target, ledger);
  });
});
