import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import { describe, expect, it } from 'vitest';
import { findRoute } from '../../app/routes';
import { toast } from '../../machines/feedback';
import { json, mockedServer, renderScreen } from '../render-screen.test-support';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { ResourceListPage } from '../resource/resource-list-page';
import { deliveriesScreen, WebhooksPanel } from './webhooks';

const SITE = '0190a1b2-0000-7000-8000-0000000000f1';
const HOOK = '0190a1b2-0000-7000-8000-0000000000f2';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const fetchMock = mockedServer();

const hook = (overrides: object = {}) => ({
  _id: HOOK,
  version: 1,
  createdAt: '2026-11-26T08:00:00.000Z',
  updatedAt: '2026-11-26T08:00:00.000Z',
  url: 'https://example.com/hooks',
  events: ['pages.published', 'form.submitted'],
  isActive: true,
  disabledAt: null,
  lastDeliveryAt: '2026-11-26T09:00:00.000Z',
  lastStatusCode: 503,
  lastError: null,
  ...overrides,
});


describe('a website’s webhooks', () => {
  it('are a route of their own beside the website’s home, with a chunk of their own', () => {
    expect(findRoute(`/websites/${SITE}/webhooks`).page?.preload).toBeTypeOf('function');
  });

  it('list each webhook with its events in words, its state and its last delivery; a switched-off one says why', async () => {
    fetchMock.mockResolvedValue(json({ success: true, data: [hook(), hook({ _id: `${HOOK.slice(0, -1)}3`, url: 'https://down.example/x', isActive: false, disabledAt: '2026-11-27T09:00:00.000Z', lastStatusCode: null, lastError: 'timeout' })] }));
    renderScreen(<WebhooksPanel websiteId={SITE} />);
    const list = await screen.findByRole('list', { name: 'Webhooks' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first!.textContent).toContain('Pages: published, A form was sent');
    expect(first!.textContent).toContain('Active');
    expect(first!.textContent).toMatch(/Last delivery: .*, 503/);
    expect(first!.textContent).not.toContain('pages.published');
    expect(second!.textContent).toContain('Switched off');
    expect(within(second!).getByRole('alert').textContent).toContain('after 24 hours of failed deliveries');
    expect(second!.textContent).toContain('No answer in time');
    expect(fetchMock.mock.calls[0]![0]).toContain(`/api/websites/${SITE}/webhooks`);
  });

  it('are made with an address and chosen events, and show the new secret once, to copy', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'POST') return json({ success: true, data: hook({ lastDeliveryAt: null, lastStatusCode: null, secret: SECRET }) }, 201);
      return json({ success: true, data: [] });
    });
    renderScreen(<WebhooksPanel websiteId={SITE} />);
    expect(await screen.findByText('This website has no webhooks yet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Address'), { target: { value: 'https://example.com/hooks' } });
    fireEvent.click(screen.getByLabelText('Pages: published'));
    fireEvent.click(screen.getByLabelText('A food menu changed'));
    fireEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText(SECRET)).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('shown only this once');
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
    const [, init] = fetchMock.mock.calls.find(([, options]) => options?.method === 'POST')!;
    expect(JSON.parse(String(init!.body))).toEqual({ url: 'https://example.com/hooks', events: ['pages.published', 'gastro.menuChanged'] });
    expect(screen.getByText('Nothing delivered yet')).toBeTruthy();
  });

  it('show a refused address as the server’s words under the field', async () => {
    fetchMock.mockImplementation(async (_input, init) => {
      if (init?.method === 'POST') return json({ success: false, message: 'Some fields are not valid', errors: [{ path: 'body.url', message: 'This address is in a private network or on this server; webhooks cannot be sent there.' }] }, 400);
      return json({ success: true, data: [] });
    });
    renderScreen(<WebhooksPanel websiteId={SITE} />);
    fireEvent.change(await screen.findByLabelText('Address'), { target: { value: 'http://10.0.0.1/x' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    expect(await screen.findByText('This address is in a private network or on this server; webhooks cannot be sent there.')).toBeTruthy();
  });

  it('send a test and say how the receiver answered', async () => {
    fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'POST') return json({ success: true, message: 'The test was delivered (204).', data: { _id: HOOK, version: 1, createdAt: hook().createdAt, updatedAt: hook().updatedAt, webhookId: HOOK, event: 'webhook.test', status: 'delivered', attempts: [], lastAttemptAt: null, lastStatusCode: 204, lastDurationMs: 12 } });
      return json({ success: true, data: [hook()] });
    });
    renderScreen(<WebhooksPanel websiteId={SITE} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Send test' }));
    await waitFor(() => expect(toast.success).toHaveBeenCalledWith('The test was delivered (204).'));
    expect(String(fetchMock.mock.calls.at(-1)![0])).toContain(`/api/websites/${SITE}/webhooks/${HOOK}/test`);
  });

  it('log each delivery with its time, event, result and duration in words, no ids', async () => {
    const { store } = fakeStore({
      webhookDeliveries: [
        row({
          webhookId: HOOK,
          event: 'gastro.menuChanged',
          status: 'pending',
          attempts: [{ at: '2026-11-26T09:00:00.000Z', statusCode: null, error: 'refused', durationMs: 3 }],
          lastAttemptAt: '2026-11-26T09:00:00.000Z',
          lastStatusCode: null,
          lastDurationMs: 3,
        }),
      ],
    });
    renderResourceScreen(
      <Route path="/websites/:websiteId/webhooks">
        <ResourceListPage screen={deliveriesScreen} title={msg`Delivery log`} />
      </Route>,
      store,
      { path: `/websites/${SITE}/webhooks` },
    );
    const cell = await screen.findByText('A food menu changed');
    const line = cell.closest('tr') ?? cell.closest('li')!;
    expect(line.textContent).toContain('Refused: private address');
    expect(line.textContent).toContain('3 ms');
    expect(line.textContent).toContain('Retrying');
    expect(line.textContent).not.toContain(HOOK);
  });
});
