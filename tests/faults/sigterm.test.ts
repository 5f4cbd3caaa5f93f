// @vitest-environment node
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { storeKinds } from '../support/store';
import { installation, removeInstallations } from './installation';
import { kill, startListening } from './process';
import { acknowledged, expectEveryWriteOnce, firstStart, retryUnanswered, writeLoad, type Sent } from './writes';

/*
 * Issue 17, the faults suite: SIGTERM while clients write (a deploy, a `systemctl stop`) finishes
 * what is in flight, exits cleanly, and the next start needs nothing done by hand.
 */

const CLIENTS = 6;
const STOP_GRACE_MS = 10_000;

afterEach(removeInstallations);

describe.each(storeKinds)('SIGTERM during writes (%s)', (kind) => {
  it('exits with 0, keeps every acknowledged write, and starts again as it was left', async () => {
    const env = await installation(kind);
    const ledger: Sent[] = [];
    const { server, target } = await firstStart(env);
    const load = writeLoad(server.url, target, ledger, CLIENTS);
    await sleep(randomInt(300, 1500));
    const asked = Date.now();
    expect(await kill(server, 'SIGTERM')).toEqual({ code: 0, signal: null });
    // Within the grace a supervisor gives before its SIGKILL (docker stop: 10 s): a connection kept
    // alive after its last answer once held the process for 72 s.
    expect(Date.now() - asked).toBeLessThan(STOP_GRACE_MS);
    await load.done;
    expect(ledger.filter(acknowledged).length).toBeGreaterThan(0);

    const next = await startListening(env);
    await retryUnanswered(next.url, target, ledger);
    await expectEveryWriteOnce(next.url, target, ledger);
  });
});
