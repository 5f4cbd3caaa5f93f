// @vitest-environment node
import { createParser } from 'eventsource-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, memoryMailer, testAppConfig } from '../../../tests/support/app';
import { seedCast, sender, type Cast } from '../../../tests/support/cast';
import { createPgDatabase, PG_TEMPLATE_ENV, storeKinds } from '../../../tests/support/store';
import { EVENTS_PATH } from '../../contract/live';
import { buildApp } from '../app';
import { openStore, type Store } from '../store/open';

/** What a device hears on the stream: each event's name, id and data, as they come. */
async function listen(url: string, headers: Record<string, string>) {
  const heard: { event: string; id?: string; data: Record<string, unknown> }[] = [];
  const stop = new AbortController();
  const response = await fetch(`${url}${EVENTS_PATH}`, { headers: { accept: 'text/event-stream', ...headers }, signal: stop.signal });
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  // Its head goes out before any onSend hook, with the headers every answer carries.
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  const parser = createParser({ onEvent: ({ event, id, data }) => heard.push({ event: event ?? 'message', id, data: JSON.parse(data) as Record<string, unknown> }) });
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of response.body!) parser.feed(decoder.decode(chunk as Uint8Array, { stream: true }));
  })().catch(() => {});
  return { heard, close: () => stop.abort() };
}

const until = async (check: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return true;
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/*
 * Live updates on PGlite and PostgreSQL, over real HTTP: a change made anywhere reaches each
 * signed-in device that may read it, and no other; a device that comes back hears what it missed.
 */
describe.each(storeKinds)('live updates (%s)', (kind) => {
  let test: Awaited<ReturnType<typeof createTestApp>>;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  let url: string;

  beforeAll(async () => {
    test = await createTestApp({ kind });
    cast = await seedCast(test.store);
    send = sender(test.app, () => cast.headers);
    url = await test.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => test.app.close());

  it('tells every device that may read a change, within a second, and nobody else', async () => {
    const owner = await listen(url, cast.headers.ownerA);
    const member = await listen(url, cast.headers.memberA);
    const stranger = await listen(url, cast.headers.ownerB);
    try {
      const made = await send('memberA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'Lunch' });
      expect(made.statusCode, made.body).toBe(201);
      const page = made.json().data._id as string;
      const heard = (who: typeof owner) => who.heard.filter(({ data }) => data.record === page);
      expect(await until(() => heard(owner).length > 0 && heard(member).length > 0)).toBe(true);
      expect(heard(owner)[0]).toMatchObject({ event: 'change', data: { entries: ['pages'], website: cast.site.A, action: 'create', version: 1 } });

      // A food menu: the member's role has no gastronomy module, so only the owner hears of it.
      const menu = await send('ownerA', 'POST', `/api/cms/gastro-menus/${cast.site.A}`, { name: 'Dinner' });
      expect(menu.statusCode, menu.body).toBe(201);
      const menuId = menu.json().data._id as string;
      expect(await until(() => owner.heard.some(({ data }) => data.record === menuId))).toBe(true);
      await settle();
      expect(member.heard.some(({ data }) => data.record === menuId)).toBe(false);
      expect(stranger.heard.filter(({ event }) => event === 'change')).toEqual([]);
    } finally {
      for (const device of [owner, member, stranger]) device.close();
    }
  });

  it('tells a device that comes back with Last-Event-ID what it missed, and one whose id is gone to read again', async () => {
    const first = await listen(url, cast.headers.ownerA);
    await send('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'Before' });
    expect(await until(() => first.heard.length > 0)).toBe(true);
    const lastId = first.heard.at(-1)!.id!;
    first.close();

    const missed = await send('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'While away' });
    const missedId = missed.json().data._id as string;
    await settle();
    const back = await listen(url, { ...cast.headers.ownerA, 'last-event-id': lastId });
    const lost = await listen(url, { ...cast.headers.ownerA, 'last-event-id': '0195f0b4-0000-7000-8000-000000000000' });
    try {
      expect(await until(() => back.heard.some(({ data }) => data.record === missedId))).toBe(true);
      expect(await until(() => lost.heard.some(({ event }) => event === 'reset'))).toBe(true);
      // Asked as JSON, the route says where the stream stands.
      const position = await test.app.inject({ method: 'GET', url: EVENTS_PATH, headers: cast.headers.ownerA });
      expect(position.json()).toMatchObject({ success: true, data: { lastEventId: expect.any(String) } });
    } finally {
      back.close();
      lost.close();
    }
  });

  it('refuses a stream without a session', async () => {
    const res = await fetch(`${url}${EVENTS_PATH}`, { headers: { accept: 'text/event-stream' } });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ success: false });
  });
});

describe.runIf(storeKinds.includes('postgres'))('live updates across two servers of one PostgreSQL', () => {
  const servers: { app: FastifyInstance; store: Store }[] = [];
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createPgDatabase(process.env[PG_TEMPLATE_ENV]);
    drop = database.drop;
    for (let n = 0; n < 2; n += 1) {
      const store = await openStore({ kind: 'postgres', url: database.url }, async () => {});
      servers.push({ store, app: await buildApp({ config: testAppConfig(), store, mailer: memoryMailer(), logger: false }) });
    }
  });
  afterAll(async () => {
    for (const { app } of servers) await app.close();
    await drop();
  });

  it('a change through one server reaches a device connected to the other', async () => {
    const [one, two] = servers as [(typeof servers)[0], (typeof servers)[0]];
    const cast = await seedCast(one.store);
    const device = await listen(await two.app.listen({ port: 0, host: '127.0.0.1' }), cast.headers.ownerA);
    try {
      const made = await sender(one.app, () => cast.headers)('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'Elsewhere' });
      expect(made.statusCode, made.body).toBe(201);
      expect(await until(() => device.heard.some(({ data }) => data.record === made.json().data._id))).toBe(true);
    } finally {
      device.close();
    }
  });
});
