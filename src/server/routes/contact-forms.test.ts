// @vitest-environment node
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMailer, testAppConfig } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { data, seedCast, sender, UNKNOWN_ID, type Cast } from '../../../tests/support/cast';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { seedUser } from '../../../tests/support/users';
import { messages } from '../../contract/messages';
import { buildApp } from '../app';
import { decryptSecret } from '../auth/encryption';
import { translator } from '../http/i18n';
import { formDeliveries, retryDelay } from '../mail/form-deliveries';
import type { Store } from '../store/open';
import { contactSubmissions, smtpSettings } from '../store/schema';

/*
 * Issue 12 on PGlite and PostgreSQL: forms with their fields, the website's SMTP settings (the
 * password encrypted, never answered) and their test through a real in-process SMTP server, the
 * mail template, and a visitor's submission through the delivery API: checked against its form,
 * stored first, mailed through the website's server, kept while that server is down and mailed
 * once when it is back.
 */

const SECRET = testAppConfig().appSecret;
const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'pässwort 1';
const FAILED_TEST = messages.smtpTestFailed.message;

/** A mail server in this process that wants a login (when one is given) and counts who connects. */
async function startMailServer(port = 0) {
  const mails: { to: string[]; raw: string }[] = [];
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        // Soft line breaks and the quoted-printable escapes undone: enough to read the ASCII parts.
        const raw = Buffer.concat(chunks)
          .toString('latin1')
          .replace(/=\r?\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.from(raw, 'latin1').toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as { port: number }).port,
    mails,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
type MailServer = Awaited<ReturnType<typeof startMailServer>>;

const formsOf = (site: string) => `/api/cms/contact-forms/${site}`;
const formPath = (id: string) => `/api/cms/contact-forms/form/${id}`;
const smtpOf = (site: string) => `/api/cms/contact-forms/${site}/smtp`;
const templateOf = (site: string) => `/api/cms/contact-forms/${site}/template`;

/** Waits until `check` holds (the sender works in the background), or fails after a while. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe.each(storeKinds)('contact forms (%s)', (kind) => {
  let store: Store;
  let app: FastifyInstance;
  let cast: Cast;
  let send: ReturnType<typeof sender>;
  let mail: MailServer;
  let viewer: Record<string, string>;
  let key = '';
  let keyB = '';
  /** The app's clock runs this far ahead of the wall clock: a test moves it past a retry. */
  let ahead = 0;
  let visitor = 0;

  /** A submission from a visitor of its own (the limit per visitor is tested on its own). */
  const submit = (formId: string, body: object, { apiKey = key, ip = `198.51.100.${++visitor % 250}`, headers = {} as Record<string, string> } = {}) =>
    app.inject({ method: 'POST', url: `/api/public/forms/${formId}/submissions`, payload: body, remoteAddress: ip, headers: { 'x-api-key': apiKey, ...headers } });
  const smtpBody = (overrides: object = {}) => ({ host: '127.0.0.1', port: mail.port, security: 'none', username: SMTP_USER, password: SMTP_PASSWORD, fromEmail: 'site@example.test', fromName: 'Site A', ...overrides });
  const made = async (body: object, site = cast.site.A) => {
    const res = await send(site === cast.site.A ? 'ownerA' : 'ownerB', 'POST', formsOf(site), body);
    expect(res.statusCode, res.body).toBe(201);
    return data(res) as { _id: string; version: number; fields: { name: string; label: string; type: string }[] };
  };
  const contactForm = () =>
    made({
      name: `Contact ${++visitor}`,
      recipientEmail: 'inbox@example.test',
      fields: [
        { label: 'Name', required: true },
        { label: 'E-Mail', type: 'email', required: true },
        { label: 'Topic', type: 'select', options: ['Booking', 'Other'] },
        { label: 'Guests', type: 'number' },
        { label: 'Message', type: 'textarea', required: true },
        { label: 'Privacy', type: 'checkbox', required: true },
      ],
    });
  const stored = (id: string) => store.db.select().from(contactSubmissions).where(eq(contactSubmissions.id, id)).then((rows) => rows[0]!);
  const pending = () => store.db.select().from(contactSubmissions).where(eq(contactSubmissions.mailStatus, 'pending'));

  beforeAll(async () => {
    mail = await startMailServer();
    store = await createTestStore(kind);
    app = await buildApp({
      config: testAppConfig({ smtpAllowPrivate: true }),
      store,
      mailer: memoryMailer(),
      logger: false,
      clock: () => new Date(Date.now() + ahead),
      formMailRetryMs: 50,
    });
    await app.ready();
    cast = await seedCast(store);
    send = sender(app, () => cast.headers);
    const member = await seedUser(store, {
      type: 'teammember',
      email: 'forms-viewer@example.test',
      username: 'forms-viewer',
      password: 'unused password',
      websiteId: cast.site.A,
      role: { name: 'Forms viewer', permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { contactForms: 'view' } },
    });
    viewer = bearer(await tokenFor(store, member.id));
    for (const [site, who] of [['A', 'ownerA'], ['B', 'ownerB']] as const) {
      const res = await send(who, 'POST', `/api/websites/${cast.site[site]}/api-key`, {});
      expect(res.statusCode, res.body).toBe(201);
      if (site === 'A') key = data(res).key;
      else keyB = data(res).key;
    }
  });
  afterAll(async () => {
    await app.close();
    await mail.close();
  });

  describe('forms', () => {
    it('are made with their fields, named from their labels, read by their own id, changed and deleted', async () => {
      const form = await made({ name: 'Table booking', fields: [{ label: 'Your e-mail', type: 'email', required: true }, { label: 'Your e-mail' }, { name: 'note', label: 'Anything else', type: 'textarea' }] });
      expect(form.fields.map((field) => field.name)).toEqual(['your_e_mail', 'your_e_mail_2', 'note']);
      expect(data(await send('ownerA', 'GET', formPath(form._id)))).toMatchObject({ name: 'Table booking', isActive: true, recipientEmail: '' });
      expect((data(await send('ownerA', 'GET', formsOf(cast.site.A))) as { _id: string }[]).map((row) => row._id)).toContain(form._id);

      const changed = await send('ownerA', 'PUT', formPath(form._id), { name: 'Booking', isActive: false }, form.version);
      expect(changed.statusCode, changed.body).toBe(200);
      expect(data(changed)).toMatchObject({ name: 'Booking', isActive: false, version: 2 });
      expect((await send('ownerA', 'DELETE', formPath(form._id), undefined, 2)).statusCode).toBe(200);
      expect((await send('ownerA', 'GET', formPath(form._id))).statusCode).toBe(404);
    });

    it('refuse a choice without options and two fields of one name, as field errors', async () => {
      const noOptions = await send('ownerA', 'POST', formsOf(cast.site.A), { name: 'F', fields: [{ label: 'Topic', type: 'select' }] });
      expect(noOptions.statusCode).toBe(400);
      expect(noOptions.json().errors[0].path).toMatch(/^body\.fields/);
      const twice = await send('ownerA', 'POST', formsOf(cast.site.A), { name: 'F', fields: [{ name: 'mail', label: 'A' }, { name: 'mail', label: 'B' }] });
      expect(twice.statusCode).toBe(400);
      expect(twice.json().errors[0].path).toBe('body.fields');
    });

    it('are another website’s unknown: a form of A is 404 to B’s owner, and team members need the module', async () => {
      const form = await contactForm();
      for (const method of ['GET', 'PUT', 'DELETE'] as const) expect((await send('ownerB', method, formPath(form._id), { name: 'x' }, 1)).statusCode).toBe(404);
      expect((await send('memberA', 'GET', formPath(form._id))).statusCode).toBe(403);
      expect((await app.inject({ method: 'GET', url: formPath(form._id), headers: viewer })).statusCode).toBe(200);
      expect((await app.inject({ method: 'PUT', url: formPath(form._id), headers: { ...viewer, 'if-match': '"1"' }, payload: { name: 'x' } })).statusCode).toBe(403);
    });
  });

  describe('SMTP settings', () => {
    it('keep the password encrypted and never answer it; an update without it keeps it, an empty one removes it', async () => {
      expect((await send('ownerA', 'GET', smtpOf(cast.site.A))).statusCode).toBe(404);
      // The first save makes them: what they need is asked for as field errors.
      const incomplete = await send('ownerA', 'PUT', smtpOf(cast.site.A), { port: 25 });
      expect(incomplete.statusCode).toBe(400);
      expect(incomplete.json().errors).toEqual([
        { path: 'body.host', message: messages.required.message },
        { path: 'body.fromEmail', message: messages.required.message },
      ]);
      const first = await send('ownerA', 'PUT', smtpOf(cast.site.A), smtpBody());
      expect(first.statusCode, first.body).toBe(201);
      const answers = [first, await send('ownerA', 'GET', smtpOf(cast.site.A)), await app.inject({ method: 'GET', url: smtpOf(cast.site.A), headers: viewer })];
      for (const answer of answers) {
        expect(answer.body).not.toContain(SMTP_PASSWORD);
        expect(answer.body).not.toMatch(/"password/i);
        expect(data(answer)).toMatchObject({ host: '127.0.0.1', username: SMTP_USER, hasPassword: true });
      }
      const [row] = await store.db.select().from(smtpSettings).where(eq(smtpSettings.websiteId, cast.site.A));
      expect(row!.passwordEncrypted).not.toContain(SMTP_PASSWORD);
      expect(decryptSecret(SECRET, cast.site.A, row!.passwordEncrypted!)).toBe(SMTP_PASSWORD);

      const renamed = await send('ownerA', 'PUT', smtpOf(cast.site.A), { fromName: 'Trattoria' }, 1);
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(data(renamed)).toMatchObject({ fromName: 'Trattoria', hasPassword: true });
      const [kept] = await store.db.select().from(smtpSettings).where(eq(smtpSettings.websiteId, cast.site.A));
      expect(kept!.passwordEncrypted).toBe(row!.passwordEncrypted);

      const cleared = await send('ownerA', 'PUT', smtpOf(cast.site.A), { password: '' }, 2);
      expect(data(cleared)).toMatchObject({ hasPassword: false });
      const restored = await send('ownerA', 'PUT', smtpOf(cast.site.A), { password: SMTP_PASSWORD }, 3);
      expect(data(restored)).toMatchObject({ hasPassword: true });
      expect(restored.body).not.toContain(SMTP_PASSWORD);
    });

    it('are changed by those who edit the module only', async () => {
      expect((await app.inject({ method: 'PUT', url: smtpOf(cast.site.A), headers: { ...viewer, 'if-match': '"1"' }, payload: { port: 25 } })).statusCode).toBe(403);
      expect((await app.inject({ method: 'POST', url: `${smtpOf(cast.site.A)}/test`, headers: viewer, payload: {} })).statusCode).toBe(403);
      expect((await send('ownerB', 'GET', smtpOf(cast.site.A))).statusCode).toBe(404);
      expect((await send('ownerB', 'POST', `${smtpOf(cast.site.A)}/test`, {})).statusCode).toBe(404);
    });

    it('are tested by a real mail through them, logged in with the stored password', async () => {
      const before = mail.mails.length;
      const res = await send('ownerA', 'POST', `${smtpOf(cast.site.A)}/test`, { to: 'me@example.test' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe('A test mail was sent to me@example.test.');
      expect(mail.mails.length).toBe(before + 1);
      expect(mail.mails.at(-1)).toMatchObject({ to: ['me@example.test'] });
      expect(mail.mails.at(-1)!.raw).toContain('From: Trattoria <site@example.test>');
      // Without `to`, the mail goes to the caller.
      expect((await send('ownerA', 'POST', `${smtpOf(cast.site.A)}/test`, {})).json().data).toEqual({ to: 'owner-a@example.test' });
    });

    it('answer every failure of the test alike (a wrong password, a closed port, no settings), and only ten tries in ten minutes', async () => {
      const site = cast.site.B;
      expect((await send('ownerB', 'POST', `${smtpOf(site)}/test`, {})).json().message).toBe(messages.smtpNotConfigured.message);
      const saved = await send('ownerB', 'PUT', smtpOf(site), smtpBody({ password: 'wrong password' }));
      expect(saved.statusCode, saved.body).toBe(201);
      const wrong = await send('ownerB', 'POST', `${smtpOf(site)}/test`, {});
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json()).toEqual({ success: false, message: FAILED_TEST });
      const closed = await startMailServer();
      await closed.close();
      expect((await send('ownerB', 'PUT', smtpOf(site), { port: closed.port }, 1)).statusCode).toBe(200);
      const refused = await send('ownerB', 'POST', `${smtpOf(site)}/test`, {});
      expect(refused.statusCode).toBe(422);
      expect(refused.json()).toEqual({ success: false, message: FAILED_TEST });
      expect((await send('ownerB', 'DELETE', smtpOf(site), undefined, 2)).statusCode).toBe(200);
      // Tried too often, a host and port are not scanned through it: ten tries in ten minutes, then 429.
      const tries: number[] = [];
      for (let n = 0; n < 10; n++) tries.push((await send('ownerB', 'POST', `${smtpOf(site)}/test`, {})).statusCode);
      expect(new Set(tries)).toEqual(new Set([400, 429]));
      expect(tries.indexOf(429)).toBe(tries.lastIndexOf(400) + 1);
    });
  });

  it('keeps the mail template per website: none at first, then made and changed', async () => {
    expect((await send('ownerB', 'GET', templateOf(cast.site.B))).statusCode).toBe(404);
    const saved = await send('ownerB', 'PUT', templateOf(cast.site.B), { subject: 'Hi {{name}}', body: '{{fields}}' });
    expect(saved.statusCode, saved.body).toBe(201);
    expect((await send('ownerA', 'GET', templateOf(cast.site.B))).statusCode).toBe(404);
    expect(data(await send('ownerB', 'PUT', templateOf(cast.site.B), { body: 'Thanks' }, 1))).toMatchObject({ subject: 'Hi {{name}}', body: 'Thanks', version: 2 });
  });

  describe('submissions', () => {
    const valid = { name: 'Anna <b>Berg</b>', e_mail: 'anna@example.test', topic: 'Booking', guests: '4', message: 'A table\nfor four', privacy: true, unknown: 'dropped' };

    it('are stored, mailed through the website’s server with its template (values escaped), and listed per form', async () => {
      const template = await send('ownerA', 'PUT', templateOf(cast.site.A), { subject: 'Request from {{name}} ({{form}})', body: 'Topic: {{topic}}\n{{fields}}\n{{unknown}}' });
      expect(template.statusCode, template.body).toBe(201);
      const form = await contactForm();
      const before = mail.mails.length;
      const res = await submit(form._id, valid);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const { id } = res.json().data as { id: string };

      await until(async () => (await stored(id)).mailStatus === 'sent', 'the mail to be sent');
      expect(mail.mails.length).toBe(before + 1);
      const sent = mail.mails.at(-1)!;
      expect(sent.to).toEqual(['inbox@example.test']);
      expect(sent.raw).toContain(`Subject: Request from Anna <b>Berg</b> (${(data(await send('ownerA', 'GET', formPath(form._id))) as { name: string }).name})`);
      expect(sent.raw).toContain('Reply-To: anna@example.test');
      // The HTML part escapes what the visitor typed; the text part keeps it as typed.
      expect(sent.raw).toContain('Anna &#60;b&#62;Berg&#60;/b&#62;');
      expect(sent.raw).not.toMatch(/<b>Berg<\/b><\/td>/);
      expect(sent.raw).toContain('Topic: Booking');
      expect(sent.raw).toContain('Guests: 4');
      expect(sent.raw).not.toContain('dropped');

      const listed = await send('ownerA', 'GET', `${formPath(form._id)}/submissions`);
      expect(listed.statusCode, listed.body).toBe(200);
      expect(data(listed)).toEqual([
        expect.objectContaining({
          _id: id,
          summary: 'anna@example.test',
          mailStatus: 'sent',
          mailAttempts: 1,
          handled: false,
          values: [
            { name: 'name', label: 'Name', value: 'Anna <b>Berg</b>' },
            { name: 'e_mail', label: 'E-Mail', value: 'anna@example.test' },
            { name: 'topic', label: 'Topic', value: 'Booking' },
            { name: 'guests', label: 'Guests', value: 4 },
            { name: 'message', label: 'Message', value: 'A table\nfor four' },
            { name: 'privacy', label: 'Privacy', value: true },
          ],
        }),
      ]);
      expect((await app.inject({ method: 'GET', url: `${formPath(form._id)}/submissions`, headers: viewer })).statusCode).toBe(200);
      expect((await send('ownerB', 'GET', `${formPath(form._id)}/submissions`)).statusCode).toBe(404);
    });

    it('are never made by a signed-in person, marked handled with edit and deleted with manage', async () => {
      const form = await contactForm();
      const { id } = (await submit(form._id, valid)).json().data as { id: string };
      expect((await send('ownerA', 'POST', `${formPath(form._id)}/submissions`, { handled: true })).statusCode).toBe(404);
      const item = `${formPath(form._id)}/submissions/${id}`;
      expect((await app.inject({ method: 'DELETE', url: item, headers: { ...viewer, 'if-match': '"1"' } })).statusCode).toBe(403);
      const handled = await send('ownerA', 'PUT', item, { handled: true, summary: 'forged', mailStatus: 'sent' }, 1);
      expect(handled.statusCode, handled.body).toBe(200);
      expect(data(handled)).toMatchObject({ handled: true, summary: 'anna@example.test' });
      expect((await send('ownerA', 'DELETE', item, undefined, 2)).statusCode).toBe(200);
      expect((await send('ownerA', 'GET', item)).statusCode).toBe(404);
    });

    it('are checked against the form’s fields, with field errors in the visitor’s language, and nothing stored', async () => {
      const form = await contactForm();
      const res = await submit(form._id, { name: '', e_mail: 'not an address', topic: 'Pizza', guests: 'many', message: 'x'.repeat(5001), privacy: false }, { headers: { 'accept-language': 'de' } });
      expect(res.statusCode).toBe(400);
      const de = translator('de');
      expect(res.json()).toEqual({
        success: false,
        message: de(messages.validationFailed),
        errors: [
          { path: 'body.name', message: de(messages.required) },
          { path: 'body.e_mail', message: de(messages.emailFormat) },
          { path: 'body.topic', message: de(messages.invalidValue) },
          { path: 'body.guests', message: de(messages.invalidValue) },
          { path: 'body.message', message: de(messages.tooLong) },
          { path: 'body.privacy', message: de(messages.required) },
        ],
      });
      expect(de(messages.required)).not.toBe(messages.required.message);
      expect(await store.db.select().from(contactSubmissions).where(eq(contactSubmissions.formId, form._id))).toEqual([]);
    });

    it('reach only the key’s own website’s active forms, and a visitor only so often', async () => {
      const form = await contactForm();
      expect((await submit(form._id, valid, { apiKey: keyB })).statusCode).toBe(404);
      expect((await submit(UNKNOWN_ID, valid)).statusCode).toBe(404);
      expect((await submit(form._id, valid, { apiKey: 'skp_not-a-real-key-at-all-000000' })).statusCode).toBe(401);
      const definition = await app.inject({ method: 'GET', url: `/api/public/forms/${form._id}`, headers: { 'x-api-key': key } });
      expect(data(definition).fields.map((field: { name: string }) => field.name)).toEqual(['name', 'e_mail', 'topic', 'guests', 'message', 'privacy']);
      expect((await app.inject({ method: 'GET', url: `/api/public/forms/${form._id}`, headers: { 'x-api-key': keyB } })).statusCode).toBe(404);

      for (let n = 0; n < 5; n++) expect((await submit(form._id, valid, { ip: '203.0.113.9' })).statusCode).toBe(201);
      const sixth = await submit(form._id, valid, { ip: '203.0.113.9' });
      expect(sixth.statusCode).toBe(429);
      expect((await submit(form._id, valid, { ip: '203.0.113.10' })).statusCode).toBe(201);

      const off = await send('ownerA', 'PUT', formPath(form._id), { isActive: false }, form.version);
      expect(off.statusCode).toBe(200);
      expect((await submit(form._id, valid)).statusCode).toBe(404);
    });

    it('may be posted from a website’s own origin (CORS preflight)', async () => {
      const form = await contactForm();
      const preflight = await app.inject({
        method: 'OPTIONS',
        url: `/api/public/forms/${form._id}/submissions`,
        headers: { origin: 'https://restaurant.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-api-key' },
      });
      expect(preflight.statusCode).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');
      expect(String(preflight.headers['access-control-allow-headers']).toLowerCase()).toContain('content-type');
    });

    it('are a call of the delivery API in the OpenAPI document, as is the SMTP test of the admin’s', async () => {
      const document = (await app.inject({ url: '/api/openapi.json' })).json();
      expect(document.paths['/api/public/forms/{formId}/submissions'].post).toMatchObject({ tags: ['public'], security: [{ apiKey: [] }], 'x-policy': 'apiKey' });
      expect(document.paths['/api/public/forms/{formId}'].get).toMatchObject({ tags: ['public'], 'x-policy': 'apiKey' });
      expect(document.paths['/api/cms/contact-forms/{websiteId}/smtp/test'].post).toMatchObject({ operationId: 'testSmtp', tags: ['cms'], 'x-policy': { website: 'contactForms', level: 'edit' } });
      expect(document.paths['/api/cms/contact-forms/form/{formId}/submissions']).not.toHaveProperty('post');
    });

    it('are kept while the mail server is down, and mailed once when it is back', async () => {
      const form = await contactForm();
      // The mails of the tests before have gone: only this one is waiting after the server's fall.
      await until(async () => (await pending()).length === 0, 'earlier mails to go');
      const port = mail.port;
      await mail.close();
      const res = await submit(form._id, valid);
      expect(res.statusCode, res.body).toBe(201);
      const { id } = res.json().data as { id: string };
      await until(async () => (await stored(id)).mailAttempts === 1 && (await stored(id)).claimedUntil === null, 'the first attempt to fail');
      const waiting = await stored(id);
      expect(waiting).toMatchObject({ mailStatus: 'pending', sentAt: null });
      expect(waiting.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + ahead + retryDelay(1) - 5_000);

      mail = await startMailServer(port);
      // Not before its time: the server is back, but the retry is a minute away.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(mail.mails).toHaveLength(0);
      ahead += retryDelay(1) + 1_000;
      await until(async () => (await stored(id)).mailStatus === 'sent', 'the retry to send it');
      // Rounds keep running every 50 ms: the mail still went once.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(mail.mails).toHaveLength(1);
      expect(mail.mails[0]!.to).toEqual(['inbox@example.test']);
      expect(await stored(id)).toMatchObject({ mailStatus: 'sent', mailAttempts: 2 });
    });

    it('go once each however many senders share the store: a claimed mail is its sender’s', async () => {
      const form = await contactForm();
      await until(async () => (await pending()).length === 0, 'earlier mails to go');
      const port = mail.port;
      await mail.close();
      for (let n = 0; n < 8; n++) expect((await submit(form._id, valid)).statusCode).toBe(201);
      await until(async () => (await pending()).every((row) => row.mailAttempts === 1 && row.claimedUntil === null), 'the first attempts to fail');

      mail = await startMailServer(port);
      // Two more instances of the server beside the app's own, all due at once.
      const others = [1, 2].map(() => formDeliveries({ store, clock: () => new Date(Date.now() + ahead), secret: SECRET, allowPrivate: true, log: app.log }));
      ahead += retryDelay(1) + 1_000;
      for (const other of others) other.kick();
      await until(async () => (await pending()).length === 0, 'the mails to go');
      await Promise.all(others.map((other) => other.stop()));
      expect(mail.mails).toHaveLength(8);
    });

    it('go at once, not at their retry, when the mail settings are saved after a failed attempt', async () => {
      const form = await contactForm();
      await until(async () => (await pending()).length === 0, 'earlier mails to go');
      const port = mail.port;
      await mail.close();
      const { id } = (await submit(form._id, valid)).json().data as { id: string };
      await until(async () => (await stored(id)).mailAttempts === 1 && (await stored(id)).claimedUntil === null, 'the first attempt to fail');
      expect((await stored(id)).nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + ahead);

      mail = await startMailServer(port);
      const { version } = data(await send('ownerA', 'GET', smtpOf(cast.site.A))) as { version: number };
      const fixed = await send('ownerA', 'PUT', smtpOf(cast.site.A), { fromName: 'Trattoria Roma' }, version);
      expect(fixed.statusCode, fixed.body).toBe(200);
      await until(async () => (await stored(id)).mailStatus === 'sent', 'the waiting mail to go');
      expect(mail.mails).toHaveLength(1);
      expect(mail.mails[0]!.raw).toContain('From: Trattoria Roma <site@example.test>');
    });

    it('wait for a website without mail settings, and go once settings are saved', async () => {
      const form = await made({ name: 'B form', fields: [{ name: 'email', label: 'Email', type: 'email', required: true }] }, cast.site.B);
      const { id } = (await submit(form._id, { email: 'bob@example.test' }, { apiKey: keyB })).json().data as { id: string };
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await stored(id)).toMatchObject({ mailStatus: 'pending', mailAttempts: 0 });
      const settings = await send('ownerB', 'PUT', smtpOf(cast.site.B), smtpBody({ fromEmail: 'b@example.test' }));
      expect(settings.statusCode, settings.body).toBe(201);
      await until(async () => (await stored(id)).mailStatus === 'sent', 'the waiting mail to go');
      expect(mail.mails.at(-1)!.to).toEqual(['b@example.test']);
      expect(mail.mails.at(-1)!.raw).toContain('Subject: Hi\r\n');
      const rows = await store.db.select().from(contactSubmissions).where(and(eq(contactSubmissions.formId, form._id), eq(contactSubmissions.mailStatus, 'pending')));
      expect(rows).toEqual([]);
    });
  });
});

