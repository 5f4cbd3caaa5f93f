import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Webhook } from 'standardwebhooks';
import type { Attempt } from '../../contract/resources/webhooks';
import { bareHost, PrivateAddressRefused, resolveOutbound } from '../http/outbound-address';

/** What one attempt came to; `at` is the sender's to stamp. */
export type Outcome = Omit<Attempt, 'at'>;

/** The socket goes to the address already checked: the HTTP client's own lookup could answer another one. */
const pinnedTo =
  (address: string): LookupFunction =>
  (_hostname, options, callback) => {
    const family = isIP(address);
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

class TimedOut extends Error {}

/**
 * One signed POST of `payload` to `url` (Standard Webhooks: `webhook-id`, `webhook-timestamp`,
 * `webhook-signature`), to the address its host resolves to now, which must be a public one unless
 * `allowPrivate`. Never throws: a refused address, no connection and no answer in `timeoutMs` are
 * outcomes like a status code. The signature's time is the wall clock's, since the receiver checks
 * it against its own to refuse replays.
 */
export async function postSigned(
  { url, secret, msgId, payload }: { url: string; secret: string; msgId: string; payload: string },
  { allowPrivate, timeoutMs }: { allowPrivate: boolean; timeoutMs: number },
): Promise<Outcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const target = new URL(url);
  let address: string;
  try {
    address = await resolveOutbound(target.hostname, allowPrivate);
  } catch (error) {
    return { statusCode: null, error: error instanceof PrivateAddressRefused ? 'refused' : 'network', durationMs: elapsed() };
  }
  const now = new Date();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Sitekeeper-Webhooks',
    'webhook-id': msgId,
    'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(msgId, now, payload),
  };
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<Outcome>((resolve) => {
    const request = client.request(
      target,
      // No pooled connection: each attempt connects to the address checked for it.
      { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(payload) }, lookup: pinnedTo(address), agent: false, ...(isIP(bareHost(target.hostname)) ? {} : { servername: target.hostname }) },
      (response) => {
        clearTimeout(timer);
        // Only the status counts; whatever body follows is not read.
        response.destroy();
        resolve({ statusCode: response.statusCode ?? null, error: null, durationMs: elapsed() });
      },
    );
    const timer = setTimeout(() => request.destroy(new TimedOut()), timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      resolve({ statusCode: null, error: error instanceof TimedOut ? 'timeout' : 'network', durationMs: elapsed() });
    });
    request.end(payload);
  });
}
