// @vitest-environment node
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { memoryMailer, testAppConfig } from '../../../tests/support/app';
import { data, seedCast, sender, type Cast } from '../../../tests/support/cast';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { webhookMessages } from '../../contract/resources/webhooks';
import { buildApp } from '../app';
import { decryptSecret } from '../auth/encryption';
import type { Store } from '../store/open';
import { revisions, webhookDeliveries, webhookEvents, webhooks } from '../store/schema';
import { DEFAULT_TIMING } from '../webhooks/sender';

/*
 * ADR 026 on PGlite and PostgreSQL: a real HTTP receiver on this machine (the installation allows
 * private addresses here) checks every request with the Standard Webhooks library; each change is
 * told once, even with two servers sending from one database; a receiver's outage is retried until
 * it is back, and a day of failures switches the webhook off and mails the owner. Without that
 * allowance, private addresses are refused as saved and, behind a name, as sent.
 */

const SECRET = testAppConfig().appSecret;
const HOUR = 3600_000;

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  /** What the library read from it; null when the signature did not verify. */
  event: { type: string; data: Record<string, unknown> } | null;
}

/** A receiver that verifies every request with the webhook's secret, and answers `status`. */
async function startReceiver() {
  const received: Received[] = [];
  let secret = '';
  let status = 204;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let event: Received['event'] = null;
      try {
        event = new Webhook(secret).verify(body, request.headers as Record<string, string>) as Received['event'];
      } catch {
        event = null;
      }
      received.push({ headers: request.headers, body, event });
      response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    received,
    useSecret: (value: string) => void (secret = value),
    answer: (code: number) => void (status = code),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Waits until `check` holds (the sender works in the background), or fails after a while. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const hooksOf = (site: string) => `/api/websites/${site}/webhooks`;

describe.each(storeKinds)('webhooks (%s)', (kind) => {
  let store: Store;
  let app: FastifyInstance;
  /** A second server on the same database: both senders run, as with several instances. */
  let second: FastifyInstance;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  let receiver: Receiver;
  const mailer = memoryMailer();
  /** The servers' clock runs this far ahead of the wall clock: a test moves it past a retry. */
  let ahead = 0;
  let hookId = '';
  let hookVersion = 1;

  const build = (with_: Store) =>
    buildApp({
      config: testAppConfig({ webhooksAllowPrivate: true }),
      store: with_,
      mailer,
      logger: false,
      clock: () => new Date(Date.now() + ahead),
      webhookTiming: { intervalMs: 20 },
    });
  const verified = () => receiver.received.filter((request) => request.event);
  const ofType = (type: string) => verified().filter((request) => request.event!.type === type);
  const page = async (body: object) => {
    const res = await send('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'About us', content: '<p>Since 1990</p>', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return data(res) as { _id: string; version: number };
  };
  const hookRow = () => store.db.select().from(webhooks).where(eq(webhooks.id, hookId)).then((rows) => rows[0]!);

  beforeAll(async () => {
    receiver = await startReceiver();
    store = await createTestStore(kind);
    app = await build(store);
    second = await build({ ...store, close: async () => {} });
    await Promise.all([app.ready(), second.ready()]);
    cast = await seedCast(store);
    send = sender(app, () => cast.headers);
  });
  afterAll(async () => {
    await second.close();
    await app.close();
    await receiver.close();
  });
  beforeEach(() => receiver.answer(204));

  it('is made with a secret shown once, kept encrypted, never answered again nor in a revision', async () => {
    const res = await send('ownerA', 'POST', hooksOf(cast.site.A), {
      url: receiver.url,
      events: ['pages.published', 'pages.updated', 'pages.deleted', 'form.submitted', 'gastro.menuChanged'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = data(res) as { _id: string; secret: string; isActive: boolean; version: number };
    expect(made.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(made.isActive).toBe(true);
    hookId = made._id;
    hookVersion = made.version;
    receiver.useSecret(made.secret);

    const read = await send('ownerA', 'GET', `${hooksOf(cast.site.A)}/${hookId}`);
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(made.secret);
    expect(data(read)).not.toHaveProperty('secret');
    const stored = await hookRow();
    expect(stored.secretEncrypted).not.toContain(made.secret.slice(6));
    expect(decryptSecret(SECRET, cast.site.A, stored.secretEncrypted)).toBe(made.secret);
    const history = JSON.stringify(await store.db.select().from(revisions).where(eq(revisions.recordId, hookId)));
    expect(history).not.toContain(stored.secretEncrypted);
    expect(history).not.toContain(made.secret);
  });

  it('tells each change once, signed, as the event it is; a rolled back change tells nothing', async () => {
    const draft = await page({ status: 'draft' });
    const published = await send('ownerA', 'PUT', `/api/cms/pages/${cast.site.A}/${draft._id}`, { status: 'published' }, draft.version);
    expect(published.statusCode, published.body).toBe(200);
    expect((await send('ownerA', 'DELETE', `/api/cms/pages/${cast.site.A}/${draft._id}`, undefined, data(published).version)).statusCode).toBe(200);
    const menu = await send('ownerA', 'POST', `/api/cms/gastro-menus/${cast.site.A}`, { name: 'Lunch' });
    expect(menu.statusCode, menu.body).toBe(201);
    // Not chosen: a post, and what no module holds (the website's API key).
    expect((await send('ownerA', 'POST', `/api/cms/posts/${cast.site.A}`, { title: 'News', content: '<p>x</p>' })).statusCode).toBe(201);
    const key = data(await send('ownerA', 'POST', `/api/websites/${cast.site.A}/api-key`, {})).key as string;
    const form = data(await send('ownerA', 'POST', `/api/cms/contact-forms/${cast.site.A}`, { name: 'Contact', fields: [{ name: 'message', label: 'Message', type: 'textarea' }] }));
    const submitted = await app.inject({ method: 'POST', url: `/api/public/forms/${form._id}/submissions`, headers: { 'x-api-key': key }, payload: { message: 'A table for two' } });
    expect(submitted.statusCode, submitted.body).toBe(201);
    // Rolled back: its revision, and so its event, never was.
    await expect(
      store.db.transaction(async (tx) => {
        await tx.execute(sql`update cms_pages set title = 'Never' where website_id = ${cast.site.A}`);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');

    await until(() => verified().length >= 5, 'five events');
    // Several rounds of both servers later, still each once.
    await pause(300);
    expect(receiver.received.every((request) => request.event), 'every request verifies').toBe(true);
    // Two senders deliver side by side: the order of arrival is not the order of the changes (the version is).
    expect(verified().map((request) => request.event!.type).toSorted()).toEqual(['form.submitted', 'gastro.menuChanged', 'pages.deleted', 'pages.published', 'pages.updated']);
    expect(new Set(verified().map((request) => request.headers['webhook-id'])).size).toBe(5);
    expect(ofType('pages.published')[0]!.event!.data).toEqual({ website: cast.site.A, module: 'pages', entry: 'pages', id: draft._id, action: 'update', version: 2 });
    expect(ofType('form.submitted')[0]!.event!.data).toMatchObject({ module: 'contactForms', entry: 'contactSubmissions', action: 'create' });
    expect(await store.db.select().from(webhookEvents)).toEqual([]);
  });

  it('retries through a receiver’s outage and delivers once when it is back; the log shows every attempt', async () => {
    const before = verified().length;
    receiver.answer(503);
    const made = await page({ status: 'published', title: 'Opening hours' });
    await until(async () => (await store.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.lastStatusCode, 503))).length === 1, 'a failed attempt');
    const [failing] = await store.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.lastStatusCode, 503));
    expect(failing).toMatchObject({ status: 'pending', event: 'pages.published' });
    const tried = receiver.received.length;
    // Not due yet: nothing is sent before its back-off.
    await pause(200);
    expect(receiver.received.length).toBe(tried);

    receiver.answer(200);
    ahead += DEFAULT_TIMING.retryDelay(1);
    await until(() => verified().length === before + 2, 'the retry');
    await pause(200);
    const retried = receiver.received.slice(tried);
    expect(retried).toHaveLength(1);
    expect(retried[0]!.headers['webhook-id']).toBe(failing!.id);
    expect(retried[0]!.event!.data).toMatchObject({ id: made._id });

    const log = await send('memberA', 'GET', `/api/websites/${cast.site.A}/webhook-deliveries?webhookId=${hookId}`);
    expect(log.statusCode, log.body).toBe(200);
    const entry = (data(log) as { _id: string; status: string; attempts: { statusCode: number; durationMs: number }[]; lastStatusCode: number }[]).find((row) => row._id === failing!.id)!;
    expect(entry).toMatchObject({ status: 'delivered', lastStatusCode: 200 });
    expect(entry.attempts.map((attempt) => attempt.statusCode)).toEqual([503, 200]);
    expect(entry.attempts.every((attempt) => attempt.durationMs >= 0)).toBe(true);
    expect(log.body).not.toContain('payload');
  });

  it('sends a test now, and signs with a new secret once one is made', async () => {
    const test = await send('ownerA', 'POST', `${hooksOf(cast.site.A)}/${hookId}/test`);
    expect(test.statusCode, test.body).toBe(200);
    expect(data(test)).toMatchObject({ event: 'webhook.test', status: 'delivered', lastStatusCode: 204 });
    expect(ofType('webhook.test')).toHaveLength(1);

    const renewed = await send('ownerA', 'POST', `${hooksOf(cast.site.A)}/${hookId}/secret`);
    expect(renewed.statusCode, renewed.body).toBe(200);
    const secret = data(renewed).secret as string;
    expect(secret).toMatch(/^whsec_/);
    hookVersion = data(renewed).version;
    expect(renewed.json().message).toBe(webhookMessages.secretRenewed.message);
    // The receiver still knows the old secret: the next request does not verify with it.
    const count = receiver.received.length;
    await send('ownerA', 'POST', `${hooksOf(cast.site.A)}/${hookId}/test`);
    expect(receiver.received.length).toBe(count + 1);
    expect(receiver.received.at(-1)!.event).toBeNull();
    receiver.useSecret(secret);
    await send('ownerA', 'POST', `${hooksOf(cast.site.A)}/${hookId}/test`);
    expect(receiver.received.at(-1)!.event?.type).toBe('webhook.test');
  });

  it('is the website’s settings: its team with the settings flag, nobody of another website', async () => {
    expect((await send('memberA', 'GET', hooksOf(cast.site.A))).statusCode).toBe(200);
    expect((await send('plainA', 'GET', hooksOf(cast.site.A))).statusCode).toBe(403);
    expect((await send('plainA', 'GET', `/api/websites/${cast.site.A}/webhook-deliveries`)).statusCode).toBe(403);
    for (const who of ['ownerB', 'memberB'] as const) {
      expect((await send(who, 'GET', `${hooksOf(cast.site.A)}/${hookId}`)).statusCode).toBe(404);
      expect((await send(who, 'POST', `${hooksOf(cast.site.A)}/${hookId}/test`)).statusCode).toBe(404);
    }
    // A webhook of A named under B's address is unknown there.
    expect((await send('ownerB', 'POST', `${hooksOf(cast.site.B)}/${hookId}/test`)).statusCode).toBe(404);
    expect((await send('ownerB', 'POST', `${hooksOf(cast.site.B)}/${hookId}/secret`)).statusCode).toBe(404);
    expect((await send('ownerB', 'POST', `${hooksOf(cast.site.B)}/not-an-id/test`)).statusCode).toBe(404);
    expect((await send('ownerA', 'POST', hooksOf(cast.site.A), { url: 'ftp://example.com/x', events: [] })).statusCode).toBe(400);
  });

  it('is switched off after a day of failures, and its owner is mailed', async () => {
    receiver.answer(500);
    const mails = mailer.sent.length;
    await page({ status: 'published', title: 'Menu of the day' });
    await until(async () => (await store.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'))).length === 1, 'a pending delivery');
    await until(async () => (await hookRow()).lastStatusCode === 500, 'a failed attempt');
    ahead += 25 * HOUR;
    await until(async () => !(await hookRow()).isActive, 'the webhook switched off');
    const off = await hookRow();
    expect(off.disabledAt).not.toBeNull();
    expect(off.version).toBe(hookVersion + 1);
    expect(await store.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.status, 'pending'))).toEqual([]);
    await until(() => mailer.sent.length === mails + 1, 'the owner’s mail');
    expect(mailer.sent.at(-1)).toMatchObject({ to: 'owner-a@example.test', subject: 'A webhook of Site A was switched off' });
    expect(mailer.sent.at(-1)!.text).toContain(`/websites/${cast.site.A}/webhooks`);
    // Off: a change queues nothing for it.
    await page({ status: 'published', title: 'Closed on Monday' });
    expect(await store.db.select().from(webhookEvents)).toEqual([]);
    // Switched on again by a person: the notice goes.
    const on = await send('ownerA', 'PUT', `${hooksOf(cast.site.A)}/${hookId}`, { isActive: true }, off.version);
    expect(on.statusCode, on.body).toBe(200);
    expect(data(on)).toMatchObject({ isActive: true, disabledAt: null });
  });
});

describe.each(storeKinds)('webhooks to private addresses (%s)', (kind) => {
  let app: FastifyInstance;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  let receiver: Receiver;
  let store: Store;

  beforeAll(async () => {
    receiver = await startReceiver();
    store = await createTestStore(kind);
    app = await buildApp({ config: testAppConfig(), store, mailer: memoryMailer(), logger: false, webhookTiming: { intervalMs: 20 } });
    await app.ready();
    cast = await seedCast(store);
    send = sender(app, () => cast.headers);
  });
  afterAll(async () => {
    await app.close();
    await receiver.close();
  });

  it.each(['http://127.0.0.1/hook', 'http://10.0.0.1/hook', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:8080/hook'])('refuses %s as it is saved', async (url) => {
    const res = await send('ownerA', 'POST', hooksOf(cast.site.A), { url, events: ['pages.published'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual([{ path: 'body.url', message: webhookMessages.addressRefused.message }]);
    const german = await app.inject({ method: 'POST', url: hooksOf(cast.site.A), headers: { ...cast.headers.ownerA, 'accept-language': 'de' }, payload: { url, events: ['pages.published'] } });
    expect(german.statusCode).toBe(400);
  });

  it('refuses a name with a private address as it is sent: logged as refused, no request made', async () => {
    const res = await send('ownerA', 'POST', hooksOf(cast.site.A), { url: `http://localhost:${receiver.port}/hooks`, events: ['pages.published'] });
    expect(res.statusCode, res.body).toBe(201);
    const made = await send('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'About us', content: '<p>x</p>', status: 'published' });
    expect(made.statusCode).toBe(201);
    await until(async () => (await store.db.select().from(webhookDeliveries)).some((row) => row.attempts.length > 0), 'an attempt');
    const [delivery] = await store.db.select().from(webhookDeliveries);
    expect(delivery!.attempts[0]).toMatchObject({ statusCode: null, error: 'refused' });
    expect(delivery!.status).toBe('pending');
    const test = await send('ownerA', 'POST', `${hooksOf(cast.site.A)}/${data(res)._id}/test`);
    expect(data(test)).toMatchObject({ status: 'failed', lastStatusCode: null });
    expect(test.json().message).toBe(webhookMessages.testFailed.message);
    expect(receiver.received).toEqual([]);
  });
});

describe.each(storeKinds)('the webhook sender, woken by a committed change (%s)', (kind) => {
  it('sends at once, though its next round is an hour away', async () => {
    const receiver = await startReceiver();
    const store = await createTestStore(kind);
    const app = await buildApp({ config: testAppConfig({ webhooksAllowPrivate: true }), store, mailer: memoryMailer(), logger: false, webhookTiming: { intervalMs: 3_600_000 } });
    try {
      await app.ready();
      const cast = await seedCast(store);
      const send = sender(app, () => cast.headers);
      const made = await send('ownerA', 'POST', hooksOf(cast.site.A), { url: receiver.url, events: ['pages.updated', 'pages.published'] });
      expect(made.statusCode, made.body).toBe(201);
      receiver.useSecret(data(made).secret as string);
      expect((await send('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`, { title: 'Hours', status: 'published' })).statusCode).toBe(201);
      await until(() => receiver.received.some((request) => request.event?.type === 'pages.published'), 'the event, long before the next round');
    } finally {
      await app.close();
      await receiver.close();
    }
  });
});
