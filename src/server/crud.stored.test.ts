// @vitest-environment node
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../tests/support/app';
import { data, seedCast, sender, type Cast } from '../../tests/support/cast';
import { storeKinds } from '../../tests/support/store';
import { messages } from '../contract/messages';
import { uuidv7 } from '../contract/uuid';
import { translator } from './http/i18n';
import { cmsPages, posts } from './store/schema';

/*
 * Issue 17, defect 1: the generic CRUD holds a create or update to the entity's limits as its
 * hooks leave the values (the sanitizer writes `&` as `&amp;` and closes every tag), so a text that
 * grows past its limit is a field error and nothing is written; and a row stored over a limit
 * before that held still lets its list and its record be read.
 */

const RICH_TEXT_LIMIT = 200_000;
const tooLongAsStored = messages.tooLongAsStored.message;

describe.each(storeKinds)('values as they are stored (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  const logged: { level: number; msg: string }[] = [];
  const postsOf = () => `/api/cms/posts/${cast.site.A}`;
  const pagesOf = () => `/api/cms/pages/${cast.site.A}`;
  const stored = async () => ({
    posts: await test.store.db.select({ id: posts.id, content: posts.content, version: posts.version }).from(posts).where(eq(posts.websiteId, cast.site.A)),
    pages: await test.store.db.select({ id: cmsPages.id }).from(cmsPages).where(eq(cmsPages.websiteId, cast.site.A)),
  });

  beforeAll(async () => {
    const stream = { write: (line: string) => void logged.push(JSON.parse(line) as { level: number; msg: string }) };
    test = await createTestApp({ kind, logger: { level: 'error', stream } as never });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
  });
  afterAll(() => test.app.close());

  it.each([
    ['a post of 50,000 ampersands', () => postsOf(), '&'.repeat(50_000)],
    ['a page of 40,000 unclosed bold tags', () => pagesOf(), '<b>'.repeat(40_000)],
  ])('refuses %s, which the sanitizer makes longer than the limit, as a field error, and stores nothing', async (_case, url, content) => {
    expect(content.length).toBeLessThanOrEqual(RICH_TEXT_LIMIT);
    const before = await stored();
    const res = await send('ownerA', 'POST', url(), { title: 'Pasted', content });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json()).toEqual({ success: false, message: tooLongAsStored, errors: [{ path: 'body.content', message: tooLongAsStored }] });
    expect(await stored()).toEqual(before);
    expect((await send('ownerA', 'GET', url())).statusCode).toBe(200);
  });

  it('says so in the caller’s language', async () => {
    const res = await test.app.inject({ method: 'POST', url: postsOf(), payload: { title: 'Eingefügt', content: '&'.repeat(50_000) }, headers: { ...cast.headers.ownerA, 'accept-language': 'de' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(translator('de')(messages.tooLongAsStored));
    expect(res.json().message).not.toBe(tooLongAsStored);
  });

  it('refuses an update that would grow past the limit and keeps the row as it was; one that stays within it is taken', async () => {
    const post = data(await send('ownerA', 'POST', postsOf(), { title: 'Kept', content: '<p>Fish &amp; chips</p>' }));
    const res = await send('ownerA', 'PUT', `${postsOf()}/${post._id}`, { content: '&'.repeat(50_000) }, post.version);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'body.content', message: tooLongAsStored }]);
    expect((await stored()).posts.find((row) => row.id === post._id)).toEqual({ id: post._id, content: '<p>Fish &amp; chips</p>', version: post.version });
    // 39,000 ampersands are 195,000 characters as stored.
    const fits = await send('ownerA', 'PUT', `${postsOf()}/${post._id}`, { content: '&'.repeat(39_000) }, post.version);
    expect(fits.statusCode).toBe(200);
    expect(data(fits).content).toHaveLength(195_000);
  });

  it('answers a list and a record holding a row stored over the limit before it held, and logs it as an error', async () => {
    const id = uuidv7();
    const content = '&amp;'.repeat(50_000);
    await test.store.db.insert(posts).values({ id, websiteId: cast.site.A, title: 'Written long ago', slug: 'written-long-ago', content });
    logged.length = 0;
    const list = await send('ownerA', 'GET', `${postsOf()}?limit=100`);
    expect(list.statusCode).toBe(200);
    const row = (data(list) as { _id: string; content: string }[]).find((one) => one._id === id);
    expect(row?.content).toBe(content);
    expect(list.json().pagination.totalItems).toBe((await stored()).posts.length);
    const one = await send('ownerA', 'GET', `${postsOf()}/${id}`);
    expect(one.statusCode).toBe(200);
    expect(data(one)).toMatchObject({ _id: id, title: 'Written long ago', content });
    expect(logged.filter((line) => line.level >= 50).map((line) => line.msg)).toEqual([expect.stringContaining('does not fit its schema'), expect.stringContaining('does not fit its schema')]);
  });
});
