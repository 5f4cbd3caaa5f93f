// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { bearer, tokenFor } from '../../tests/support/auth';
import { menus, notes, projects, seo, topics } from '../../tests/support/scoped-resources';
import { createScopedTables, menusTable, notesTable, projectsTable, seoTable, topicsTable } from '../../tests/support/scoped-tables';
import { storeKinds } from '../../tests/support/store';
import { seedUser, seedWebsite } from '../../tests/support/users';
import { messages } from '../contract/messages';
import type { RoleInfo } from '../contract/permissions';
import { fillPath as path } from '../contract/resource';
import { uuidv7 } from '../contract/uuid';
import { registerResource, type Row } from './crud';
import { fieldError } from './http/errors';

/*
 * ADR 009, proven: each case of issue 9's list on the test resources of each scope shape, on
 * PGlite and PostgreSQL. A says website A's people, B website B's.
 */

const none = { cms: false, seo: false, team: false, settings: false };
// A website's role names are unique: each role is named for what it grants.
const role = (permissions: Partial<RoleInfo['permissions']>, cmsPermissions: RoleInfo['cmsPermissions']) => ({
  name: JSON.stringify([permissions, cmsPermissions]),
  permissions: { ...none, ...permissions },
  cmsPermissions,
});
const data = (res: LightMyRequestResponse) => res.json().data;
const unknownId = '0195f0b4-0000-7000-8000-000000000000';

