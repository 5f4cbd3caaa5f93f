import { and, eq, getTableColumns, getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { Policy } from '../../src/contract/permissions';
import { fillPath, pathParams, type Resource } from '../../src/contract/resource';
import { uuidv7 } from '../../src/contract/uuid';
import { hashToken } from '../../src/server/auth/secrets';
import type { Store } from '../../src/server/store/open';
import { contactSubmissions, partners, recycleBin, revisions, sessions, users, webhookDeliveries, websites } from '../../src/server/store/schema';
import { tokenFor } from './auth';
import type { Cast } from './cast';
import { routeName, type AppRoute, type Registered } from './routes';
import { multipartFile, png } from './uploads';
import { seedPartner, seedWebsite } from './users';
import { exampleOf, isOptional } from './zod-arbitraries';

/*
 * Real rows for the suites that call every route: a route's path parameters filled with ids of
 * rows of website A (its owner ownerA, its partner record the partner's), each made the way the
 * product makes it (the entry's own create route, as an admin, with the simplest body its schema
 * takes), coherent along the path (an item of the menu the path names). Accounts, websites and
 * partner records a call could damage for the others (delete, suspend) are made fresh.
 */

type Row = Record<string, unknown> & { id: string };
type Headers = Record<string, string>;

/** What a path parameter names: a row of an entry (by its name), a column of it other than its id, and values it needs. */
interface ParamSpec {
  resource: string;
  column?: string;
  values?: Record<string, unknown>;
}

const PUBLISHED = { status: 'published' };
/**
 * Parameters of routes `registerResource` did not make: the row each names. The delivery API
 * shows only what is published, so its rows are.
 */
const CUSTOM_PARAMS: Readonly<Record<string, ParamSpec>> = {
  '/api/websites/client/:id :id': { resource: 'users' },
  '/api/profile/devices/:id :id': { resource: 'sessions' },
  '/api/files/:folder/:name :folder': { resource: 'files', column: 'folder' },
  '/api/files/:folder/:name :name': { resource: 'files', column: 'name' },
  '/api/public/pages/:slug :slug': { resource: 'pages', column: 'slug', values: PUBLISHED },
  '/api/public/posts/:slug :slug': { resource: 'posts', column: 'slug', values: { ...PUBLISHED, publishedAt: '2020-01-01T00:00:00.000Z' } },
  '/api/public/menus/:menuId :menuId': { resource: 'menus' },
  '/api/public/hero-sliders/:sliderId :sliderId': { resource: 'heroSliders' },
  '/api/public/gallery-sliders/:sliderId :sliderId': { resource: 'gallerySliders' },
  '/api/public/media/:mediaId :mediaId': { resource: 'media' },
  '/api/public/gastro-menus/:menuId :menuId': { resource: 'gastroMenus', values: PUBLISHED },
  '/api/public/forms/:formId :formId': { resource: 'contactForms' },
  '/api/public/forms/:formId/submissions :formId': { resource: 'contactForms' },
};

/** What an entry's simplest record needs beyond its schema: a rule of its hooks across fields (a menu item leads somewhere). */
const MAKING: Readonly<Record<string, Record<string, unknown>>> = {
  menuItems: { url: '/example' },
  // A name that never resolves (RFC 6761): "send test" fails at once. Switched off, so the sender
  // makes no deliveries of the world's changes on its own schedule while a refused call is watched.
  webhooks: { url: 'https://hooks.invalid/sitekeeper', events: ['pages.published'], isActive: false },
};

/** Rows a call may end or take away from its owner (a session, an account): each call gets its own. */
const ALWAYS_FRESH = new Set(['sessions', 'users', 'admins', 'teamMembers']);

/** A route's path on website A with real ids, and what the expectations need to know about what it names. */
export interface Target {
  url: string;
  /** The version of the record it names (If-Match), if it names one. */
  version?: number;
  /** The website it names, directly or through a row of it, and the accounts that website belongs to. */
  websiteId?: string;
  websiteOwners?: string[];
  /** The accounts a named website, partner record or session belongs to: everyone else's call is a foreign one. */
  owners?: string[];
  /** The rows it names, by entry. */
  rows: Map<string, Row>;
  /**
   * An entry any of the website's people reach (`members`) shows each only the rows of what they may
   * list: the policy a caller must also pass to find the row this target names (a page's revision: the pages' list).
   */
  seenWith?: Policy;
}

export class World {
  private readonly cache = new Map<string, Row>();
  private serial = 0;
  /** The stored key of website A's preview: `/api/files/…` serves it. */
  private previewKey = '';

  constructor(
    readonly app: FastifyInstance,
    readonly store: Store,
    readonly cast: Cast,
    readonly resources: readonly Registered[],
    /** An admin's headers: rows are made through the API as an admin would make them. */
    private readonly admin: () => Headers,
  ) {}

  /** Website A's preview uploaded, so a stored file exists. */
  async prepare(): Promise<this> {
    const image = multipartFile({ data: await png(8, 8), filename: 'preview.png', contentType: 'image/png' });
    const res = await this.app.inject({ method: 'POST', url: `/api/websites/${this.cast.site.A}/upload-preview`, headers: { ...this.admin(), ...image.headers }, payload: image.payload });
    if (res.statusCode !== 200) throw new Error(`preview upload: ${res.statusCode} ${res.body}`);
    const [site] = await this.store.db.select({ previewKey: websites.previewKey }).from(websites).where(eq(websites.id, this.cast.site.A));
    this.previewKey = site!.previewKey!;
    return this;
  }

  entry(name: string): Registered {
    const found = this.resources.find((registered) => registered.resource.name === name);
    if (!found) throw new Error(`No registered entry ${name}`);
    return found;
  }

  /** A record of the entry on the website: made once, then reused while it exists. */
  record(resource: string, websiteId: string): Promise<Row> {
    return this.rowOf({ resource }, websiteId, new Map(), false);
  }

  entryOfTable(table: PgTable): string {
    const found = this.resources.find((registered) => registered.table === table && !registered.options.rows);
    if (!found) throw new Error(`No entry keeps its rows in ${getTableName(table)}`);
    return found.resource.name;
  }

  /** What a route's `:param` names; a parameter nobody can say fails the suite. */
  paramSpec(route: AppRoute, param: string): ParamSpec {
    const custom = CUSTOM_PARAMS[`${route.url} :${param}`];
    if (custom) return custom;
    if (route.website?.param === param) return { resource: route.website.from === 'path' ? 'websites' : this.entryOfTable(route.website.table) };
    const entry = route.registered?.resource;
    if (entry && param === entry.itemParam) return { resource: entry.name };
    if (entry && param === entry.parent?.param) return { resource: entry.parent.resource };
    if (entry && param === entry.websiteParam) return { resource: 'websites' };
    // An action on a record (`/api/services/:id/price`): the entry whose item path it goes on from.
    const acted = this.resources.find(({ resource }) => resource.itemParam === param && route.url.startsWith(`${resource.paths.item}/`));
    if (acted) return { resource: acted.resource.name };
    throw new Error(`${routeName(route)}: nothing says what :${param} names`);
  }

  /** The route's path with real rows of website A; the record it ends in made anew when `fresh` (a delete takes it). */
  async target(route: AppRoute, { fresh = false } = {}): Promise<Target> {
    const rows = new Map<string, Row>();
    const values: Record<string, string> = {};
    const params = pathParams(route.url);
    let websiteId: string | undefined;
    let owners: string[] | undefined;
    for (const [index, param] of params.entries()) {
      const spec = this.paramSpec(route, param);
      const row = await this.rowOf(spec, this.cast.site.A, rows, fresh && index === params.length - 1);
      rows.set(spec.resource, row);
      values[param] = String(row[spec.column ?? 'id']);
      if (spec.resource === 'websites') websiteId = row.id;
      else if (typeof row.websiteId === 'string') websiteId ??= row.websiteId;
      owners = (await this.ownersOf(spec.resource, row)) ?? owners;
    }
    const url = fillPath(route.url, values).replace('*', 'x');
    const entry = route.registered?.resource;
    const last = params.length > 0 ? rows.get(this.paramSpec(route, params.at(-1)!).resource) : undefined;
    let version = typeof last?.version === 'number' && entry?.itemParam === params.at(-1) ? last.version : undefined;
    if (entry?.singleton) version = (await this.singleton(route.registered!, websiteId)).version as number;
    if (route.url.startsWith('/api/public/')) websiteId = this.cast.site.A;
    const website = websiteId ? await this.exists(websites, websiteId) : undefined;
    const websiteOwners = website && (await this.ownersOf('websites', website));
    // An action on such a row (a recycle bin entry's restore) finds it as the entry's routes do.
    const revised = (entry ? 'members' in entry : true) && typeof last?.tableName === 'string' ? this.resources.find(({ table, options }) => getTableName(table) === last.tableName && !options.rows) : undefined;
    return { url, version, websiteId, websiteOwners, owners, rows, ...(revised && { seenWith: revised.resource.access.list }) };
  }

  /** The accounts whose row this is, for rows that belong to accounts. */
  private async ownersOf(resource: string, row: Row): Promise<string[] | undefined> {
    if (resource === 'sessions') return [row.userId as string];
    if (resource === 'partners') return [row.ownerId as string];
    if (resource !== 'websites') return undefined;
    const [record] = row.partnerId ? await this.store.db.select({ ownerId: partners.ownerId }).from(partners).where(eq(partners.id, row.partnerId as string)) : [];
    return [row.ownerId as string, ...(record ? [record.ownerId] : [])];
  }

  private async exists(table: PgTable, id: string): Promise<Row | undefined> {
    const columns = getTableColumns(table) as Record<string, PgColumn>;
    const [row] = (await this.store.db.select().from(table).where(eq(columns.id!, id))) as Row[];
    return row;
  }

  private async rowOf(spec: ParamSpec, websiteId: string, given: Map<string, Row>, fresh: boolean): Promise<Row> {
    const key = `${spec.resource} ${websiteId} ${JSON.stringify(spec.values ?? {})} ${[...given.values()].map((row) => row.id).join(' ')}`;
    const cached = this.cache.get(key);
    if (!fresh && !ALWAYS_FRESH.has(spec.resource) && cached) {
      const table = spec.resource === 'files' ? null : this.tableOf(spec.resource);
      const still = table ? await this.exists(table, cached.id) : cached;
      if (still) return still;
    }
    const made = await this.make(spec, websiteId, given, fresh);
    if (!fresh) this.cache.set(key, made);
    return made;
  }

  private tableOf(resource: string): PgTable {
    if (resource === 'sessions') return sessions;
    return this.entry(resource).table;
  }

  private async make(spec: ParamSpec, websiteId: string, given: Map<string, Row>, fresh: boolean): Promise<Row> {
    const db = this.store.db;
    const tag = uuidv7();
    switch (spec.resource) {
      case 'files': {
        const [folder, name] = this.previewKey.split('/');
        return { id: this.previewKey, folder, name };
      }
      case 'sessions': {
        const token = await tokenFor(this.store, this.cast.ids.ownerA);
        const [row] = await db.select().from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
        return row as unknown as Row;
      }
      case 'websites':
        if (!fresh) return (await this.exists(websites, websiteId))!;
        return (await seedWebsite(this.store, { ownerId: this.cast.ids.ownerA, partnerUserId: this.cast.ids.partner, name: `Fresh ${tag}` })) as unknown as Row;
      case 'partners': {
        if (fresh) return (await seedPartner(this.store, { ownerId: this.cast.ids.partner, name: `Fresh ${tag}` })) as unknown as Row;
        return (await this.exists(partners, this.cast.partnerRecordA))!;
      }
      // Accounts are never a principal's own: a suspended or deleted one would sign it out of the suite.
      case 'users':
      case 'admins':
      case 'teamMembers': {
        const type = spec.resource === 'admins' ? 'admin' : spec.resource === 'teamMembers' ? 'teammember' : 'user';
        const [row] = await db
          .insert(users)
          .values({ type, email: `${tag}@fresh.example.test`, username: `f-${tag}`, passwordHash: 'not a hash', websiteId: type === 'teammember' ? websiteId : null })
          .returning();
        return row as unknown as Row;
      }
      case 'contactSubmissions': {
        const form = given.get('contactForms') ?? (await this.rowOf({ resource: 'contactForms' }, websiteId, new Map(), false));
        const [row] = await db.insert(contactSubmissions).values({ websiteId, formId: form.id, values: [], summary: `Fresh ${tag}` }).returning();
        return row as unknown as Row;
      }
      // A delivery of a webhook's, as its sender makes one.
      case 'webhookDeliveries': {
        const hook = given.get('webhooks') ?? (await this.rowOf({ resource: 'webhooks' }, websiteId, new Map(), false));
        const [row] = await db.insert(webhookDeliveries).values({ websiteId, webhookId: hook.id, event: 'pages.published', payload: '{}', status: 'delivered' }).returning();
        return row as unknown as Row;
      }
      case 'media': {
        const image = multipartFile({ data: await png(4, 4), filename: `m-${tag}.png`, contentType: 'image/png' });
        const res = await this.app.inject({ method: 'POST', url: `/api/cms/media/${websiteId}/upload`, headers: { ...this.admin(), ...image.headers }, payload: image.payload });
        if (res.statusCode !== 201) throw new Error(`media upload: ${res.statusCode} ${res.body}`);
        return (await this.exists(this.tableOf('media'), res.json().data._id))!;
      }
      // A change in the activity log: a page's creation.
      case 'activity':
      case 'allActivity': {
        const page = await this.rowOf({ resource: 'pages' }, websiteId, new Map(), false);
        const [row] = await db.select().from(revisions).where(and(eq(revisions.tableName, getTableName(this.tableOf('pages'))), eq(revisions.recordId, page.id)));
        return row as unknown as Row;
      }
      // A deleted page in the website's recycle bin, a deleted category in the admin area's.
      case 'recycleBin':
      case 'adminRecycleBin': {
        const deleted = this.entry(spec.resource === 'recycleBin' ? 'pages' : 'categories');
        const record = await this.created(deleted, websiteId, new Map(), {});
        const url = fillPath(deleted.resource.paths.item, { websiteId, [deleted.resource.itemParam!]: record.id });
        const res = await this.app.inject({ method: 'DELETE', url, headers: { ...this.admin(), 'if-match': `"${record.version}"` } });
        if (res.statusCode !== 200) throw new Error(`deleting into the recycle bin: ${res.statusCode} ${res.body}`);
        const [row] = await db.select().from(recycleBin).where(eq(recycleBin.recordId, record.id));
        return row as unknown as Row;
      }
      default:
        return this.created(this.entry(spec.resource), websiteId, given, spec.values ?? {});
    }
  }

  /** A record made by its entry's create route, as an admin, with the simplest body its schema takes. */
  private async created({ resource, table }: Registered, websiteId: string, given: Map<string, Row>, values: Record<string, unknown>): Promise<Row> {
    const params: Record<string, string> = {};
    if (resource.websiteParam) params[resource.websiteParam] = websiteId;
    if (resource.parent) params[resource.parent.param] = (given.get(resource.parent.resource) ?? (await this.rowOf({ resource: resource.parent.resource }, websiteId, given, false))).id;
    const path = fillPath(resource.paths.create ?? resource.paths.list!, params);
    let last = '';
    // A unique field may clash with a row of an earlier run of the same serial: the next one differs.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const body = { ...(await this.example(resource, websiteId)), ...values };
      const res = await this.app.inject({ method: 'POST', url: path, headers: this.admin(), payload: body });
      if (res.statusCode === 201) return (await this.exists(table, res.json().data._id))!;
      last = `${res.statusCode} ${res.body}`;
    }
    throw new Error(`Could not make a ${resource.name} at ${path}: ${last}`);
  }

  /** The simplest create body of an entry: its required fields, references naming rows of the same website. */
  async example(resource: Resource, websiteId: string): Promise<Record<string, unknown>> {
    this.serial += 1;
    const references = new Map<string, string>();
    for (const [field, target] of Object.entries(resource.references ?? {})) {
      if (isOptional(resource.create.shape[field]!)) continue;
      references.set(field, (await this.rowOf({ resource: target! }, websiteId, new Map(), false)).id);
    }
    return { ...(exampleOf(resource.create, { serial: this.serial, idFor: (field) => references.get(field) }) as Record<string, unknown>), ...MAKING[resource.name] };
  }

  /** A singleton's record of the website (made the way its PUT makes it the first time). */
  async singleton({ resource, table }: Registered, websiteId: string | undefined): Promise<Row> {
    const columns = getTableColumns(table) as Record<string, PgColumn>;
    const find = async () => ((await (columns.websiteId ? this.store.db.select().from(table).where(eq(columns.websiteId, websiteId!)) : this.store.db.select().from(table))) as Row[])[0];
    const found = await find();
    if (found) return found;
    const path = fillPath(resource.paths.item, { [resource.websiteParam ?? 'id']: websiteId! });
    const res = await this.app.inject({ method: 'PUT', url: path, headers: this.admin(), payload: await this.example(resource, websiteId!) });
    if (res.statusCode >= 300) throw new Error(`Could not make the ${resource.name} of ${websiteId}: ${res.statusCode} ${res.body}`);
    return (await find())!;
  }
}
