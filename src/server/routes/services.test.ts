// @vitest-environment node
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { storeKinds } from '../../../tests/support/store';
import { seedPartner, seedUser } from '../../../tests/support/users';
import { MODULE } from '../../contract/modules';
import { translator } from '../http/i18n';
import { services as servicesEntry } from '../../contract/resources/services';
import { quote } from '../services/quote';
import { demoCatalogs } from '../store/demo';
import { partners } from '../store/schema';

const data = (res: LightMyRequestResponse) => res.json().data;

/** A package with a feature and two modules; agencies have their own prices, resellers do not. */
const websitePackage = {
  name: 'Website package',
  content: { de: { name: 'Website-Paket' } },
  description: 'Ten pages',
  type: 'package',
  prices: { standard: 100_000, agency: 80_000 },
  features: [{ key: 'seo', name: { en: 'Search engine setup', de: 'Suchmaschinen-Einrichtung' }, prices: { standard: 20_000, reseller: 15_000 } }],
  modules: [
    { module: 'gastro', prices: { standard: 30_000, agency: 25_000 } },
    { module: 'pages', prices: { standard: 0 } },
  ],
  order: 1,
};

describe.each(storeKinds)('services (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let admin: Record<string, string>;
  let owner: Record<string, string>;
  let ownerId: string;
  let agencyPartner: Record<string, string>;
  let serial = 0;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    const seed = (type: 'admin' | 'user' | 'partner', name: string) =>
      seedUser(test.store, { type, email: `${name}@example.test`, username: name, password: 'unused password' });
    admin = bearer(await tokenFor(test.store, (await seed('admin', 'admin')).id));
    const ownerUser = await seed('user', 'owner');
    ownerId = ownerUser.id;
    owner = bearer(await tokenFor(test.store, ownerId));
    const partnerUser = await seed('partner', 'agency');
    // The partner's oldest active record decides: an inactive reseller one made first does not count.
    const inactive = await seedPartner(test.store, { ownerId: partnerUser.id, name: 'Old reseller', type: 'reseller' });
    await test.store.db.update(partners).set({ status: 'inactive' }).where(eq(partners.id, inactive.id));
    await seedPartner(test.store, { ownerId: partnerUser.id, name: 'Agency GmbH', type: 'agency' });
    agencyPartner = bearer(await tokenFor(test.store, partnerUser.id));
  });
  afterAll(() => test.app.close());

  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Record<string, string>, payload?: object) =>
    test.app.inject({ method, url, headers, payload });

  /** The ids the admin's list shows for `query`. */
  const ids = async (query: string) => data(await call('GET', `/api/services?limit=100&${query}`, admin)).map((row: { _id: string }) => row._id);
  /** A website made by the caller `headers` names. */
  const create = (headers: Record<string, string>, payload: object) => call('POST', '/api/websites', headers, { name: `Site ${++serial}`, ...payload });
  /** A website the owner may not have: refused at its items, with `message`. */
  const refusedItems = async (items: string[], message: string) => {
    const res = await create(owner, { items });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'body.items', message }]);
  };

  /** A service made by the admin; its name is unique per call. */
  async function service(overrides: Record<string, unknown> = {}) {
    const res = await call('POST', '/api/services', admin, { ...websitePackage, name: `${websitePackage.name} ${++serial}`, ...overrides });
    expect(res.statusCode, res.body).toBe(201);
    return data(res) as { _id: string; name: string; version: number };
  }

  it('lets the admin create, read, update and delete a service, with its features, modules and prices', async () => {
    // A form's empty currency is the default one.
    expect(data(await call('POST', '/api/services', admin, { ...websitePackage, name: `Default currency ${++serial}`, currency: '' }))).toMatchObject({ currency: 'EUR' });
    const created = await service({ currency: 'eur' });
    expect(created).toMatchObject({
      ...websitePackage,
      name: created.name,
      currency: 'EUR',
      active: true,
      version: 1,
      features: [{ key: 'seo', name: { en: 'Search engine setup', de: 'Suchmaschinen-Einrichtung' }, prices: { standard: 20_000, reseller: 15_000 } }],
    });
    // No partner type asked for, no price.
    expect(created).not.toHaveProperty('price');

    const read = await call('GET', `/api/services/${created._id}`, owner);
    expect(read.statusCode).toBe(200);
    expect(data(read)).toMatchObject({ _id: created._id, prices: { standard: 100_000, agency: 80_000 } });

    const updated = await call('PUT', `/api/services/${created._id}`, { ...admin, 'if-match': '"1"' }, { prices: { standard: 110_000 }, active: false });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(data(updated)).toMatchObject({ prices: { standard: 110_000 }, active: false, version: 2 });

    const removed = await call('DELETE', `/api/services/${created._id}`, { ...admin, 'if-match': '"2"' });
    expect(removed.statusCode).toBe(200);
    expect((await call('GET', `/api/services/${created._id}`, admin)).statusCode).toBe(404);
  });

  it('lets owners read services but not write them', async () => {
    const created = await service();
    expect((await call('GET', '/api/services', owner)).statusCode).toBe(200);
    expect((await call('POST', '/api/services', owner, { ...websitePackage, name: 'Owner’s own' })).statusCode).toBe(403);
    expect((await call('PUT', `/api/services/${created._id}`, { ...owner, 'if-match': '"1"' }, { prices: { standard: 1 } })).statusCode).toBe(403);
    expect((await call('DELETE', `/api/services/${created._id}`, { ...owner, 'if-match': '"1"' })).statusCode).toBe(403);
    expect((await call('GET', '/api/services/flattened', {})).statusCode).toBe(401);
    expect((await call('GET', `/api/services/${created._id}/price`, {})).statusCode).toBe(401);
    expect(data(await call('GET', `/api/services/${created._id}`, admin))).toMatchObject({ prices: { standard: 100_000 }, version: 1 });
  });

  it('refuses a service without a standard price, with a fractional price, or with a feature key twice', async () => {
    const refused = async (payload: Record<string, unknown>, path: string) => {
      const res = await call('POST', '/api/services', admin, { ...websitePackage, name: `Refused ${++serial}`, ...payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.map((error: { path: string }) => error.path)).toContain(path);
    };
    await refused({ prices: { agency: 100 } }, 'body.prices.standard');
    await refused({ prices: { standard: 49.5 } }, 'body.prices.standard');
    await refused({ features: [websitePackage.features[0], websitePackage.features[0]] }, 'body.features');
    await refused({ modules: [{ module: 'blog', prices: { standard: 1 } }] }, 'body.modules.0.module');
  });

  it('adds each service’s price for ?partnerType to the list, the standard one where the type has none', async () => {
    const created = await service({ type: 'care' });
    const priceIn = async (query: string) => {
      const res = await call('GET', `/api/services?type=care&${query}`, owner);
      expect(res.statusCode, res.body).toBe(200);
      return data(res).find((row: { _id: string }) => row._id === created._id)?.price;
    };
    expect(await priceIn('partnerType=agency')).toBe(80_000);
    expect(await priceIn('partnerType=reseller')).toBe(100_000);
    expect(await priceIn('partnerType=standard')).toBe(100_000);
    expect(await priceIn('')).toBeUndefined();
    expect((await call('GET', '/api/services?partnerType=gold', owner)).statusCode).toBe(400);
  });

  it('filters the list by type and by whether a service is offered', async () => {
    const hosting = await service({ type: 'hosting', active: false });
    expect(await ids('type=hosting')).toEqual([hosting._id]);
    expect(await ids('active=false')).toEqual([hosting._id]);
    expect(await ids('active=true')).not.toContain(hosting._id);
  });

  it('answers a service’s price for a partner type, falling back to the standard price', async () => {
    const created = await service();
    const price = async (query: string) => {
      const res = await call('GET', `/api/services/${created._id}/price${query}`, owner);
      expect(res.statusCode, res.body).toBe(200);
      return data(res);
    };
    expect(await price('?partnerType=agency')).toEqual({ serviceId: created._id, partnerType: 'agency', price: 80_000, currency: 'EUR' });
    expect(await price('?partnerType=reseller')).toEqual({ serviceId: created._id, partnerType: 'reseller', price: 100_000, currency: 'EUR' });
    expect(await price('')).toEqual({ serviceId: created._id, partnerType: 'standard', price: 100_000, currency: 'EUR' });
    expect((await call('GET', `/api/services/${created._id}/price?partnerType=gold`, owner)).statusCode).toBe(400);
    expect((await call('GET', '/api/services/0195f0b4-0000-7000-8000-000000000000/price', owner)).statusCode).toBe(404);
    expect((await call('GET', '/api/services/not-a-uuid/price', owner)).statusCode).toBe(404);
  });

  describe('flattened', () => {
    let offered: { _id: string; name: string };
    let hidden: { _id: string };
    beforeAll(async () => {
      offered = await service({ order: 0 });
      hidden = await service({ order: 0, active: false });
    });
    const rows = async (path: string, query = '') => {
      const res = await call('GET', `/api/services/flattened${path}${query}`, owner);
      expect(res.statusCode, res.body).toBe(200);
      const all = data(res) as { serviceId: string; name: string }[];
      expect(all.some((row) => row.serviceId === hidden._id)).toBe(false);
      return all.filter((row) => row.serviceId === offered._id);
    };

    it('lists the active services as items, in English and standard prices by default', async () => {
      expect(await rows('')).toEqual([
        {
          id: offered._id,
          serviceId: offered._id,
          serviceName: offered.name,
          serviceType: 'package',
          kind: 'service',
          key: '',
          name: offered.name,
          description: 'Ten pages',
          price: 100_000,
          currency: 'EUR',
        },
      ]);
      expect((await rows('', '?partnerType=agency&language=de'))[0]).toMatchObject({ name: 'Website-Paket', serviceName: 'Website-Paket', price: 80_000 });
    });

    it('lists the features in the asked language, priced for the asked partner type', async () => {
      expect(await rows('/features')).toEqual([
        expect.objectContaining({ id: `${offered._id}:feature:seo`, kind: 'feature', key: 'seo', name: 'Search engine setup', serviceName: offered.name, price: 20_000 }),
      ]);
      expect(await rows('/features', '?language=de&partnerType=reseller')).toEqual([
        expect.objectContaining({ name: 'Suchmaschinen-Einrichtung', serviceName: 'Website-Paket', price: 15_000, description: '' }),
      ]);
      expect((await call('GET', '/api/services/flattened/features?language=fr', owner)).statusCode).toBe(400);
    });

    it('lists the modules under our own names for them, in the asked language', async () => {
      expect(await rows('/modules', '?partnerType=agency')).toEqual([
        expect.objectContaining({ id: `${offered._id}:module:gastro`, kind: 'module', key: 'gastro', name: 'Gastronomy menus', price: 25_000 }),
        expect.objectContaining({ id: `${offered._id}:module:pages`, kind: 'module', key: 'pages', name: 'Pages', price: 0 }),
      ]);
      const german = await rows('/modules', '?language=de');
      expect(german.map((row) => row.name)).toEqual([translator('de')(MODULE.gastro.name), translator('de')(MODULE.pages.name)]);
      expect(german[0]).toMatchObject({ serviceName: 'Website-Paket', price: 30_000 });
    });
  });

  describe('websites priced from their items', () => {
    it('prices a partner’s website for the type of their oldest active partner record', async () => {
      const created = await service();
      const items = [created._id, `${created._id}:feature:seo`, `${created._id}:module:gastro`, `${created._id}:module:pages`];
      const res = await create(agencyPartner, { items });
      expect(res.statusCode, res.body).toBe(201);
      // agency: 80,000 + 20,000 (no agency price: standard) + 25,000 + 0
      expect(data(res)).toMatchObject({ items, price: 125_000, currency: 'EUR', modules: ['pages', 'gastro'] });

      const standard = await create(owner, { items });
      expect(data(standard)).toMatchObject({ price: 150_000, modules: ['pages', 'gastro'] });
    });

    it('prices a feature or module without its service on its own, and each item once', async () => {
      const created = await service();
      const res = await create(owner, { items: [`${created._id}:module:gastro`, `${created._id}:module:gastro`] });
      expect(res.statusCode, res.body).toBe(201);
      expect(data(res)).toMatchObject({ price: 30_000, modules: ['gastro'] });
    });

    it('prices again when the items change', async () => {
      const created = await service();
      const website = data(await create(owner, { items: [created._id] }));
      expect(website.price).toBe(100_000);
      const res = await call('PUT', `/api/websites/${website._id}`, { ...owner, 'if-match': '"1"' }, { items: [] });
      expect(res.statusCode, res.body).toBe(200);
      expect(data(res)).toMatchObject({ price: 0, modules: [] });
    });

    it('refuses unknown, inactive and malformed items and items of several currencies, storing nothing', async () => {
      const created = await service();
      const inactive = await service({ active: false });
      const francs = await service({ currency: 'CHF' });
      const unknown = 'This entry does not exist (any more)';
      await refusedItems(['0195f0b4-0000-7000-8000-000000000000'], unknown);
      await refusedItems([inactive._id], unknown);
      await refusedItems([`${created._id}:feature:nope`], unknown);
      await refusedItems([`${created._id}:module:posts`], unknown);
      await refusedItems([`${created._id}:module:gastro:extra`], unknown);
      await refusedItems(['not an item'], unknown);
      await refusedItems([created._id, francs._id], 'These services are priced in different currencies; choose services of one currency.');
      const mine = data(await call('GET', `/api/websites?ownerId=${ownerId}&limit=100`, admin)) as { items: string[] }[];
      expect(mine.some((website) => website.items.includes(inactive._id) || website.items.includes(francs._id))).toBe(false);
    });

    it('quotes nothing for no items, and in the service’s currency otherwise', async () => {
      const francs = await service({ currency: 'CHF' });
      expect(await quote(test.store.db, [], 'standard')).toEqual({ price: 0, currency: 'EUR', modules: [] });
      expect(await quote(test.store.db, [francs._id], 'agency')).toEqual({ price: 80_000, currency: 'CHF', modules: [] });
    });
  });

  it('gives a demo installation services a website can be composed of, the restaurant menus among them', async () => {
    const demo = await createTestApp({ kind });
    try {
      await demo.store.db.transaction((tx) => demoCatalogs(tx));
      const headers = bearer(await tokenFor(demo.store, (await seedUser(demo.store, { type: 'user', email: 'o@example.test', username: 'o', password: 'unused password' })).id));
      const listed = data(await demo.app.inject({ url: '/api/services?limit=100', headers })) as Record<string, unknown>[];
      expect(new Set(listed.map((row) => row.type))).toEqual(new Set(['package', 'addon', 'hosting', 'care']));
      // Each is what an admin could have saved.
      for (const row of listed) expect(servicesEntry.create.safeParse(row).success, String(row.name)).toBe(true);
      const modules = data(await demo.app.inject({ url: '/api/services/flattened/modules', headers })) as { key: string; id: string }[];
      const gastro = modules.find((row) => row.key === 'gastro')!;
      const website = await demo.app.inject({ method: 'POST', url: '/api/websites', headers, payload: { name: 'Trattoria', items: [gastro.id] } });
      expect(data(website)).toMatchObject({ modules: ['gastro'] });
    } finally {
      await demo.app.close();
    }
  });
});
