import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, preValidationHookHandler } from 'fastify';
import { createHmac } from 'node:crypto';
import { messages } from '../../contract/messages';
import type { ServerContext } from '../context';
import { faultPoint } from '../faults';
import type { Db } from '../store/open';
import { HOLD_LIMIT_MS, holdTransaction, runHeld, type HeldTransaction, type Tx } from '../store/request-transaction';
import { idempotencyKeys } from '../store/schema';
import { isApiPath } from './client';
import { HttpError } from './errors';
import { holdMultipart } from './held-multipart';
import { isUuid } from './ids';

/** docs/design.md §4: how long a key and its answer are kept (store/maintenance.ts prunes them). */
export const IDEMPOTENCY_TTL_MS = 7 * 24 * 3600_000;
/** A pending key left by a server before ADR 016 (whose answers were stored apart) is taken over after this. */
export const PENDING_TIMEOUT_MS = 60_000;
export const REPLAY_HEADER = 'idempotent-replay';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Every /api answer is the JSON envelope, so the stored text replays under this type.
const JSON_TYPE = 'application/json; charset=utf-8';

type KeyRow = typeof idempotencyKeys.$inferSelect;
interface Claim {
  caller: string;
  key: string;
  requestHash: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * `false`: the route's work is a call to another server with nothing of its own to commit (an
     * SMTP test); it runs outside a held transaction, which on the embedded database would stop
     * every other request for as long as that server takes. Its answer is still kept for its key.
     */
    transaction?: false;
  }
  interface FastifyRequest {
    /** The Idempotency-Key this request answers into. */
    idempotencyClaim: Claim | null;
    /** The stored answer of an earlier request under the same key, found before the policy ran. */
    idempotentReplay: KeyRow | null;
    heldTransaction: HeldTransaction | null;
    /** Values of the answer shown once and never kept, not even with the stored answer (a new API key). */
    shownOnce: string[] | null;
  }
}

/** Marks values of this request's answer as shown once: a replay answers without them. */
export function revealOnce(request: FastifyRequest, values: Record<string, unknown>): void {
  for (const value of Object.values(values)) if (typeof value === 'string') (request.shownOnce ??= []).push(value);
}

/** JSON with sorted object keys: `{a,b}` and `{b,a}` are the same request. Bodies nest at most MAX_JSON_DEPTH (json-body.ts). */
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

/** Whose keys these are: the signed-in user, or for the delivery API the website whose key was sent. */
function callerOf(request: FastifyRequest): string | null {
  if (request.auth) return request.auth.user.id;
  return request.routeOptions.config.policy === 'apiKey' && request.website ? `website:${request.website.id}` : null;
}

function keyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined || !MUTATING.has(request.method)) return null;
  if (typeof header !== 'string' || !isUuid(header)) throw new HttpError(400, messages.idempotencyKeyFormat);
  return header.toLowerCase();
}

const rowOf = ({ caller, key }: Pick<Claim, 'caller' | 'key'>) => and(eq(idempotencyKeys.caller, caller), eq(idempotencyKeys.key, key));

/** The answer as it may be kept: values shown once are left out, and its message says so. */
function keptAnswer(request: FastifyRequest, payload: string): string {
  if (!request.shownOnce) return payload;
  const secret = new Set(request.shownOnce);
  const answer = JSON.parse(payload, (_key, value: unknown) => (typeof value === 'string' && secret.has(value) ? undefined : value)) as Record<string, unknown>;
  return JSON.stringify({ ...answer, message: request.t(messages.shownOnce) });
}

/** A request that ended before its answer was sent (a hijacked reply) must not keep its transaction. */
async function abandon(request: FastifyRequest): Promise<void> {
  const held = request.heldTransaction;
  request.heldTransaction = null;
  if (!held) return;
  request.log.error('a request ended without its answer; its transaction was rolled back');
  await held.rollback();
}

const replay = (reply: FastifyReply, row: KeyRow) =>
  reply.status(row.status!).header('content-type', JSON_TYPE).header(REPLAY_HEADER, 'true').send(row.response);

