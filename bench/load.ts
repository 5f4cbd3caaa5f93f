import { Agent, request } from 'node:http';
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface LoadResult {
  requests: number;
  perSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

interface LoadOptions {
  seconds?: number;
  concurrency?: number;
  status?: number;
}

/**
 * A closed-loop load generator: `concurrency` clients each send the next request as soon as the
 * previous answered, for `seconds`. Plain node:http with keep-alive, so the generator itself costs
 * as little as possible and the same for every server it measures. It runs in a process of its own,
 * as wrk or autocannon would: in the servers' thread its own cost was
 * added to every request, and a server's cheap answer (a 304) looked as dear as the generator.
 * An answer of another status than `status` counts as an error.
 */
export function load(url: URL, paths: string[], headers: Record<string, string>, options: LoadOptions = {}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const generator = fork(fileURLToPath(import.meta.url), [JSON.stringify({ url: url.href, paths, headers, options })], { execArgv: ['--import', 'tsx'] });
    generator.once('message', (result) => resolve(result as LoadResult));
    generator.once('error', reject);
    generator.once('exit', (code) => code !== 0 && reject(new Error(`the load generator ended with ${code}`)));
  });
}

async function generate(url: URL, paths: string[], headers: Record<string, string>, { seconds = 5, concurrency = 16, status: expected = 200 }: LoadOptions): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const until = performance.now() + seconds * 1000;

  const once = (path: string) =>
    new Promise<number>((resolve, reject) => {
      const req = request(new URL(path, url), { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });

  async function client() {
    while (performance.now() < until) {
      const path = paths[next++ % paths.length]!;
      const started = performance.now();
      const status = await once(path).catch(() => 0);
      latencies.push(performance.now() - started);
      if (status !== expected) errors++;
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { requests: latencies.length, perSecond: latencies.length / elapsed, p50: at(0.5), p99: at(0.99), errors };
}

// Forked by `load`: this process is the generator.
if (process.send && process.argv[1] === fileURLToPath(import.meta.url)) {
  const { url, paths, headers, options } = JSON.parse(process.argv[2]!) as { url: string; paths: string[]; headers: Record<string, string>; options: LoadOptions };
  process.send(await generate(new URL(url), paths, headers, options), () => process.exit(0));
}

/** The round with the median throughput. */
export const medianRound = (rounds: LoadResult[]): LoadResult => rounds.toSorted((a, b) => a.perSecond - b.perSecond)[Math.floor(rounds.length / 2)]!;
