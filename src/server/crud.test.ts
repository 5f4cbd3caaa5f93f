// @vitest-environment node
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { bearer, tokenFor } from '../../tests/support/auth';
import { storeKinds } from '../../tests/support/store';
import { seedUser } from '../../tests/support/users';
import { messages } from '../contract/messages';
import type { Resource } from '../contract/resource';
import { categories, hosting, languages, subcategories } from '../contract/resources/catalogs';
import { crudResources } from './app';
import { uuidv7 } from '../contract/uuid';
import { translator } from './http/i18n';

const de = translator('de');
const ENTITY_BASE = ['_id', 'createdAt', 'updatedAt', 'version'];
const data = (res: LightMyRequestResponse) => res.json().data;
const itemUrl = (resource: Resource, id: string) => resource.paths.item.replace(':id', id);
const namesOf = (res: LightMyRequestResponse) => res.json().data.map((row: { name: string }) => row.name);

describe.each(storeKinds)('resources over CRUD (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let admin: Record<string, string>;
  let owner: Record<string, string>;
  let serial = 0;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    const seed = (type: 'admin' | 'user', name: string) => seedUser(test.store, { type, email: `${name}@example.test`, username: name, password: 'unused password' });
    admin = bearer(await tokenFor(test.store, (await seed('admin', 'admin')).id));
    owner = bearer(await tokenFor(test.store, (await seed('user', 'owner')).id));
  });
  afterAll(() => test.app.close());

  const send = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options: { payload?: object; headers?: Record<string, string> } = {}) =>
    test.app.inject({ method, url, payload: options.payload, headers: { ...admin, ...options.headers } });

  async function create(resource: Resource, payload: object) {
    const res = await send('POST', resource.paths.list!, { payload });
    expect(res.statusCode, res.body).toBe(201);
    return data(res);
  }
  const category = (name = `Category ${++serial}`) => create(categories, { name });

  /** A valid new entry of each catalog; names are unique per call. */
  async function sample(resource: Resource): Promise<Record<string, unknown>> {
    const n = ++serial;
    switch (resource.name) {
      case 'subcategories':
        return { name: `Sub ${n}`, description: 'Below a category', categoryId: (await category())._id };
      case 'languages':
        return { name: `Language ${n}`, code: `l${String.fromCharCode(97 + (n % 26))}${String.fromCharCode(97 + Math.floor(n / 26) % 26)}`, content: { de: { name: `Sprache ${n}` } } };
      default:
        return { name: `${resource.name} ${n}`, description: 'Something to say' };
    }
  }

  it.each(crudResources.map(([r]) => [r.name, r] as const))('%s: create, read, list, update and delete', async (_name, resource) => {
    const values = await sample(resource);
    const created = await send('POST', resource.paths.list!, { payload: values });
    expect(created.statusCode).toBe(201);
    const entity = data(created);
    expect(Object.keys(entity).toSorted()).toEqual([...ENTITY_BASE, ...Object.keys(resource.fields)].toSorted());
    expect(entity).toMatchObject({ ...values, version: 1 });
    expect(created.json().message).toMatch(/^[A-Z].* created successfully$/);

    const url = itemUrl(resource, entity._id);
    expect(data(await send('GET', url))).toEqual(entity);
    const listed = await send('GET', `${resource.paths.list}?search=${encodeURIComponent(String(values.name))}`);
    expect(listed.json()).toMatchObject({ success: true, data: [entity], pagination: { totalItems: 1 } });

    // A partial update changes what it names and keeps the rest (no field falls back to its default).
    const updated = await send('PUT', url, { payload: { name: `${String(values.name)} renamed` }, headers: { 'if-match': '"1"' } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(data(updated)).toMatchObject({ ...values, name: `${String(values.name)} renamed`, version: 2, createdAt: entity.createdAt });
    expect(updated.headers.etag).toBe('"2"');
    expect(Date.parse(data(updated).updatedAt)).toBeGreaterThanOrEqual(Date.parse(entity.updatedAt));
    expect(data(await send('GET', url)).version).toBe(2);

    const deleted = await send('DELETE', url, { headers: { 'if-match': '2' } });
    expect(deleted.statusCode).toBe(200);
    const label = { categories: 'Category', subcategories: 'Subcategory', types: 'Website type', technologies: 'Technology', hosting: 'Hosting option', languages: 'Language' }[resource.name];
    expect(deleted.json()).toEqual({ success: true, data: { _id: entity._id }, message: `${label} deleted successfully` });
    expect((await send('GET', url)).statusCode).toBe(404);
  });

  it('accepts a client-generated _id once and refuses it when it is taken', async () => {
    const _id = uuidv7();
    expect((await create(categories, { _id, name: 'Made offline' }))._id).toBe(_id);
    const again = await send('POST', '/api/categories', { payload: { _id, name: 'Made offline too' } });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual([{ path: 'body._id', message: messages.valueTaken.message }]);
  });

  it('refuses a stale version with 409 and the current entity, and a missing one with 428', async () => {
    const item = await category();
    const url = `/api/categories/${item._id}`;
    const current = data(await send('PUT', url, { payload: { description: 'changed elsewhere' }, headers: { 'if-match': '"1"' } }));

    const stale = await send('PUT', url, { payload: { name: 'mine' }, headers: { 'if-match': '"1"' } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ success: false, message: 'Someone else changed this category in the meantime.', data: current });
    const staleDelete = await send('DELETE', url, { headers: { 'if-match': '"1"' } });
    expect(staleDelete.statusCode).toBe(409);
    expect(staleDelete.json().data).toEqual(current);

    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await send(method, url, { payload: method === 'PUT' ? { name: 'mine' } : undefined });
      expect(res.statusCode).toBe(428);
      expect(res.json().message).toBe(messages.versionRequired.message);
    }
    expect(data(await send('GET', url))).toEqual(current);
  });

  it('answers 400 with field errors for bad bodies, in the caller’s language', async () => {
    const res = await send('POST', '/api/categories', { payload: { name: '   ', description: 'x'.repeat(1001) } });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([
      { path: 'body.name', message: messages.required.message },
      { path: 'body.description', message: messages.tooLong.message },
    ]);

    const german = await send('POST', '/api/subcategories', { payload: { name: '' }, headers: { 'accept-language': 'de' } });
    expect(german.statusCode).toBe(400);
    expect(german.json().message).toBe(de(messages.validationFailed));
    expect(german.json().errors).toContainEqual({ path: 'body.name', message: de(messages.required) });
    expect(german.json().errors.map((e: { path: string }) => e.path)).toContain('body.categoryId');
    expect(de(messages.required)).not.toBe(messages.required.message);
    // A field left out is required (not Zod's "expected string, received undefined"); one of the wrong type is not.
    const nameless = await send('POST', '/api/categories', { payload: { description: 'x' }, headers: { 'accept-language': 'de' } });
    expect(nameless.json().errors).toEqual([{ path: 'body.name', message: de(messages.required) }]);
    const numbered = await send('POST', '/api/categories', { payload: { name: 5 } });
    expect(numbered.json().errors).toEqual([{ path: 'body.name', message: expect.not.stringMatching(messages.required.message) }]);

    const language = await send('POST', '/api/languages', { payload: { name: 'Klingon', code: 'Klingon!' } });
    expect(language.json().errors).toEqual([{ path: 'body.code', message: messages.languageCodeFormat.message }]);

    // Text PostgreSQL cannot store is the input's fault too: never a 500.
    const nul = [
      send('POST', '/api/categories', { payload: { name: 'a\u0000b' } }),
      send('POST', '/api/languages', { payload: { name: 'Null', code: 'nu', content: { de: { name: 'a\u0000' } } } }),
      send('GET', '/api/categories?search=a%00b'),
    ];
    for (const answer of await Promise.all(nul)) expect(answer.json()).toEqual({ success: false, message: messages.badRequest.message });
  });

  it('refuses a duplicate name in any case, and a duplicate language code, as field errors', async () => {
    const item = await category('Restaurants');
    const dup = await send('POST', '/api/categories', { payload: { name: 'RESTAURANTS' } });
    expect(dup.statusCode).toBe(400);
    expect(dup.json()).toEqual({ success: false, message: messages.valueTaken.message, errors: [{ path: 'body.name', message: messages.valueTaken.message }] });
    const other = await category('Cafés');
    const rename = await send('PUT', `/api/categories/${other._id}`, { payload: { name: 'restaurants' }, headers: { 'if-match': '"1"' } });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().errors[0].path).toBe('body.name');
    expect(data(await send('GET', `/api/categories/${item._id}`)).name).toBe('Restaurants');

    await create(languages, { name: 'Portuguese (Brazil)', code: 'pt-BR' });
    const code = await send('POST', '/api/languages', { payload: { name: 'Brazilian', code: 'pt-BR' } });
    expect(code.json().errors).toEqual([{ path: 'body.code', message: messages.valueTaken.message }]);
  });

  it('keeps subcategory names unique per category only, and refuses an unknown category', async () => {
    const [a, b] = [await category(), await category()];
    await create(subcategories, { name: 'Pizza', categoryId: a._id });
    await create(subcategories, { name: 'Pizza', categoryId: b._id });
    const unknown = await send('POST', '/api/subcategories', { payload: { name: 'Orphan', categoryId: uuidv7() } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual([{ path: 'body.categoryId', message: messages.unknownReference.message }]);
  });

  it('refuses to delete a category its subcategories still use', async () => {
    const parent = await category();
    await create(subcategories, { name: 'Child', categoryId: parent._id });
    const res = await send('DELETE', `/api/categories/${parent._id}`, { headers: { 'if-match': '"1"' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'This category is still in use and cannot be deleted.' });
    expect((await send('GET', `/api/categories/${parent._id}`)).statusCode).toBe(200);
  });

  it('answers 404 for an unknown or malformed id', async () => {
    for (const id of [uuidv7(), 'nope', '1 OR 1=1']) {
      const url = `/api/types/${encodeURIComponent(id)}`;
      expect((await send('GET', url)).statusCode).toBe(404);
      expect((await send('PUT', url, { payload: { name: 'x' }, headers: { 'if-match': '"1"' } })).statusCode).toBe(404);
      expect((await send('DELETE', url, { headers: { 'if-match': '"1"' } })).statusCode).toBe(404);
    }
  });

  it('lets any signed-in user read, only admins write, and nobody in without a session', async () => {
    const item = await category();
    const url = `/api/categories/${item._id}`;
    expect((await send('GET', url, { headers: owner })).statusCode).toBe(200);
    expect((await send('GET', '/api/categories', { headers: owner })).statusCode).toBe(200);
    const writes = [
      send('POST', '/api/categories', { payload: { name: 'Owner was here' }, headers: owner }),
      send('PUT', url, { payload: { name: 'Owner was here' }, headers: { ...owner, 'if-match': '"1"' } }),
      send('DELETE', url, { headers: { ...owner, 'if-match': '"1"' } }),
    ];
    for (const res of await Promise.all(writes)) expect(res.statusCode).toBe(403);
    const anonymous = await test.app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(401);
    expect((await test.app.inject({ method: 'POST', url: '/api/categories', payload: { name: 'x' } })).statusCode).toBe(401);
    expect(data(await send('GET', url))).toEqual(item);
  });

  const list = async (query: string) => (await send('GET', `/api/hosting?${query}`)).json();
  const found = async (query: string) => namesOf(await send('GET', `/api/hosting?${query}`));

  describe('lists', () => {
    const names = ['Alpha Bakery', 'Beta bakery', 'Gamma Butcher', '100% Organic', 'under_score', 'Delta', 'Äther bakery', 'aardvark'];
    beforeAll(async () => {
      for (const name of names) await create(hosting, { name, description: name === 'Delta' ? 'Bakery supplies' : '' });
    });

    it('searches name and description case-insensitively, with % and _ as plain text', async () => {
      expect(await found('search=BAKERY')).toEqual(['Alpha Bakery', 'Äther bakery', 'Beta bakery', 'Delta']);
      expect(await found('search=%25')).toEqual(['100% Organic']);
      expect(await found('search=_')).toEqual(['under_score']);
      expect(await found('search=nothing+like+it')).toEqual([]);
    });

    it('sorts ascending and descending by name and other keys', async () => {
      expect(await found('search=bakery&sortBy=name&sortOrder=desc')).toEqual(['Delta', 'Beta bakery', 'Äther bakery', 'Alpha Bakery']);
      // Alphabetical for people on every database: not capitals first, not umlauts after z.
      const alphabetical = (await found('search=a&sortBy=name&limit=100')).filter((n: string) => names.includes(n));
      expect(alphabetical).toEqual(['100% Organic', 'aardvark', 'Alpha Bakery', 'Äther bakery', 'Beta bakery', 'Delta', 'Gamma Butcher']);
      const byCreation = await found('search=a&sortBy=createdAt&sortOrder=asc&limit=100');
      expect(byCreation.filter((n: string) => names.includes(n))).toEqual(names.filter((n) => /a/i.test(n)));
      const newestFirst = await found('search=a&sortBy=createdAt&sortOrder=desc&limit=100');
      expect(newestFirst).toEqual(byCreation.toReversed());
    });

    it('pages with the numbers a pager needs', async () => {
      const page = await list('search=e&limit=2&page=2&sortBy=name');
      const all = await found('search=e&sortBy=name&limit=100');
      expect(page.pagination).toEqual({ currentPage: 2, totalPages: Math.ceil(all.length / 2), totalItems: all.length, itemsPerPage: 2 });
      expect(page.data.map((h: { name: string }) => h.name)).toEqual(all.slice(2, 4));
      const beyond = await list('search=e&limit=2&page=50');
      expect(beyond.data).toEqual([]);
      expect(beyond.pagination.totalItems).toBe(all.length);
      expect((await list('search=nothing+like+it')).pagination).toEqual({ currentPage: 1, totalPages: 1, totalItems: 0, itemsPerPage: 10 });
    });

    it('filters subcategories by category, and treats empty filters as none', async () => {
      const [a, b] = [await category(), await category()];
      for (const [name, parent] of [['Vegan', a], ['Vegetarian', a], ['Vegas', b]] as const) await create(subcategories, { name, categoryId: parent._id });
      expect(namesOf(await send('GET', `/api/subcategories?categoryId=${a._id}&search=veg`))).toEqual(['Vegan', 'Vegetarian']);
      expect(namesOf(await send('GET', `/api/subcategories?categoryId=${b._id}`))).toEqual(['Vegas']);
      expect(namesOf(await send('GET', '/api/subcategories?categoryId=&search=vega'))).toEqual(['Vegan', 'Vegas']);
    });

    it('refuses a bad query with field errors', async () => {
      const res = await send('GET', '/api/hosting?limit=1000&sortBy=password&categoryId=x');
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.map((e: { path: string }) => e.path).toSorted()).toEqual(['querystring.limit', 'querystring.sortBy']);
      expect((await send('GET', '/api/subcategories?categoryId=x')).json().errors[0].path).toBe('querystring.categoryId');
    });
  });
});
