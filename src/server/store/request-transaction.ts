import { AsyncLocalStorage } from 'node:async_hooks';
import { sql } from 'drizzle-orm';
import { pgError } from './pg-errors';
import type { Db } from './store';

/** A transaction as Drizzle hands it to `db.transaction`'s callback. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * One request's transaction, held open from before its handler runs until its answer is known
 * (ADR 016): the answer is stored in it and the whole commits at once, so a process killed at any
 * moment leaves either the change with its answer or neither. A refused request (4xx) keeps
 * nothing of what its handler wrote but what it marked `keepIfRefused`.
 */
export interface HeldTransaction {
  /** Null once it ended: code still running for the request (a late query) uses the store itself. */
  tx: Tx | null;
  /** Undone for holding the database too long: the request's code may not reach the store any more. */
  expired: boolean;
  /** Work to do once the change is visible to everyone (a mail job's kick); dropped on rollback. */
  committed: (() => void)[];
  /** Writes that stand even when the request is refused (a rate limit's count), done again after its work is undone. */
  kept: ((tx: Tx) => Promise<unknown>)[];
  /**
   * Commits, after `before` (the stored answer). `refused` (a 4xx): what the handler did is undone
   * first, but for its `kept` writes — a refused request changes nothing else.
   */
  commit(refused: boolean, before?: (tx: Tx) => Promise<void>): Promise<void>;
  rollback(): Promise<void>;
}

const current = new AsyncLocalStorage<HeldTransaction>();

// Named apart from Drizzle's own (`sp1`, `sp2`, …), which nest inside it.
const HANDLER_SAVEPOINT = 'request_handler';
const PG_IN_FAILED_TRANSACTION = '25P02';

/** Ends the held callback: resolved commits, rejected with this rolls back. */
class Rollback extends Error {}

/** What a request undone for holding the database too long meets at its next query or its commit. */
export class HeldTooLong extends Error {
  constructor() {
    super('the request held the database too long; its change was undone');
  }
}

/**
 * How long a request may hold the embedded database, which runs one transaction at a time: every
 * other request, job and sign-in waits behind it. Its answer is known in well under a second; one
 * that is not after this long is stuck (a client gone before an answer Fastify then never sends,
 * a query that waits on the transaction it runs in), and is undone so the installation goes on.
 */
export const HOLD_LIMIT_MS = 30_000;

/**
 * The database as every route sees it (store/pglite.ts and store/postgres.ts hand out only this):
 * inside a request's held transaction it is that transaction (a `db.transaction()` there is a
 * savepoint), elsewhere the database itself. Drizzle's database and transaction share their query
 * API, so no route needs to know which it has, and none can reach past its request's transaction
 * (on the embedded database, one connection, that would wait for the transaction forever).
 */
export function requestScoped(db: Db): Db {
  return new Proxy(db, {
    get(target, property) {
      const held = current.getStore();
      // Outside its undone transaction a late query would write half of the request's change.
      if (held?.expired) throw new HeldTooLong();
      const source = held?.tx ?? target;
      const value: unknown = Reflect.get(source, property, source);
      return typeof value === 'function' ? value.bind(source) : value;
    },
  });
}

/** Whether this code runs for a request whose transaction is held (prepared statements are per connection). */
export const inRequestTransaction = () => (current.getStore()?.tx ?? null) !== null;

/**
 * Marks a write of the request as one that stands even if the request is refused: `work` is done
 * again once the refused request's own work is undone (a rate limit counts the attempts it
 * refuses). Where no transaction is held, the write stands anyway.
 */
export function keepIfRefused(work: (tx: Tx) => Promise<unknown>): void {
  const held = current.getStore();
  if (held?.tx) held.kept.push(work);
}

/** Runs `work` once the request's change is committed, outside its transaction; at once where none is held. */
export function afterCommit(work: () => void): void {
  const held = current.getStore();
  if (held?.tx) held.committed.push(work);
  else current.exit(work);
}

/** Runs `next` (the rest of the request) with `held` as its database. */
export const runHeld = (held: HeldTransaction, next: () => void) => current.run(held, next);

/**
 * Opens a transaction on the store's own database and keeps it open until `commit` or `rollback`.
 * The handler's work runs under a savepoint, so a statement of it that failed (a unique value
 * taken, answered as a 400) does not doom what comes after it: the answer is still stored.
 * With a `limit`, a transaction not ended by then is rolled back and `onExpired` told.
 */
export async function holdTransaction(db: Db, limit?: { ms: number; onExpired: () => void }): Promise<HeldTransaction> {
  let end!: (commit: boolean) => void;
  const decided = new Promise<boolean>((resolve) => (end = resolve));
  let opened!: (tx: Tx) => void;
  let failedToOpen!: (error: unknown) => void;
  const ready = new Promise<Tx>((resolve, reject) => {
    opened = resolve;
    failedToOpen = reject;
  });
  let last: ((tx: Tx) => Promise<void>) | null = null;
  const done = current.exit(() =>
    db.transaction(async (tx) => {
      opened(tx);
      if (!(await decided)) throw new Rollback();
      if (last) await last(tx);
    }),
  );
  done.catch(failedToOpen);
  const tx = await ready;
  await tx.execute(sql.raw(`SAVEPOINT ${HANDLER_SAVEPOINT}`));

  const timer = limit
    ? setTimeout(() => {
        held.expired = true;
        held.tx = null;
        end(false);
        limit.onExpired();
      }, limit.ms)
    : null;
  timer?.unref();

  const held: HeldTransaction = {
    tx,
    expired: false,
    committed: [],
    kept: [],
    async commit(refused, before) {
      if (timer) clearTimeout(timer);
      if (held.expired) throw new HeldTooLong();
      held.tx = null;
      last = async (open) => {
        if (refused) {
          await open.execute(sql.raw(`ROLLBACK TO SAVEPOINT ${HANDLER_SAVEPOINT}`));
          for (const work of held.kept) await work(open);
        } else await keepHandlerWork(open);
        if (before) await before(open);
      };
      end(true);
      await done;
      for (const work of held.committed) current.exit(work);
    },
    async rollback() {
      if (timer) clearTimeout(timer);
      held.tx = null;
      end(false);
      await done.catch((error: unknown) => {
        if (!(error instanceof Rollback)) throw error;
      });
    },
  };
  return held;
}

/** The handler's savepoint released, or, when one of its statements failed (the answer is then a 4xx anyway), rolled back to. */
async function keepHandlerWork(tx: Tx): Promise<void> {
  try {
    await tx.execute(sql.raw(`RELEASE SAVEPOINT ${HANDLER_SAVEPOINT}`));
  } catch (error) {
    if (pgError(error)?.code !== PG_IN_FAILED_TRANSACTION) throw error;
    await tx.execute(sql.raw(`ROLLBACK TO SAVEPOINT ${HANDLER_SAVEPOINT}`));
  }
}
