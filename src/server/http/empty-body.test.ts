// @vitest-environment node
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryMailer, testAppConfig } from '../../../tests/support/app';
import { bearer, tokenFor } from '../../../tests/support/auth';
import { seedCast, type Cast } from '../../../tests/support/cast';
import { startMailCatcher, type MailCatcher } from '../../../tests/support/mail-catcher';
import { createTestStore, storeKinds } from '../../../tests/support/store';
import { messages } from '../../contract/messages';
import { buildApp } from '../app';

/*
 * Issue 17, defect 12: spec §7's client sends a JSON content type only with a body, so every call
 * the spec lists without a payload arrives with no body and no content type, and must work so.
 */

describe.each(storeKinds)('calls without a payload (%s)', (kind) => {
  let app: Awaited<ReturnType<typeof buildApp>>;
  let cast: Cast;
  let store: Awaited<ReturnType<typeof createTestStore>>;
  let mail: MailCatcher;
  const mailer = memoryMailer();

  beforeAll(async () => {
    mail = await startMailCatcher();
    store = await createTestStore(kind);
    // The SMTP test mails through the website's own server: this one listens on loopback.
    app = await buildApp({ config: testAppConfig({ smtpAllowPrivate: true }), store, mailer, logger: false });
    cast = await seedCast(store);
  });
  afterAll(async () => {
    await app.close();
    await mail.close();
  });

  /** A call as the spec's client makes it without a payload: neither a body nor a content type. */
  const bare = async (who: keyof Cast['headers'], method: 'POST' | 'PATCH' | 'DELETE', url: string, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method, url, headers: { ...cast.headers[who], ...headers } });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return { status: res.statusCode, body: res.json() as { success: boolean; data?: Record<string, unknown>; message: string } };
  };

  it('makes, switches and deletes an API key', async () => {
    const made = await bare('ownerA', 'POST', `/api/websites/${cast.site.A}/api-key`);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({ isActive: true, version: 1, key: expect.stringMatching(/^skp_/) });
    const off = await bare('ownerA', 'PATCH', `/api/websites/${cast.site.A}/api-key/toggle`, { 'if-match': '"1"' });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ isActive: false, version: 2 });
    expect((await bare('ownerA', 'DELETE', `/api/websites/${cast.site.A}/api-key`, { 'if-match': '"2"' })).status).toBe(200);
  });

  it('makes a website’s SEO record with its defaults, while a page still needs its fields', async () => {
    const made = await bare('ownerA', 'POST', `/api/seo/website/${cast.site.A}`);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(made.body.data).toMatchObject({ version: 1 });
    const page = await bare('ownerA', 'POST', `/api/cms/pages/${cast.site.A}`);
    expect(page.status).toBe(400);
    expect(page.body).toMatchObject({ message: messages.validationFailed.message, errors: [{ path: 'body', message: messages.required.message }] });
  });

  it('tests the saved SMTP settings, mailing the caller', async () => {
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/cms/contact-forms/${cast.site.A}/smtp`,
      payload: { host: '127.0.0.1', port: Number(new URL(mail.url).port), security: 'none', fromEmail: 'site@example.test' },
      headers: cast.headers.ownerA,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    const tested = await bare('ownerA', 'POST', `/api/cms/contact-forms/${cast.site.A}/smtp/test`);
    expect(tested.status, JSON.stringify(tested.body)).toBe(200);
    expect(tested.body.data).toEqual({ to: 'owner-a@example.test' });
    expect((await mail.nextMail('owner-a@example.test')).raw).toContain('Site A');
  });

  it('adds the default allergens and cleans up the dishes’ allergens', async () => {
    const added = await bare('ownerA', 'POST', `/api/cms/gastro-menus/${cast.site.A}/allergens/default`);
    expect(added.status, JSON.stringify(added.body)).toBeLessThan(300);
    expect(added.body.message).toBe('14 allergens added');
    const cleaned = await bare('ownerA', 'POST', `/api/cms/gastro-menus/${cast.site.A}/items/cleanup-allergens`);
    expect(cleaned.status, JSON.stringify(cleaned.body)).toBe(200);
    expect(cleaned.body.data).toEqual({ changed: 0, items: [] });
  });

  it('mails a user a reset, and signs out', async () => {
    const reset = await bare('admin', 'POST', `/api/users/${cast.ids.ownerB}/reset-password`);
    expect(reset.status, JSON.stringify(reset.body)).toBe(200);
    expect(mailer.sent.at(-1)?.to).toBe('owner-b@example.test');
    const session = bearer(await tokenFor(store, cast.ids.ownerB));
    const out = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: session });
    expect(out.statusCode, out.body).toBe(200);
    expect((await app.inject({ url: '/api/profile', headers: session })).statusCode).toBe(401);
  });
});
