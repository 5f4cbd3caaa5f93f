import type { Db } from './store';

/**
 * A query every request runs, built once per store and prepared (PostgreSQL plans it once per
 * connection), instead of assembled again each time: assembling is most of what Drizzle costs.
 * Its values are `sql.placeholder`s, given to `execute()`.
 */
export function prepared<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
