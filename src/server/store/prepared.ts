import { inRequestTransaction } from './request-transaction';
import type { Db } from './store';

/**
 * A query every request runs, built once per store and prepared (PostgreSQL plans it once per
 * connection), instead of assembled again each time: assembling is most of what Drizzle costs.
 * Its values are `sql.placeholder`s, given to `execute()`. Inside a request's held transaction it
 * is built for that transaction's connection each time: one prepared for the store's own would
 * run beside the transaction, and on the embedded database wait for it to end.
 */
export function prepared<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    if (inRequestTransaction()) return build(db);
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
