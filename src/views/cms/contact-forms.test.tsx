import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import { describe, expect, it } from 'vitest';
import { findRoute } from '../../app/routes';
import { contactForms } from '../../contract/resources/contact-forms';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { preloadFieldKinds } from '../resource/field-kinds';
import { ResourceFormPage } from '../resource/resource-form';
import { ResourceListPage } from '../resource/resource-list-page';
import { json, mockedServer } from '../render-screen.test-support';
import { contactFormsScreen, SmtpPage, submissionsScreen } from './contact-forms';

const SITE = '0190a1b2-0000-7000-8000-0000000000f1';
const FORM = '0190a1b2-0000-7000-8000-0000000000f2';
const fetchMock = mockedServer();

const labels = () => screen.getAllByLabelText('Label') as HTMLInputElement[];


describe('contact forms', () => {
  it('are routes of the CMS with a chunk of their own', () => {
    for (const path of [`/cms/${SITE}/forms`, `/cms/${SITE}/forms/new`, `/cms/${SITE}/forms/edit/${FORM}`, `/cms/${SITE}/forms/smtp`, `/cms/${SITE}/forms/template`]) {
      expect(findRoute(path).page?.preload, path).toBeTypeOf('function');
    }
  });

  it('are made with fields added, typed, moved and removed in the fields editor', async () => {
    await preloadFieldKinds(contactFormsScreen.fields);
    const { store, spies } = fakeStore({ contactForms: [] });
    renderResourceScreen(
      <Route path="/cms/:websiteId/forms/new">
        <ResourceFormPage screen={contactFormsScreen} title={msg`New contact form`} id={null} />
      </Route>,
      store,
      { path: `/cms/${SITE}/forms/new` },
    );

    fireEvent.change(await screen.findByLabelText('Name', { selector: 'input[name="name"]' }), { target: { value: 'Booking' } });
    // A new form takes submissions unless switched off.
    expect((screen.getByLabelText('Takes submissions') as HTMLInputElement).checked).toBe(true);
    const add = screen.getByRole('button', { name: 'Add field' });
    for (let n = 0; n < 3; n++) fireEvent.click(add);
    fireEvent.change(labels()[0]!, { target: { value: 'Message' } });
    fireEvent.change(labels()[1]!, { target: { value: 'Topic' } });
    fireEvent.change(labels()[2]!, { target: { value: 'Spare' } });
    const topic = screen.getByRole('group', { name: 'Topic' });
    fireEvent.change(within(topic).getByLabelText('Type'), { target: { value: 'select' } });
    fireEvent.change(within(topic).getByLabelText('Options of a choice'), { target: { value: 'Table, Party' } });
    fireEvent.click(within(topic).getByLabelText('Required'));
    fireEvent.change(within(screen.getByRole('group', { name: 'Message' })).getByLabelText('Type'), { target: { value: 'textarea' } });
    fireEvent.click(screen.getByRole('button', { name: 'Move Topic up' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Spare' }));
    expect(labels().map((input) => input.value)).toEqual(['Topic', 'Message']);
    expect(screen.getByRole('button', { name: 'Move Topic up' })).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(spies.submit).toHaveBeenCalled());
    const [resource, mutation] = spies.submit.mock.calls[0]!;
    expect(resource.name).toBe(contactForms.name);
    expect(mutation).toMatchObject({
      kind: 'create',
      values: {
        name: 'Booking',
        isActive: true,
        recipientEmail: '',
        fields: [
          { label: 'Topic', type: 'select', required: true, options: ['Table', 'Party'], name: '' },
          { label: 'Message', type: 'textarea', required: false, options: [], name: '' },
        ],
      },
    });
  });

  it('list the submissions a form received, which nobody adds by hand, and mark them handled', async () => {
    const submission = row({
      id: '0190a1b2-0000-7000-8000-0000000000f3',
      formId: FORM,
      summary: 'anna@example.test',
      values: [
        { name: 'email', label: 'Email', value: 'anna@example.test' },
        { name: 'privacy', label: 'Privacy', value: true },
      ],
      mailStatus: 'pending',
      mailAttempts: 2,
      handled: false,
      sentAt: null,
    });
    const { store, spies } = fakeStore({ contactSubmissions: [submission] });
    renderResourceScreen(
      <Route path="/cms/:websiteId/forms/edit/:formId">
        <ResourceListPage screen={submissionsScreen} title={msg`Submissions`} />
      </Route>,
      store,
      { path: `/cms/${SITE}/forms/edit/${FORM}` },
    );

    expect(await screen.findByText('Email: anna@example.test · Privacy: ✓')).toBeDefined();
    expect(screen.getByText('Waiting to be mailed (tried 2×)')).toBeDefined();
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
    expect(spies.fetchList.mock.calls[0]![0].paths.list).toBe(`/api/cms/contact-forms/form/${FORM}/submissions`);

    fireEvent.click(screen.getByRole('button', { name: 'Edit anna@example.test' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(await within(dialog).findByLabelText('Handled'));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(spies.submit).toHaveBeenCalled());
    expect(spies.submit.mock.calls[0]![1]).toEqual({ kind: 'update', id: submission.id, values: { handled: true }, baseVersion: 1 });
  });
});

describe('the outgoing mail tab', () => {
  const smtpPath = `/api/cms/contact-forms/${SITE}/smtp`;
  const open = () =>
    renderResourceScreen(
      <Route path="/cms/:websiteId/forms/smtp">
        <SmtpPage title={msg`Outgoing mail`} />
      </Route>,
      fakeStore({}).store,
      { path: `/cms/${SITE}/forms/smtp` },
    );

  it('says a password is saved without showing it, and sends a test mail showing the server’s answer', async () => {
    const saved = { _id: '0190a1b2-0000-7000-8000-0000000000f4', version: 1, createdAt: '2026-01-01T10:00:00Z', updatedAt: '2026-01-01T10:00:00Z', host: 'smtp.example.test', port: 587, security: 'starttls', username: 'mailer', fromEmail: 'site@example.test', fromName: '', hasPassword: true };
    fetchMock.mockImplementation(async (input, init) => {
      if (String(input).endsWith('/smtp/test')) {
        expect(JSON.parse(String(init?.body))).toEqual({ to: 'me@example.test' });
        return json({ success: true, data: { to: 'me@example.test' }, message: 'A test mail was sent to me@example.test.' });
      }
      return json({ success: true, data: saved });
    });
    open();

    expect(await screen.findByText('A password is saved.')).toBeDefined();
    await waitFor(() => expect((screen.getByLabelText('Server') as HTMLInputElement).value).toBe('smtp.example.test'));
    const password = screen.getByLabelText('Password') as HTMLInputElement;
    expect(password.type).toBe('password');
    expect(password.value).toBe('');

    fireEvent.change(screen.getByLabelText('Send to'), { target: { value: 'me@example.test' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send test mail' }));
    expect((await screen.findByRole('status')).textContent).toBe('A test mail was sent to me@example.test.');
    expect(fetchMock.mock.calls.some(([input, init]) => String(input) === `${smtpPath}/test` && init?.method === 'POST')).toBe(true);
  });

  it('opens an empty form before the first save, and shows a failed test as the server says it', async () => {
    fetchMock.mockImplementation(async (input) =>
      String(input).endsWith('/smtp/test')
        ? json({ success: false, message: 'Failed to test SMTP configuration' }, 422)
        : json({ success: false, message: 'Not found' }, 404),
    );
    open();

    await waitFor(() => expect((screen.getByLabelText('Port') as HTMLInputElement).value).toBe('587'));
    expect(screen.queryByText('A password is saved.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Send test mail' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to test SMTP configuration');
  });
});
