import { createParser } from 'eventsource-parser';
import { EVENTS_PATH } from '../src/contract/live';
import type { Store } from '../src/server/store/open';
import { dishApp, onBothStores } from './dish-app';

export interface LiveBenchResult {
  /** From sending a dish's new price to another device's stream telling of it: median and worst, ms. */
  p50: number;
  worst: number;
  /** The save's own answer on the saving device, median ms: the floor. */
  answerP50: number;
  changes: number;
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Issue 21's live updates: one device changes a dish's price over HTTP, one save at a time; a second
 * device of the same owner holds the event stream. Each change is timed from the moment its request
 * leaves to the moment the other device has the event.
 */
async function measure(store: Store, changes: number): Promise<LiveBenchResult> {
  const { app, base, headers, dish, setPrice } = await dishApp(store);
  const stop = new AbortController();
  try {
    const waiting = new Map<number, () => void>();
    const stream = await fetch(base + EVENTS_PATH, { headers: { ...headers, accept: 'text/event-stream' }, signal: stop.signal });
    const parser = createParser({
      onEvent: ({ data }) => {
        const change = JSON.parse(data) as { record?: string; version?: number };
        if (change.record === dish._id && change.version !== undefined) waiting.get(change.version)?.();
      },
    });
    void (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of stream.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
    })().catch(() => {});

    let version = dish.version;
    const heard: number[] = [];
    const answered: number[] = [];
    for (let i = 0; i < changes + 10; i++) {
      const next = version + 1;
      const told = new Promise<void>((resolve) => waiting.set(next, resolve));
      const started = performance.now();
      version = await setPrice(900 + i, version);
      const answer = performance.now() - started;
      await told;
      waiting.delete(next);
      // The first ten warm the connection, the statements and the JIT.
      if (i >= 10) {
        heard.push(performance.now() - started);
        answered.push(answer);
      }
    }
    return { p50: median(heard), worst: Math.max(...heard), answerP50: median(answered), changes: heard.length };
  } finally {
    stop.abort();
    await app.close();
  }
}

/** On PostgreSQL (LISTEN/NOTIFY over a connection of its own) and on the embedded PGlite. */
export const benchLive = (changes = 100) => onBothStores((store) => measure(store, changes));
