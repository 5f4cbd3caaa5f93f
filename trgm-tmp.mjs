import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
const db = await PGlite.create({ extensions: { pg_trgm } });
await db.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm; create table t(name text); create index on t using gin (lower(name) gin_trgm_ops);');
await db.exec("insert into t select 'name ' || g from generate_series(1,100000) g");
let t=Date.now(); const r = await db.query("select count(*) from t where lower(name) like '%me 999%'"); console.log(r.rows, Date.now()-t);
const c = await db.clone(); const r2 = await c.query("select count(*) from t where lower(name) like '%me 999%'"); console.log('clone', r2.rows);
