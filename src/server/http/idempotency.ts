import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { FastifyInstance, onSendHookHandler, preValidationHookHandler } from 'fastify';
import { createHmac } from 'node:crypto';
import { messages } from '../../contract/messages';
import type { ServerContext } from '../context';
import { caller } from '../policy';
import type { Db } from '../store/open';
import { idempotencyKeys } from '../store/schema';
import { isApiPath } from './client';
import { HttpError } from './errors';
import { holdMultipart } from './held-multipart';
import { isUuid } from './ids';

/** docs/design.md §4: how long a key and its answer are kept (store/maintenance.ts prunes them). */
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 3600_000;
/** A first request that has not answered in this time died with its process; a retry takes its key over. */
export const PENDING_TIMEOUT_MS = 60_000;
export const REPLAY_HEADER = 'idempotent-replay';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Every /api answer is the JSON envelope, so the stored text replays under this type.
const JSON_TYPE = 'application/json; charset=utf-8';

interface Claim {
  caller: string;
  key: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The key this request inserted (or took over) and must answer into. */
    idempotencyClaim: Claim | null;
  }
}

const rowOf = (claim: Claim) => and(eq(idempotencyKeys.caller, claim.caller), eq(idempotencyKeys.key, claim.key));

/** JSON with sorted object keys: `{a,b}` and `{b,a}` are the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    return `{${Object.keys(record)
      .toSorted()
      .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? '';
}

/**
 * Idempotency-Key (docs/design.md §4) for every mutating request of a signed-in caller: the first
 * request claims the key, runs, and leaves its answer; a repeat gets that answer byte for byte.
 * Public routes (login, PIN, reset) are left out: their answers carry tokens, which must not rest
 * in a table. The key is optional, so curl and other API users need not send one.
 */
export function registerIdempotency(app: FastifyInstance, { store, clock, secret }: Pick<ServerContext, 'store' | 'clock' | 'secret'>) {
  const db: Db = store.db;

  const begin: preValidationHookHandler = async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !MUTATING.has(request.method)) return;
    if (typeof header !== 'string' || !isUuid(header)) throw new HttpError(400, messages.idempotencyKeyFormat);
    const claim = { caller: caller(request).user.id, key: header.toLowerCase() };
    // An upload is streamed to its handler, so nothing of it is in request.body: its files' digests
    // and its text fields stand for it, or another file sent under the same key would replay the
    // first one's answer.
    const body = request.isMultipart() ? await holdMultipart(request) : request.body;
    // Keyed with APP_SECRET: a body may hold passwords (change-password), and a plain hash of
    // one could be brute-forced from a copy of the table.
    const requestHash = createHmac('sha256', secret).update(`${request.method} ${request.url}\n${canonical(body)}`).digest('hex');
    const now = clock();
    const ago = (ms: number) => new Date(now.getTime() - ms);

    const inserted = await db
      .insert(idempotencyKeys)
      .values({ ...claim, requestHash, createdAt: now })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    // An expired key starts a new life; a crashed first attempt of this very request is taken over.
    const takenOver =
      inserted.length > 0 ||
      (
        await db
          .update(idempotencyKeys)
          .set({ requestHash, status: null, response: null, createdAt: now })
          .where(
            and(
              rowOf(claim),
              or(
                lt(idempotencyKeys.createdAt, ago(IDEMPOTENCY_TTL_MS)),
                and(isNull(idempotencyKeys.status), eq(idempotencyKeys.requestHash, requestHash), lt(idempotencyKeys.createdAt, ago(PENDING_TIMEOUT_MS))),
              ),
            ),
          )
          .returning({ key: idempotencyKeys.key })
      ).length > 0;
    if (takenOver) {
      request.idempotencyClaim = claim;
      return;
    }

    const [row] = await db.select().from(idempotencyKeys).where(rowOf(claim));
    if (row && row.requestHash !== requestHash) throw new HttpError(422, messages.idempotencyReused);
    // No row: a failed first attempt released the key a moment ago; the caller's retry will find it free.
    if (!row || row.status === null || row.response === null) throw new HttpError(409, messages.idempotencyInFlight);
    return reply.status(row.status).header('content-type', JSON_TYPE).header(REPLAY_HEADER, 'true').send(row.response);
  };

  const finish: onSendHookHandler = async (request, reply, payload) => {
    const claim = request.idempotencyClaim;
    if (!claim) return payload;
    try {
      // A 5xx is our fault, not the request's: release the key so a retry runs again. A
      // non-text answer could not be replayed byte for byte, so it is not kept either.
      if (reply.statusCode >= 500 || typeof payload !== 'string') await db.delete(idempotencyKeys).where(rowOf(claim));
      else await db.update(idempotencyKeys).set({ status: reply.statusCode, response: payload }).where(rowOf(claim));
    } catch (err) {
      // The change itself is done; the caller must hear about it. The pending key times out.
      request.log.error({ err }, 'storing the idempotent answer failed');
    }
    return payload;
  };

  app.decorateRequest('idempotencyClaim', null);
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    const methods = [route.method].flat();
    if (!isApiPath(url) || route.config?.policy === 'public' || !methods.some((method) => MUTATING.has(method))) return;
    route.preValidation = [begin, ...(route.preValidation ? [route.preValidation].flat() : [])];
    route.onSend = [...(route.onSend ? [route.onSend].flat() : []), finish];
  });
}
