import type { FastifyBaseLogger } from 'fastify';

/** A job that works in rounds in the server process (contact form mails, webhooks). */
export interface Rounds {
  /** Starts the rounds (with the app). */
  start(): void;
  /** A round soon: something came that it should see. */
  kick(): void;
  /** Ends the rounds and waits for the one running (with the app's close). */
  stop(): Promise<void>;
  /** Whether it is ending: a round working through batches stops between them. */
  readonly stopped: boolean;
}

/**
 * Runs `round` every `intervalMs` and whenever kicked, never two at once. A kick during a round asks
 * for another after it: what it was kicked for may have come after that round's claim. A kick
 * within `kickGapMs` of the last round's start waits for the gap to pass, so a burst of kicks (one
 * per committed change, for the webhooks) costs one round, not one each on the saves' hot path. A
 * failed round is logged (as `what`) and the next one comes as usual.
 */
export function rounds({ intervalMs, kickGapMs = 0, round, log, what }: { intervalMs: number; kickGapMs?: number; round: () => Promise<void>; log: FastifyBaseLogger; what: string }): Rounds {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let startedAt = -Infinity;
  let waiting: NodeJS.Timeout | null = null;

  function run(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      for (;;) {
        again = false;
        startedAt = Date.now();
        await round().catch((error: unknown) => log.warn({ err: error }, `${what} failed`));
        if (!again || stopped) return;
      }
    })().finally(() => (running = null));
    return running;
  }

  return {
    start() {
      if (timer || stopped) return;
      // unref: a pending retry must not keep a stopping process alive.
      timer = setInterval(() => void run(), intervalMs).unref();
      void run();
    },
    kick() {
      if (stopped || waiting) return;
      const wait = startedAt + kickGapMs - Date.now();
      if (wait <= 0) void run();
      else
        waiting = setTimeout(() => {
          waiting = null;
          if (!stopped) void run();
        }, wait).unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      if (waiting) clearTimeout(waiting);
      timer = null;
      waiting = null;
      await running;
    },
    get stopped() {
      return stopped;
    },
  };
}
