// @vitest-environment node
import { eq, getTableColumns } from 'drizzle-orm';
import { getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { seedCast, type Cast } from '../../tests/support/cast';
import { expected } from '../../tests/support/policy-table';
import { keepKey, seedPrincipals, type Principal, type Principals } from '../../tests/support/principals';
import { captureRoutes, routeName, type AppRoute } from '../../tests/support/routes';
import { storeKinds } from '../../tests/support/store';
import { seedPartner } from '../../tests/support/users';
import { World, type Target } from '../../tests/support/world';
import { ProfileUpdateBody } from '../contract/auth';
import { uuidv7 } from '../contract/uuid';
import { contactSubmissions, users } from './store/schema';

/*
 * Mass assignment (ADR 009 "Server-owned fields"): every route that writes a row from a body, sent
 * every field of that row the server owns, one at a time, on top of a body it accepts: the
 * columns its entry does not take (ids, websiteId, version, timestamps, positions, hashes, storage
 * keys, a member's type), its computed fields, and, from anyone but an admin, its admin-only and
 * owner fields. Each value is one the row could hold but does not: another website's or owner's
 * id, another enum value, a flipped flag. The request must succeed (the field is dropped, not the
 * request refused) and leave the field as the server would have it. Callers are non-admins
 * wherever the route lets one in (A's owner, else A's partner), an admin where only admins may.
 */

vi.mock('fastify', async (original) => (await import('../../tests/support/routes')).capturingFastify(await original()));
vi.mock('./crud', async (original) => (await import('../../tests/support/routes')).capturingCrud(await original()));

type Row = Record<string, unknown> & { id: string };

/** Routes with a body that is not a row's fields, and what they do with it instead. */
const NOT_A_ROW: Readonly<Record<string, string>> = {
  'POST /api/auth/login': 'checks a password, mails a PIN',
  'POST /api/auth/verify-pin': 'checks a PIN, opens a session',
  'POST /api/auth/forgot-password': 'mails a PIN',
  'POST /api/auth/verify-reset-pin': 'checks a PIN, answers a reset token',
  'POST /api/auth/reset-password': 'sets the password hash from `newPassword` alone',
  'PUT /api/profile/change-password': 'sets the password hash from `newPassword` alone',
  'POST /api/cms/contact-forms/:websiteId/smtp/test': 'sends a mail, stores nothing',
};

/** A route that writes a row from its body: where the row is, which keys it takes as they are, and who calls it. */
interface Writer {
  route: AppRoute;
  table: PgTable;
  writable: ReadonlySet<string>;
  /** Computed fields no column keeps: only the answer could show them. */
  shown: readonly string[];
  creates: boolean;
  caller: Principal;
  /** A body the route accepts, before the server-owned field is added. */
  base(): Promise<Record<string, unknown>>;
  /** The row an update changes. */
  row?(target: Target): Promise<Row>;
}

const MARK = 'mass-assigned';
const same = (a: unknown, b: unknown) => JSON.stringify(a instanceof Date ? a.toISOString() : a) === JSON.stringify(b instanceof Date ? b.toISOString() : b);

describe.each(storeKinds)('server-owned fields of every create and update (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let routes: AppRoute[] = [];
  let cast: Cast;
  let principals: Principals;
  let world: World;
  let foreignPartner = '';
  const figures = { routes: 0, fields: 0 };

  beforeAll(async () => {
    const captured = await captureRoutes(() => createTestApp({ kind }));
    test = captured.built;
    routes = captured.routes;
    cast = await seedCast(test.store);
    principals = await seedPrincipals(test.app, test.store, cast, {});
    world = await new World(test.app, test.store, cast, captured.resources, () => principals.admin.headers).prepare();
    foreignPartner = (await seedPartner(test.store, { ownerId: cast.ids.ownerB, name: 'B’s record' })).id;
  });
  afterAll(async () => {
    console.info(`[mass assignment ${kind}] ${figures.routes} routes, ${figures.fields} server-owned fields sent`);
    await test.app.close();
  });

  /** The first of A's owner, A's partner and the admin whom the route lets in. */
  async function callerOf(route: AppRoute): Promise<Principal> {
    const target = await world.target(route);
    const { ownerA, partner, admin } = principals;
    return [ownerA, partner, admin].find((who) => expected(route, who, target) === 'allowed')!;
  }

  async function rowById(table: PgTable, id: string): Promise<Row | undefined> {
    const columns = getTableColumns(table) as Record<string, PgColumn>;
    return ((await test.store.db.select().from(table).where(eq(columns.id!, id))) as Row[])[0];
  }

  /** The routes that write a row from a body: the entries' creates and updates, the profile, a visitor's submission. */
  async function writers(): Promise<Writer[]> {
    const found: Writer[] = [];
    for (const route of routes) {
      const registered = route.registered;
      const entry = registered?.resource;
      const body = route.schema.body;
      if (!body) continue;
      if (entry && route.url === entry.order?.path) continue;
      const caller = await callerOf(route);
      if (entry && (body === entry.create || body === entry.update)) {
        const writable = new Set([...Object.keys(entry.fields), ...Object.keys(entry.secret ?? {})]);
        if (caller.kind !== 'admin') for (const key of entry.adminOnly) writable.delete(key);
        const columns = getTableColumns(registered!.table);
        const creates = route.method === 'POST';
        found.push({
          route,
          table: registered!.table,
          writable,
          shown: Object.keys(entry.computed ?? {}).filter((key) => !(key in columns)),
          creates,
          caller,
          base: async () => {
            if (!creates) return {};
            // A singleton is made once per website: its create needs the record gone, as its delete leaves it.
            if (entry.singleton) await test.store.db.delete(registered!.table).where(eq((columns as Record<string, PgColumn>).websiteId!, cast.site.A));
            return world.example(entry, cast.site.A);
          },
          row: creates ? undefined : async (target) => target.rows.get(entry.name) ?? (await world.singleton(registered!, target.websiteId)),
        });
      } else if (routeName(route) === 'PUT /api/profile') {
        found.push({ route, table: users, writable: new Set(Object.keys(ProfileUpdateBody.shape)), shown: [], creates: false, caller, base: async () => ({}), row: async () => (await rowById(users, caller.userId!))! });
      } else if (routeName(route) === 'POST /api/public/forms/:formId/submissions') {
        found.push({ route, table: contactSubmissions, writable: new Set(), shown: [], creates: true, caller: principals.keyA, base: async () => ({}) });
      } else if (!NOT_A_ROW[routeName(route)]) {
        throw new Error(`${routeName(route)} takes a body: say what it writes (NOT_A_ROW) or check it here`);
      }
    }
    return found;
  }

  /** A value `column` could hold that the row does not: another website's or owner's id, another enum value, a flipped flag. */
  async function foreign(table: PgTable, key: string, column: PgColumn, current: unknown): Promise<unknown> {
    if (key === 'websiteId') return cast.site.B;
    if (key === 'ownerId' || key === 'userId') return cast.ids.ownerB;
    if (key === 'partnerId') return foreignPartner;
    if (key === 'type' && column.columnType === 'PgEnumColumn' && (column as PgColumn & { enumValues: string[] }).enumValues.includes('admin')) return current === 'admin' ? 'user' : 'admin';
    switch (column.columnType) {
      case 'PgUUID': {
        const reference = getTableConfig(table)
          .foreignKeys.map((fk) => fk.reference())
          .find((ref) => ref.columns.some((one) => one.name === column.name));
        if (!reference || key === 'id') return uuidv7();
        try {
          return (await world.record(world.entryOfTable(reference.foreignTable), cast.site.B)).id;
        } catch {
          return uuidv7();
        }
      }
      case 'PgText':
      case 'PgVarchar':
        return MARK;
      case 'PgInteger':
        return Number(current ?? 0) + 4242;
      case 'PgBoolean':
        return !(current ?? column.default);
      case 'PgEnumColumn':
        return (column as PgColumn & { enumValues: string[] }).enumValues.find((value) => value !== current && value !== column.default);
      case 'PgTimestamp':
      case 'PgTimestampString':
        return '2001-02-03T04:05:06.000Z';
      case 'PgJsonb':
      case 'PgJson':
        return Array.isArray(current) ? [{ [MARK]: true }] : { [MARK]: true };
      case 'PgArray':
        return (column as PgColumn & { baseColumn: PgColumn }).baseColumn.columnType === 'PgUUID' ? [cast.site.B] : [MARK];
      default:
        throw new Error(`No other value for ${key} (${column.columnType})`);
    }
  }

  it('keeps every field the server owns, from whoever sends it', { timeout: 300_000 }, async () => {
    const problems: string[] = [];
    const all = await writers();
    // Every kind of write is here: the entries' creates and updates, singletons, accounts, the profile, a visitor's submission.
    for (const name of ['POST /api/websites', 'PUT /api/websites/:id', 'POST /api/partners', 'PUT /api/team/members/:websiteId/:memberId', 'PUT /api/profile', 'PUT /api/cms/contact-forms/:websiteId/smtp', 'POST /api/public/forms/:formId/submissions']) {
      expect(all.map((writer) => routeName(writer.route)), name).toContain(name);
    }
    for (const writer of all) {
      figures.routes += 1;
      const { route, table, caller } = writer;
      const columns = getTableColumns(table) as Record<string, PgColumn>;
      const owned = Object.keys(columns).filter((key) => !writer.writable.has(key));
      for (const key of [...owned, ...writer.shown]) {
        figures.fields += 1;
        if (caller.kind === 'key') await keepKey(test.store, caller as Principal & { key: string });
        // A fresh record each time a visitor's submission counts against its form's limit.
        const target = await world.target(route, { fresh: caller.kind === 'key' });
        const before = writer.row && (await writer.row(target));
        const column = columns[key];
        const sent = column ? await foreign(table, key, column, before?.[key] ?? (column.hasDefault ? column.default : undefined)) : MARK;
        const body = { ...(await writer.base()), [key]: sent, ...(column && column.name !== key ? { [column.name]: sent } : {}) };
        const headers = { ...caller.headers, ...(before && 'version' in before ? { 'if-match': `"${before.version}"` } : {}) };
        const res = await test.app.inject({ method: route.method as 'POST', url: target.url, headers, payload: body });
        const said = `${routeName(route)} as ${caller.name} with ${key}=${JSON.stringify(sent)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
        if (res.statusCode !== (writer.creates ? 201 : 200)) {
          problems.push(said);
          continue;
        }
        const answer = res.json().data as Record<string, unknown>;
        if (!column) {
          if (same(answer[key], sent)) problems.push(`${said}: the answer shows it`);
          continue;
        }
        const id = writer.creates ? String(answer._id ?? answer.id) : before!.id;
        const after = await rowById(table, id);
        if (!after) problems.push(`${said}: the row is gone from its id`);
        else if (writer.creates && same(after[key], sent)) problems.push(`${said}: stored`);
        else if (!writer.creates && key === 'version' && after.version !== (before!.version as number) + 1) problems.push(`${said}: version ${String(after.version)}`);
        else if (!writer.creates && key === 'updatedAt' && same(after[key], sent)) problems.push(`${said}: stored`);
        else if (!writer.creates && key !== 'version' && key !== 'updatedAt' && !same(after[key], before![key])) problems.push(`${said}: changed to ${JSON.stringify(after[key])}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
