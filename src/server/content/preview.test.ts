// @vitest-environment node
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { data, seedCast, sender, type Cast } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { messages } from '../../contract/messages';
import { PREVIEW_TTL_MS } from '../../contract/preview';
import { uuidv7 } from '../../contract/uuid';
import { cmsPages, gastroMenus, idempotencyKeys, posts, websites } from '../store/schema';

/*
 * Draft preview on PGlite and PostgreSQL: whoever may read a draft page, post or food menu gets a
 * link to the website's preview page; the delivery API shows that draft, and only it, to a request
 * carrying the link's token, for an hour. Without the token drafts stay invisible.
 */
describe.each(storeKinds)('draft preview (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  let now = new Date();
  const keys = { A: '', B: '' };
  const ids = { page: '', otherPage: '', post: '', menu: '' };

  const deliver = (url: string, token?: string, key = keys.A) =>
    test.app.inject({ method: 'GET', url, headers: { 'x-api-key': key, ...(token === undefined ? {} : { 'x-preview-token': token }) } });
  const previewOf = async (path: string, who: Parameters<typeof send>[0] = 'ownerA') => {
    const res = await send(who, 'POST', path, {});
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: { url: string | null; token: string; expiresAt: string }; message?: string };
  };

  beforeAll(async () => {
    test = await createTestApp({ kind, clock: () => now });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
    for (const site of ['A', 'B'] as const) keys[site] = data(await send(site === 'A' ? 'ownerA' : 'ownerB', 'POST', `/api/websites/${cast.site[site]}/api-key`, {})).key as string;
    const db = test.store.db;
    const websiteId = cast.site.A;
    [ids.page, ids.otherPage] = (await db.insert(cmsPages).values([
      { websiteId, title: 'Summer menu', slug: 'summer', status: 'draft', content: '<p>Soon</p>' },
      { websiteId, title: 'Winter menu', slug: 'winter', status: 'draft' },
    ]).returning()).map((row) => row.id) as [string, string];
    ids.post = (await db.insert(posts).values({ websiteId, title: 'Opening', slug: 'opening', status: 'draft' }).returning())[0]!.id;
    ids.menu = (await db.insert(gastroMenus).values({ websiteId, name: 'Lunch', status: 'draft' }).returning())[0]!.id;
  });
  afterAll(() => test.app.close());

  it('shows a draft page to a request with its token, and to nobody without it', async () => {
    expect((await deliver('/api/public/pages/summer')).statusCode).toBe(404);
    const { data: preview, message } = await previewOf(`/api/cms/pages/${cast.site.A}/${ids.page}/preview`);
    // No preview address yet: the token alone, and what to do.
    expect(preview.url).toBeNull();
    expect(message).toBe(messages.previewNoAddress.message);
    expect(new Date(preview.expiresAt).getTime() - now.getTime()).toBe(PREVIEW_TTL_MS);

    const shown = await deliver('/api/public/pages/summer', preview.token);
    expect(shown.statusCode, shown.body).toBe(200);
    expect(data(shown)).toMatchObject({ title: 'Summer menu', content: '<p>Soon</p>' });
    expect(shown.headers['cache-control']).toBe('private, no-store');
    // That record alone: another draft page, a draft post, stay hidden under the same token.
    expect((await deliver('/api/public/pages/winter', preview.token)).statusCode).toBe(404);
    expect((await deliver('/api/public/posts/opening', preview.token)).statusCode).toBe(404);
    // Published pages still answer beside it.
    expect((await deliver('/api/public/pages', preview.token)).statusCode).toBe(200);
  });

  it('refuses a token that is forged, of another website, or older than an hour', async () => {
    const { data: preview } = await previewOf(`/api/cms/pages/${cast.site.A}/${ids.page}/preview`);
    const [payload, signature] = preview.token.split('.') as [string, string];
    const forged = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), i: ids.otherPage })).toString('base64url')}.${signature}`;
    for (const [token, key] of [[forged, keys.A], [preview.token, keys.B], ['nonsense', keys.A]] as const) {
      const refused = await deliver('/api/public/pages/winter', token, key);
      expect(refused.statusCode, token).toBe(401);
      expect(refused.json()).toMatchObject({ success: false, message: messages.previewInvalid.message });
    }
    now = new Date(now.getTime() + PREVIEW_TTL_MS + 1000);
    try {
      expect((await deliver('/api/public/pages/summer', preview.token)).statusCode).toBe(401);
    } finally {
      now = new Date();
    }
  });

  it('opens the website’s preview page with the token, type, id and slug; the token is never kept with the answer', async () => {
    await test.store.db.update(websites).set({ previewAddress: 'https://www.trattoria.example/preview' }).where(eq(websites.id, cast.site.A));
    const key = uuidv7();
    const res = await test.app.inject({ method: 'POST', url: `/api/cms/posts/${cast.site.A}/${ids.post}/preview`, headers: { ...cast.headers.ownerA, 'idempotency-key': key } });
    const preview = data(res) as { url: string; token: string };
    const url = new URL(preview.url);
    expect(`${url.origin}${url.pathname}`).toBe('https://www.trattoria.example/preview');
    expect(Object.fromEntries(url.searchParams)).toEqual({ preview: preview.token, type: 'post', id: ids.post, slug: 'opening' });
    expect(data(await deliver('/api/public/posts/opening', preview.token))).toMatchObject({ title: 'Opening' });
    const [kept] = await test.store.db.select({ response: idempotencyKeys.response }).from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
    expect(kept?.response).not.toContain(preview.token);
  });

  it('shows a draft food menu by its id with its token', async () => {
    expect((await deliver(`/api/public/gastro-menus/${ids.menu}`)).statusCode).toBe(404);
    const { data: preview } = await previewOf(`/api/cms/gastro-menus/${ids.menu}/preview`);
    expect(new URL(preview.url!).searchParams.get('type')).toBe('gastroMenu');
    expect(data(await deliver(`/api/public/gastro-menus/${ids.menu}`, preview.token))).toMatchObject({ id: ids.menu, name: 'Lunch' });
    // The list of menus is what the website shows everyone: no draft in it.
    expect(data(await deliver('/api/public/gastro-menus', preview.token))).toEqual([]);
  });

  it('gives a preview only to whoever may read the record', async () => {
    // A team member whose role has pages but not posts; another website's owner; nobody.
    expect((await send('memberA', 'POST', `/api/cms/pages/${cast.site.A}/${ids.page}/preview`, {})).statusCode).toBe(200);
    expect((await send('memberA', 'POST', `/api/cms/posts/${cast.site.A}/${ids.post}/preview`, {})).statusCode).toBe(403);
    expect((await send('ownerB', 'POST', `/api/cms/pages/${cast.site.A}/${ids.page}/preview`, {})).statusCode).toBe(404);
    expect((await send('ownerB', 'POST', `/api/cms/gastro-menus/${ids.menu}/preview`, {})).statusCode).toBe(404);
    expect((await send('anonymous', 'POST', `/api/cms/pages/${cast.site.A}/${ids.page}/preview`, {})).statusCode).toBe(401);
  });
});
