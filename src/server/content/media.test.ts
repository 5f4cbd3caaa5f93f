// @vitest-environment node
import { eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from '../../../tests/support/app';
import { data, seedCast, sender, type Cast } from '../../../tests/support/cast';
import { storeKinds } from '../../../tests/support/store';
import { png } from '../../../tests/support/uploads';
import { messages } from '../../contract/messages';
import { uuidv7 } from '../../contract/uuid';
import { REPLAY_HEADER } from '../http/idempotency';
import { media } from '../store/schema';

/*
 * DESIGN §4 for the media library's upload: a photo taken offline is kept on the phone under an
 * id of its own, which a dish saved meanwhile already names, so the upload that makes its record
 * may name that id, as a create may.
 */

/** A multipart body: text fields first, then one PNG, as the app's FormData sends them. */
async function form(fields: Record<string, string>, name = 'file') {
  const boundary = `----chosen${randomUUID().replaceAll('-', '')}`;
  const text = Object.entries(fields).map(([key, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`);
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="dish.png"\r\nContent-Type: image/png\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(text.join('') + head), await png(40, 30), Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

const upload = (site: string) => `/api/cms/media/${site}/upload`;

describe.each(storeKinds)('an upload that names its record’s id (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  const rowsOf = async (site: string) => (await test.store.db.select({ id: media.id }).from(media).where(eq(media.websiteId, site))).map((row) => row.id);

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
  });
  afterAll(() => test.app.close());

  it('makes the record under the id it names', async () => {
    const _id = uuidv7();
    const res = await send('ownerA', 'POST', upload(cast.site.A), await form({ _id, alt: 'Soup' }));
    expect(res.statusCode).toBe(201);
    expect(data(res)).toMatchObject({ _id, alt: 'Soup', version: 1 });
    expect(await rowsOf(cast.site.A)).toContain(_id);
  });

  it('refuses an id that is taken, here or on another website, as a field error, and keeps nothing', async () => {
    const ours = uuidv7();
    const theirs = uuidv7();
    expect((await send('ownerA', 'POST', upload(cast.site.A), await form({ _id: ours }))).statusCode).toBe(201);
    expect((await send('ownerB', 'POST', upload(cast.site.B), await form({ _id: theirs }))).statusCode).toBe(201);
    const before = { A: await rowsOf(cast.site.A), B: await rowsOf(cast.site.B) };
    for (const _id of [ours, theirs]) {
      const res = await send('ownerA', 'POST', upload(cast.site.A), await form({ _id }));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, errors: [{ path: 'body._id', message: messages.valueTaken.message }] });
    }
    expect({ A: await rowsOf(cast.site.A), B: await rowsOf(cast.site.B) }).toEqual(before);
  });

  it('refuses an id that is no UUID, and one on an upload of several files', async () => {
    const before = await rowsOf(cast.site.A);
    const bad = await send('ownerA', 'POST', upload(cast.site.A), await form({ _id: 'dish-1' }));
    expect([bad.statusCode, bad.json().errors]).toEqual([400, [{ path: 'body._id', message: messages.invalidValue.message }]]);
    const several = await send('ownerA', 'POST', `/api/cms/media/${cast.site.A}/upload-multiple`, await form({ _id: uuidv7() }, 'files'));
    expect([several.statusCode, several.json().errors]).toEqual([400, [{ path: 'body._id', message: messages.invalidValue.message }]]);
    expect(await rowsOf(cast.site.A)).toEqual(before);
  });

  it('answers a repeat under the same Idempotency-Key with the first answer, and makes one record', async () => {
    const _id = uuidv7();
    const body = await form({ _id, alt: 'Pasta' });
    const key = { ...body, headers: { ...body.headers, 'idempotency-key': uuidv7() } };
    const first = await send('ownerA', 'POST', upload(cast.site.A), key);
    const again = await send('ownerA', 'POST', upload(cast.site.A), key);
    expect([first.statusCode, again.statusCode, again.body, again.headers[REPLAY_HEADER]]).toEqual([201, 201, first.body, 'true']);
    expect((await rowsOf(cast.site.A)).filter((id) => id === _id)).toHaveLength(1);
  });
});