describe.each(storeKinds)('scoped resources (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  const who: Record<'admin' | 'ownerA' | 'partnerA' | 'ownerB' | 'editorA' | 'managerA' | 'noSeoA', Record<string, string>> = {} as never;
  const site = { A: '', B: '' };
  const ids = { ownerA: '', partnerA: '', ownerB: '' };
  const deleted: string[] = [];

  beforeAll(async () => {
    test = await createTestApp({ kind });
    const ctx = { store: test.store, clock: () => new Date() };
    registerResource(test.app, ctx, topics, topicsTable);
    registerResource(test.app, ctx, notes, notesTable, {
      async beforeCreate(values, { tx, request, reveal }) {
        // A hook that writes and then refuses: its write must not outlive the refusal.
        await tx.insert(topicsTable).values({ websiteId: request.website!.id, name: `written by ${String(values.title)}` });
        if (values.title === 'refused') throw fieldError('body.title', messages.invalidValue);
        const slug = String(values.title).toLowerCase().replaceAll(' ', '-');
        reveal.receipt = `receipt for ${slug}`;
        return { ...values, slug, secret: typeof values.secret === 'string' ? `sealed:${values.secret}` : null };
      },
      beforeUpdate: (changes) => (typeof changes.title === 'string' ? { ...changes, slug: changes.title.toLowerCase().replaceAll(' ', '-') } : changes),
      afterDelete: (row: Row) => void deleted.push(row.id),
      present: (entity, row) => ({ ...entity, secretSet: row.secret !== null }),
    });
    registerResource(test.app, ctx, menus, menusTable);
    registerResource(test.app, ctx, seo, seoTable);
    registerResource(test.app, ctx, projects, projectsTable);
    await test.app.ready();
    await createScopedTables(test.store);

    const store = test.store;
    const person = (type: 'admin' | 'user' | 'partner', name: string) => seedUser(store, { type, email: `${name}@example.test`, username: name, password: 'unused password' });
    const admin = await person('admin', 'admin');
    const ownerA = await person('user', 'owner-a');
    const partnerA = await person('partner', 'partner-a');
    const ownerB = await person('user', 'owner-b');
    Object.assign(ids, { ownerA: ownerA.id, partnerA: partnerA.id, ownerB: ownerB.id });
    site.A = (await seedWebsite(store, { ownerId: ownerA.id, partnerUserId: partnerA.id })).id;
    site.B = (await seedWebsite(store, { ownerId: ownerB.id })).id;
    const member = (name: string, memberRole: ReturnType<typeof role>) =>
      seedUser(store, { type: 'teammember', email: `${name}@example.test`, username: name, password: 'unused password', websiteId: site.A, role: memberRole });
    const editorA = await member('editor-a', role({ cms: true, seo: true }, { pages: 'edit', posts: 'view', gastro: 'view' }));
    const managerA = await member('manager-a', role({ cms: true, seo: true }, { pages: 'manage', posts: 'manage', gastro: 'manage' }));
    const noSeoA = await member('no-seo-a', role({ cms: true }, { pages: 'manage' }));
    const people = { admin, ownerA, partnerA, ownerB, editorA, managerA, noSeoA };
    for (const [name, user] of Object.entries(people)) who[name as keyof typeof who] = bearer(await tokenFor(store, user.id));
  });
  afterAll(() => test.app.close());
  beforeEach(() => void deleted.splice(0));

  const send = (as: keyof typeof who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, version?: number) =>
    test.app.inject({ method, url, payload, headers: { ...who[as], ...(version ? { 'if-match': `"${version}"` } : {}) } });
  async function made(as: keyof typeof who, url: string, payload: object) {
    const res = await send(as, 'POST', url, payload);
    expect(res.statusCode, res.body).toBe(201);
    return data(res);
  }
  const topicOn = (websiteId: string, name = `Topic ${uuidv7()}`) => made('admin', path(topics.paths.list!, { websiteId }), { name });
  const noteOn = (websiteId: string, title = `Note ${uuidv7()}`) => made('admin', path(notes.paths.list!, { websiteId }), { title });
  const noteCount = async () => (await test.store.db.select({ n: sql<number>`count(*)::int` }).from(notesTable))[0]!.n;

  it('keeps B out of A’s rows through every scope and path: 404, never 200 or 201', async () => {
    const topic = await topicOn(site.A);
    const note = await noteOn(site.A);
    const menu = await made('admin', path(menus.paths.list!, { websiteId: site.A }), { name: 'Lunch' });
    await send('admin', 'PUT', path(seo.paths.item, { id: site.A }), { title: 'A’s title' });
    const tries: [method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string][] = [
      ['GET', path(topics.paths.list!, { websiteId: site.A })],
      ['POST', path(topics.paths.list!, { websiteId: site.A })],
      ['GET', path(topics.paths.item, { websiteId: site.A, topicId: topic._id })],
      ['PUT', path(topics.paths.item, { websiteId: site.A, topicId: topic._id })],
      ['DELETE', path(topics.paths.item, { websiteId: site.A, topicId: topic._id })],
      // A's topic through B's own website path: the row is not B's website's.
      ['GET', path(topics.paths.item, { websiteId: site.B, topicId: topic._id })],
      ['PUT', path(topics.paths.item, { websiteId: site.B, topicId: topic._id })],
      ['DELETE', path(topics.paths.item, { websiteId: site.B, topicId: topic._id })],
      ['GET', path(notes.paths.list!, { websiteId: site.A })],
      ['POST', path(notes.paths.list!, { websiteId: site.A })],
      ['GET', path(notes.paths.item, { noteId: note._id })],
      ['PUT', path(notes.paths.item, { noteId: note._id })],
      ['DELETE', path(notes.paths.item, { noteId: note._id })],
      ['GET', path(menus.paths.item, { menuId: menu._id })],
      ['GET', path(menus.paths.list!, { websiteId: site.A })],
      ['PUT', path(menus.paths.item, { menuId: menu._id })],
      ['GET', path(seo.paths.item, { id: site.A })],
      ['PUT', path(seo.paths.item, { id: site.A })],
      ['DELETE', path(seo.paths.item, { id: site.A })],
    ];
    for (const [method, url] of tries) {
      const res = await send('ownerB', method, url, method === 'POST' || method === 'PUT' ? { name: 'Mine now', title: 'Mine now' } : undefined, 1);
      expect(`${method} ${url} → ${res.statusCode}`).toBe(`${method} ${url} → 404`);
    }
    const [stored] = await test.store.db.select().from(topicsTable).where(eq(topicsTable.id, topic._id));
    expect(stored).toMatchObject({ name: topic.name, version: 1, websiteId: site.A });
  });

  it('lets a module’s view read, edit change, and only manage create and delete', async () => {
    const note = await noteOn(site.A);
    const list = path(notes.paths.list!, { websiteId: site.A });
    const item = path(notes.paths.item, { noteId: note._id });
    expect((await send('editorA', 'GET', list)).statusCode).toBe(200);
    expect((await send('editorA', 'PUT', item, { title: 'Edited' }, 1)).statusCode).toBe(200);
    expect((await send('editorA', 'POST', list, { title: 'Not mine to add' })).statusCode).toBe(403);
    expect((await send('editorA', 'DELETE', item, undefined, 2)).statusCode).toBe(403);
    // posts at view: reading only.
    const topic = await topicOn(site.A);
    expect((await send('editorA', 'GET', path(topics.paths.item, { websiteId: site.A, topicId: topic._id }))).statusCode).toBe(200);
    expect((await send('editorA', 'PUT', path(topics.paths.item, { websiteId: site.A, topicId: topic._id }), { name: 'x' }, 1)).statusCode).toBe(403);
    expect((await send('managerA', 'POST', list, { title: 'Added by the manager' })).statusCode).toBe(201);
    expect((await send('managerA', 'DELETE', item, undefined, 2)).statusCode).toBe(200);
    expect(deleted).toEqual([note._id]);
  });

  it('answers 404 for a child id of another website, even to someone who reaches both', async () => {
    const topicB = await topicOn(site.B);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await send('admin', method, path(topics.paths.item, { websiteId: site.A, topicId: topicB._id }), method === 'PUT' ? { name: 'Moved' } : undefined, 1);
      expect(res.statusCode).toBe(404);
    }
    expect((await test.store.db.select().from(topicsTable).where(eq(topicsTable.id, topicB._id)))[0]).toMatchObject({ name: topicB.name, version: 1 });
  });

  it('refuses a reference to another website’s row as a field error, storing nothing', async () => {
    const topicB = await topicOn(site.B);
    const before = await noteCount();
    const created = await send('admin', 'POST', path(notes.paths.list!, { websiteId: site.A }), { title: 'Crossing', topicId: topicB._id });
    expect(created.statusCode).toBe(400);
    expect(created.json().errors).toEqual([{ path: 'body.topicId', message: 'This entry does not exist (any more)' }]);
    expect(await noteCount()).toBe(before);

    const note = await noteOn(site.A);
    const moved = await send('admin', 'PUT', path(notes.paths.item, { noteId: note._id }), { topicId: topicB._id }, 1);
    expect(moved.statusCode).toBe(400);
    expect((await test.store.db.select().from(notesTable).where(eq(notesTable.id, note._id)))[0]).toMatchObject({ topicId: null, version: 1 });

    // Deleting B's topic touches none of A's notes, since none can point at it.
    const topicA = await topicOn(site.A);
    const kept = await made('admin', path(notes.paths.list!, { websiteId: site.A }), { title: 'Kept', topicId: topicA._id });
    expect((await send('ownerB', 'DELETE', path(topics.paths.item, { websiteId: site.B, topicId: topicB._id }), undefined, 1)).statusCode).toBe(200);
    expect((await send('admin', 'GET', path(notes.paths.item, { noteId: kept._id }))).statusCode).toBe(200);
  });

  it('owns the scope, computed and secret fields: a body cannot set them, an answer never shows a secret', async () => {
    const res = await send('ownerA', 'POST', path(notes.paths.list!, { websiteId: site.A }), {
      title: 'Hello World',
      secret: 'hunter2',
      websiteId: site.B,
      slug: 'chosen-by-client',
      version: 99,
    });
    expect(res.statusCode, res.body).toBe(201);
    const note = data(res);
    expect(note).toMatchObject({ title: 'Hello World', slug: 'hello-world', version: 1, secretSet: true, receipt: 'receipt for hello-world' });
    expect(note).not.toHaveProperty('secret');
    expect(note).not.toHaveProperty('websiteId');
    const [row] = await test.store.db.select().from(notesTable).where(eq(notesTable.id, note._id));
    expect(row).toMatchObject({ websiteId: site.A, secret: 'sealed:hunter2', slug: 'hello-world' });

    const read = data(await send('ownerA', 'GET', path(notes.paths.item, { noteId: note._id })));
    expect(read).not.toHaveProperty('secret');
    expect(read).not.toHaveProperty('receipt');
    expect(read.secretSet).toBe(true);
    const listed = data(await send('ownerA', 'GET', `${path(notes.paths.list!, { websiteId: site.A })}?search=Hello`));
    expect(listed.map((n: object) => Object.keys(n)).flat()).not.toContain('secret');

    const updated = await send('ownerA', 'PUT', path(notes.paths.item, { noteId: note._id }), { title: 'New Title', slug: 'nope', websiteId: site.B }, 1);
    expect(data(updated)).toMatchObject({ title: 'New Title', slug: 'new-title', version: 2 });
    expect((await test.store.db.select().from(notesTable).where(eq(notesTable.id, note._id)))[0]!.websiteId).toBe(site.A);
  });

  it('runs hooks in the request’s transaction: a refusing hook leaves nothing it wrote', async () => {
    const topicsBefore = (await test.store.db.select().from(topicsTable)).length;
    const res = await send('admin', 'POST', path(notes.paths.list!, { websiteId: site.A }), { title: 'refused' });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors[0].path).toBe('body.title');
    expect((await test.store.db.select().from(topicsTable)).length).toBe(topicsBefore);
  });

  it('stamps and protects owner columns: a client-sent ownerId is ignored, an admin must name one', async () => {
    const list = projects.paths.list!;
    const mine = await made('partnerA', list, { name: 'Partner’s', ownerId: ids.ownerB });
    expect(mine.ownerId).toBe(ids.partnerA);
    const project = await made('ownerA', list, { name: 'Owner’s' });
    expect(project.ownerId).toBe(ids.ownerA);
    const hijack = await send('ownerA', 'PUT', `/api/test/projects/${project._id}`, { name: 'Renamed', ownerId: ids.ownerB }, 1);
    expect(data(hijack)).toMatchObject({ name: 'Renamed', ownerId: ids.ownerA });
    expect((await send('ownerA', 'GET', `/api/test/projects/${project._id}`)).statusCode).toBe(200);
    expect((await send('ownerB', 'GET', `/api/test/projects/${project._id}`)).statusCode).toBe(404);

    const nameless = await send('admin', 'POST', list, { name: 'Whose?' });
    expect(nameless.statusCode).toBe(400);
    expect(nameless.json().errors).toEqual([{ path: 'body.ownerId', message: 'This field is required' }]);
    expect((await made('admin', list, { name: 'Given', ownerId: ids.ownerB })).ownerId).toBe(ids.ownerB);
    const moved = await send('admin', 'PUT', `/api/test/projects/${project._id}`, { ownerId: ids.ownerB }, 2);
    expect(data(moved).ownerId).toBe(ids.ownerB);
  });

  it('gives the two-meaning path both meanings: a website’s list, or a record by its id', async () => {
    const lunch = await made('admin', path(menus.paths.list!, { websiteId: site.A }), { name: 'Lunch' });
    await made('admin', path(menus.paths.list!, { websiteId: site.B }), { name: 'Dinner' });
    const asList = await send('editorA', 'GET', `/api/test/menus/${site.A}?limit=100`);
    expect(asList.statusCode).toBe(200);
    expect(asList.json().pagination).toBeDefined();
    expect(data(asList).map((m: { name: string }) => m.name)).toContain('Lunch');
    expect(data(asList).map((m: { name: string }) => m.name)).not.toContain('Dinner');
    const asItem = await send('editorA', 'GET', `/api/test/menus/${lunch._id}`);
    expect(asItem.statusCode).toBe(200);
    expect(data(asItem)).toEqual(lunch);
    expect(asItem.headers.etag).toBe('"1"');
    expect((await send('editorA', 'GET', `/api/test/menus/${unknownId}`)).statusCode).toBe(404);
    expect((await send('editorA', 'PUT', `/api/test/menus/${lunch._id}`, { name: 'Brunch' }, 1)).statusCode).toBe(403);
    expect(data(await send('managerA', 'PUT', `/api/test/menus/${lunch._id}`, { name: 'Brunch' }, 1))).toMatchObject({ name: 'Brunch', version: 2 });
  });

  it('keeps one record per website for a singleton: PUT makes it, If-Match guards it afterwards', async () => {
    const url = path(seo.paths.item, { id: site.B });
    expect((await send('ownerB', 'GET', url)).statusCode).toBe(404);
    const made1 = await send('ownerB', 'PUT', url, { title: 'First' });
    expect(made1.statusCode).toBe(201);
    expect(data(await send('ownerB', 'GET', url))).toMatchObject({ title: 'First', version: 1 });
    expect((await send('ownerB', 'PUT', url, { title: 'No version' })).statusCode).toBe(428);
    expect(data(await send('ownerB', 'PUT', url, { title: 'Second' }, 1))).toMatchObject({ title: 'Second', version: 2 });
    expect((await send('ownerB', 'PUT', url, { title: 'Stale' }, 1)).statusCode).toBe(409);
    // Made a second time (another device's first save): the record there is, as a conflict.
    const twice = await send('ownerB', 'POST', url, { title: 'Also first' });
    expect([twice.statusCode, twice.json().data]).toEqual([409, expect.objectContaining({ title: 'Second', version: 2 })]);
    expect((await test.store.db.select().from(seoTable).where(eq(seoTable.websiteId, site.B))).length).toBe(1);
    expect((await send('ownerB', 'DELETE', url, undefined, 2)).statusCode).toBe(200);
    expect((await send('ownerB', 'GET', url)).statusCode).toBe(404);
    // The seo flag, not a module level, decides for the team.
    const a = path(seo.paths.item, { id: site.A });
    expect((await send('noSeoA', 'GET', a)).statusCode).toBe(403);
    const current = data(await send('editorA', 'GET', a));
    expect((await send('editorA', 'PUT', a, { title: 'By the team' }, current.version)).statusCode).toBe(200);
  });

  it('lists only the ids asked for, within the scope', async () => {
    const one = await topicOn(site.A, 'Picked one');
    const two = await topicOn(site.A, 'Picked two');
    const foreign = await topicOn(site.B, 'Foreign');
    const res = await send('admin', 'GET', `${path(topics.paths.list!, { websiteId: site.A })}?ids=${one._id},${two._id},${foreign._id},junk`);
    expect(data(res).map((t: { name: string }) => t.name).toSorted()).toEqual(['Picked one', 'Picked two']);
  });
});
