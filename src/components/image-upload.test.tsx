import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settings } from '../contract/resources/settings';
import { keepBlobs } from '../db/blobs.test-support';
import { clearLocalData, db, type WireRow } from '../db/database';
import { renderScreen } from '../views/render-screen.test-support';
import { ImageUpload } from './image-upload';

const ID = '0190a1b2-0000-7000-8000-0000000005e1';
const OLD = '/api/files/images/0190a1b2-0000-7000-8000-000000000001.webp';
const NEW = '/api/files/images/0190a1b2-0000-7000-8000-000000000002.webp';

const entity = (version: number, cmsLogoUrl: string | null): WireRow => ({
  _id: ID,
  version,
  createdAt: '2026-01-01T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  cmsName: 'Agentur Nord',
  helpUrl: '',
  supportUrl: '',
  defaultLanguage: 'en',
  mailFrom: '',
  cmsLogoUrl,
});

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const fetchMock = vi.fn<typeof fetch>();

function open(onUploaded = vi.fn()) {
  renderScreen(<ImageUpload label="Logo" uploadPath="/api/settings/logo" imageUrl={OLD} resource={settings} onUploaded={onUploaded} />);
  return onUploaded;
}

function choose(file = new File([new Uint8Array([137, 80, 78, 71])], 'logo.png', { type: 'image/png' })) {
  fireEvent.change(screen.getByLabelText('Choose an image for Logo'), { target: { files: [file] } });
  return file;
}

const image = () => screen.getByRole('img', { name: 'Logo' }).getAttribute('src');
const WAITING = 'Kept on this device; it is uploaded when the connection returns.';


beforeEach(async () => {
  await clearLocalData();
  localStorage.setItem('auth_token', 'tok-1');
  localStorage.setItem('language', 'de');
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
});

describe('ImageUpload', () => {
  it('shows the chosen file while it uploads, then the server’s image, and keeps the answer as the record’s copy', async () => {
    await db.records.put({ resource: 'settings', scope: '', id: ID, row: entity(1, OLD), fetchedAt: 0 });
    let answer!: (response: Response) => void;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const onUploaded = open();
    expect(image()).toBe(OLD);
    expect((screen.getByLabelText('Choose an image for Logo') as HTMLInputElement).accept).toBe('image/jpeg,image/png,image/webp,image/gif,image/avif');

    const file = choose();

    expect(image()).toMatch(/^blob:/);
    expect(screen.getByRole('status').textContent).toBe('Uploading…');
    // Sent once the file is known to be within the server's limits.
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    const [url, init] = fetchMock.mock.calls[0]!;
    const headers = new Headers(init?.headers);
    expect([url, init?.method]).toEqual(['/api/settings/logo', 'POST']);
    expect((init!.body as FormData).get('file')).toBe(file);
    // The bearer token and language like every call; the multipart Content-Type is fetch's own.
    expect([headers.get('Authorization'), headers.get('Accept-Language'), headers.has('Content-Type')]).toEqual(['Bearer tok-1', 'de', false]);

    await act(async () => answer(json({ success: true, data: entity(2, NEW), message: 'Settings updated successfully' })));

    await waitFor(() => expect(image()).toBe(NEW));
    expect(screen.getByRole('status').textContent).toBe('Image uploaded.');
    expect(onUploaded).toHaveBeenCalledWith(expect.objectContaining({ _id: ID, version: 2, cmsLogoUrl: NEW }));
    const kept = await db.records.get(['settings', ID]);
    expect(kept?.row).toMatchObject({ version: 2, cmsLogoUrl: NEW });
    // Our own version: an edit still based on version 1 continues from it (db/outbox.ts enqueue).
    expect(kept?.ownFrom).toBe(1);
  });

  it('shows the server’s message with the HTTP status when it refuses the file (415), and keeps the image', async () => {
    fetchMock.mockResolvedValueOnce(json({ success: false, message: 'Only JPEG, PNG, WebP, GIF and AVIF images can be uploaded.' }, 415));
    const onUploaded = open();

    choose(new File(['<svg/>'], 'logo.png', { type: 'image/png' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Only JPEG, PNG, WebP, GIF and AVIF images can be uploaded. (HTTP 415)');
    expect(image()).toBe(OLD);
    expect(onUploaded).not.toHaveBeenCalled();
  });

  it('prefers the server’s `error` to its message, says "Upload failed" when it names none, and lists the limit a file broke', async () => {
    fetchMock
      .mockResolvedValueOnce(json({ success: false, error: 'Unsupported file', message: 'Request failed' }, 415))
      .mockResolvedValueOnce(json({ success: false }, 500))
      .mockResolvedValueOnce(json({ success: false, message: 'The file is too large.', data: { maxBytes: 10 * 1024 * 1024 } }, 413));
    open();

    choose();
    expect((await screen.findByRole('alert')).textContent).toBe('Unsupported file (HTTP 415)');
    choose();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Upload failed (HTTP 500)'));
    choose();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The file is too large. (HTTP 413)Files may be up to 10 MB.'));
    expect(screen.getByRole('listitem').textContent).toBe('Files may be up to 10 MB.');
  });

  it('keeps the image in the outbox when no answer comes, under the key the try was sent with', async () => {
    keepBlobs();
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    open();

    const file = choose();

    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(WAITING));
    const [entry] = await db.outbox.toArray();
    const sentKey = new Headers(fetchMock.mock.calls[0]![1]?.headers).get('Idempotency-Key');
    expect(entry).toMatchObject({ kind: 'upload', resource: 'settings', entityId: '/api/settings/logo', path: '/api/settings/logo', status: 'pending', idempotencyKey: sentKey });
    expect((await db.files.where('seq').equals(entry!.seq!).first())?.blob).toBe(file);
    // Shown from the outbox once its file is read back.
    await waitFor(() => expect(image()).toMatch(/^blob:/));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('offline, keeps the chosen image on the device and shows it as waiting, also once the screen is opened again', async () => {
    keepBlobs();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    open();
    expect(screen.getByText('You are offline: an image you choose is kept on this device and uploaded when you are back online.')).toBeDefined();

    const file = choose();

    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(WAITING));
    expect(fetchMock).not.toHaveBeenCalled();
    const [entry] = await db.outbox.toArray();
    expect(entry).toMatchObject({ kind: 'upload', status: 'pending', label: { item: 'Logo', title: '' }, fallback: 'Upload failed' });

    cleanup();
    open();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(WAITING));
    await waitFor(() => expect(image()).toMatch(/^blob:/));
    expect((await db.files.toArray()).map((kept) => kept.blob)).toEqual([file]);
  });

  it('shows a queued image the server refused with its message, status and the limit it broke', async () => {
    keepBlobs();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    open();
    choose();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe(WAITING));

    await db.outbox.toCollection().modify({ status: 'failed', error: { message: 'The file is too large.', errors: [], status: 413, data: { maxBytes: 10 * 1024 * 1024 } } });

    expect((await screen.findByRole('alert')).textContent).toBe('The file is too large. (HTTP 413)Files may be up to 10 MB.');
  });

  it('says so when the device has no room to keep the image, and keeps nothing', async () => {
    vi.stubGlobal('navigator', { onLine: false, storage: { estimate: async () => ({ quota: 1000, usage: 990 }) } });
    open();

    choose();

    expect((await screen.findByRole('alert')).textContent).toBe(
      'This device has no room left to keep the image until it can be uploaded. Free up some space, or choose it again once you are online.',
    );
    expect(await db.outbox.count()).toBe(0);
    expect(image()).toBe(OLD);
  });
});