describe.each(storeKinds)('the SMTP test without SMTP_ALLOW_PRIVATE (%s)', (kind) => {
  let app: FastifyInstance;
  let cast: Cast;
  let mail: MailServer;
  const call = (method: 'PUT' | 'POST', url: string, body: object): Promise<LightMyRequestResponse> =>
    app.inject({ method, url, payload: body, headers: cast.headers.ownerA });

  beforeAll(async () => {
    mail = await startMailServer();
    const store = await createTestStore(kind);
    app = await buildApp({ config: testAppConfig(), store, mailer: memoryMailer(), logger: false });
    cast = await seedCast(store);
  });
  afterAll(async () => {
    await app.close();
    await mail.close();
  });

  it('refuses loopback, private and metadata addresses without connecting, with the same answer as any failure', async () => {
    const smtp = `/api/cms/contact-forms/${cast.site.A}/smtp`;
    const saved = await call('PUT', smtp, { host: '127.0.0.1', port: mail.port, security: 'none', fromEmail: 'site@example.test' });
    expect(saved.statusCode, saved.body).toBe(201);
    let version = 1;
    for (const host of ['127.0.0.1', 'localhost', '10.1.2.3', '169.254.169.254', '::1', 'fd00:ec2::254']) {
      if (host !== '127.0.0.1') expect((await app.inject({ method: 'PUT', url: smtp, payload: { host }, headers: { ...cast.headers.ownerA, 'if-match': `"${version++}"` } })).statusCode).toBe(200);
      const res = await call('POST', `${smtp}/test`, {});
      expect(res.statusCode, host).toBe(422);
      expect(res.json()).toEqual({ success: false, message: FAILED_TEST });
    }
    expect(mail.connections()).toBe(0);
  });
});