/**
 * Every mutating request of a signed-in caller or a website's key (docs/design.md §4, ADR 016)
 * runs in one transaction, held from before its handler until its answer is known: a 5xx rolls
 * all of it back, a refusal (4xx) keeps only its rate limits' counts, a success commits it. With an Idempotency-Key, the key is claimed and the
 * answer stored inside that same transaction, so a process killed at any moment leaves the change
 * with its answer or neither: a retry under the key replays the first answer or runs for the first
 * time, never twice. A concurrent retry waits for the first (PostgreSQL holds the key's row lock;
 * the embedded database runs one transaction at a time) and gets its answer. Public routes (login,
 * PIN, reset) are left out: their answers carry tokens, which must not rest in a table. The key
 * is optional, so curl and other API users need not send one.
 *
 * Returns the check the policy guard runs before authorizing: a stored answer is replayed without
 * asking the policy again, which may no longer find the row the first request deleted.
 * `actorOf` says who a request's changes are by: set in its transaction for the revisions it writes.
 */
export function registerIdempotency(
  app: FastifyInstance,
  { store, clock, secret }: Pick<ServerContext, 'store' | 'clock' | 'secret'>,
  actorOf?: (request: FastifyRequest) => object | null,
) {
  const db: Db = store.db;

  async function answeredBefore(request: FastifyRequest): Promise<boolean> {
    const caller = callerOf(request);
    const key = caller ? keyOf(request) : null;
    if (!key || !caller) return false;
    const [row] = await db.select().from(idempotencyKeys).where(rowOf({ caller, key }));
    if (!row || row.status === null || isExpired(row)) return false;
    request.idempotentReplay = row;
    return true;
  }

  const isExpired = (row: KeyRow) => row.createdAt.getTime() < clock().getTime() - IDEMPOTENCY_TTL_MS;

  async function hashOf(request: FastifyRequest): Promise<string> {
    // An upload is streamed to its handler, so nothing of it is in request.body: its files' digests
    // and its text fields stand for it. It is read whole before the transaction opens, so a slow
    // phone never holds the database while its bytes trickle in.
    const body = request.isMultipart() ? await holdMultipart(request) : request.body;
    // Keyed with APP_SECRET: a body may hold passwords (change-password), and a plain hash of
    // one could be brute-forced from a copy of the table.
    return createHmac('sha256', secret).update(`${request.method} ${request.url}\n${canonical(body)}`).digest('hex');
  }

  /** Claims the key inside the held transaction; otherwise answers the request from what the key holds. */
  async function claim(tx: Tx, request: FastifyRequest, reply: FastifyReply, wanted: Claim): Promise<boolean> {
    const inserted = await tx
      .insert(idempotencyKeys)
      .values({ ...wanted, createdAt: clock() })
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (inserted.length > 0) return true;
    const [row] = await tx.select().from(idempotencyKeys).where(rowOf(wanted)).for('update');
    if (!row) throw new HttpError(409, messages.idempotencyInFlight);
    const stale = row.status === null && row.requestHash === wanted.requestHash && row.createdAt.getTime() < clock().getTime() - PENDING_TIMEOUT_MS;
    if (isExpired(row) || stale) {
      await tx.update(idempotencyKeys).set({ requestHash: wanted.requestHash, status: null, response: null, createdAt: clock() }).where(rowOf(wanted));
      return true;
    }
    if (row.requestHash !== wanted.requestHash) throw new HttpError(422, messages.idempotencyReused);
    if (row.status === null || row.response === null) throw new HttpError(409, messages.idempotencyInFlight);
    replay(reply, row);
    return false;
  }

  /** Opens the request's transaction and claims its key; 'answered' when the key already held the answer. */
  async function begin(request: FastifyRequest, reply: FastifyReply): Promise<HeldTransaction | 'answered' | null> {
    const caller = callerOf(request);
    const key = caller ? keyOf(request) : null;
    const wanted = key && caller ? { caller, key, requestHash: await hashOf(request) } : null;
    if (!wanted && request.isMultipart()) await holdMultipart(request);
    const earlier = request.idempotentReplay;
    if (earlier && wanted) {
      if (earlier.requestHash !== wanted.requestHash) throw new HttpError(422, messages.idempotencyReused);
      replay(reply, earlier);
      return 'answered';
    }
    if (request.routeOptions.config.transaction === false) {
      request.idempotencyClaim = wanted;
      return null;
    }
    // PostgreSQL gives each request a connection of its own; the embedded database has one for all.
    const limit = store.kind === 'pglite' ? { ms: HOLD_LIMIT_MS, onExpired: () => request.log.error(`${request.method} ${request.url} held the database ${HOLD_LIMIT_MS} ms; its change was undone`) } : undefined;
    const held = await holdTransaction(db, limit);
    try {
      const actor = actorOf?.(request);
      // The request's changes are written down as theirs (migration 0014's revisions), until it ends.
      if (actor) await held.tx!.execute(sql`select set_config('app.actor', ${JSON.stringify(actor)}, true)`);
      if (wanted && !(await claim(held.tx!, request, reply, wanted))) {
        await held.rollback();
        return 'answered';
      }
    } catch (error) {
      await held.rollback();
      throw error;
    }
    request.idempotencyClaim = wanted;
    request.heldTransaction = held;
    return held;
  }

  // Callback style: the rest of the request (validation, handler, answer) runs inside the held
  // transaction's context, which an async hook's caller would not carry on. A request answered
  // here does not call `done`: that is how a callback hook ends the request's way to its handler.
  const start: preValidationHookHandler = (request, reply, done) => {
    begin(request, reply).then(
      (held) => {
        if (held === 'answered') return;
        if (held) runHeld(held, () => done());
        else done();
      },
      (error: unknown) => done(error as Error),
    );
  };

  const keep = (target: Db | Tx, wanted: Claim, status: number, response: string) =>
    target
      .insert(idempotencyKeys)
      .values({ ...wanted, status, response, createdAt: clock() })
      .onConflictDoUpdate({ target: [idempotencyKeys.caller, idempotencyKeys.key], set: { status, response } });

  const finish: onSendHookHandler = async (request, reply, payload) => {
    const held = request.heldTransaction;
    const wanted = request.idempotencyClaim;
    request.heldTransaction = null;
    request.idempotencyClaim = null;
    const status = reply.statusCode;
    if (held) {
      // A 5xx is our fault, not the request's: nothing of it stays, and a retry runs afresh.
      if (status >= 500) {
        await held.rollback();
        return payload;
      }
      // Only text can be replayed byte for byte; every /api answer is the JSON envelope.
      if (wanted && typeof payload !== 'string') {
        await held.rollback();
        throw new Error(`${request.method} ${request.url} answered with something other than text under an Idempotency-Key`);
      }
      await held.commit(status >= 400, wanted ? (tx) => keep(tx, wanted, status, keptAnswer(request, payload as string)).then(() => undefined) : undefined);
      faultPoint('after-commit');
    } else if (wanted && status < 500 && typeof payload === 'string') {
      await keep(db, wanted, status, keptAnswer(request, payload));
    }
    return payload;
  };

  app.decorateRequest('idempotencyClaim', null);
  app.decorateRequest('idempotentReplay', null);
  app.decorateRequest('heldTransaction', null);
  app.decorateRequest('shownOnce', null);
  app.addHook('onRoute', (route) => {
    const url = route.url ?? route.path;
    const methods = [route.method].flat();
    if (!isApiPath(url) || route.config?.policy === 'public' || !methods.some((method) => MUTATING.has(method))) return;
    route.preValidation = [start, ...(route.preValidation ? [route.preValidation].flat() : [])];
    route.onSend = [...(route.onSend ? [route.onSend].flat() : []), finish];
    route.onResponse = [...(route.onResponse ? [route.onResponse].flat() : []), abandon];
  });
  return { answeredBefore };
}
