import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/request';
import { keepBlobs } from '../../db/blobs.test-support';
import { clearLocalData, db } from '../../db/database';
import type { Row } from '../../db/resource-store';
import { fakeStore, renderResourceScreen, row } from '../resource/fake-store.test-support';
import { MediaLibrary } from './media';

const SITE = '0190d6b0-0000-7000-8000-0000000000a1';
const FILES = 10_000;

const file = (n: number): Row =>
  row({
    id: `0190d6b0-0000-7000-8000-${String(n).padStart(12, '0')}`,
    websiteId: SITE,
    fileName: `photo-${n}.jpg`,
    mimetype: 'image/jpeg',
    size: 2048 * n,
    width: 800,
    height: 600,
    alt: '',
    description: '',
    folder: n % 2 ? 'menu' : 'team',
    url: `/api/files/media/${n}.jpg`,
    thumbUrl: `/api/files/media/${n}-thumb.webp`,
    createdAt: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
  });

const library = () => Array.from({ length: FILES }, (_, index) => file(index + 1));
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const fetchMock = vi.fn<typeof fetch>();

function open(store: ReturnType<typeof fakeStore>['store']) {
  return renderResourceScreen(
    <Route path="/cms/:websiteId/media">
      <MediaLibrary title={msg`Media library`} />
    </Route>,
    store,
    { path: `/cms/${SITE}/media` },
  );
}

const tiles = () => screen.getAllByRole('listitem');
const pick = (files: File[], label = 'Choose files to upload') => fireEvent.change(screen.getByLabelText(label), { target: { files } });
const photo = (name: string) => new File([new Uint8Array([255, 216, 255, 224])], name, { type: 'image/jpeg' });

beforeEach(async () => {
  await clearLocalData();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.restoreAllMocks();
  localStorage.clear();
  window.scrollTo(0, 0);
});

describe('the media library', () => {
  it('shows ten thousand files as a grid of only the rows in view, reading only their pages', async () => {
    const { store, spies } = fakeStore({ media: library() });
    open(store);

    await waitFor(() => expect(tiles()[0]!.getAttribute('aria-setsize')).toBe(String(FILES)));
    // The newest first, a hundred to a page; only the first page is in view.
    const [resource, query] = spies.fetchList.mock.calls[0]!;
    expect([resource.name, resource.boundKey, query]).toEqual(['media', SITE, { page: 1, limit: 100, sortBy: 'createdAt', sortOrder: 'desc' }]);
    expect(tiles().length).toBeLessThan(60);
    expect(within(tiles()[0]!).getByRole('button', { name: 'Open photo-10000.jpg' })).toBeDefined();
    expect(new Set(spies.fetchList.mock.calls.map(([, asked]) => asked.page))).toEqual(new Set([1]));

    // Far down: the rows there, and the pages they show, are read; the ones between never.
    const rowHeight = Number(tiles()[0]!.closest<HTMLElement>('[role="none"]')!.style.height.replace('px', '')) + 8;
    const columns = tiles().filter((tile) => tile.parentElement === tiles()[0]!.parentElement).length;
    window.scrollTo(0, rowHeight * Math.floor(5000 / columns));
    fireEvent.scroll(window);

    expect(await screen.findByRole('button', { name: 'Open photo-5000.jpg' })).toBeDefined();
    const read = new Set(spies.fetchList.mock.calls.map(([, asked]) => asked.page));
    expect(read.has(51)).toBe(true);
    expect(read.size).toBeLessThan(5);
    expect(tiles().length).toBeLessThan(60);
  });

  it('filters by type and folder, and sorts, through the list query', async () => {
    const { store, spies } = fakeStore({ media: library().slice(0, 30) });
    open(store);
    await screen.findByRole('button', { name: 'Open photo-30.jpg' });
    const last = () => spies.fetchList.mock.calls.at(-1)![1];

    fireEvent.change(screen.getByLabelText('Type'), { target: { value: 'image' } });
    await waitFor(() => expect(last()).toMatchObject({ mimetype: 'image', page: 1 }));
    fireEvent.change(screen.getByLabelText('Order'), { target: { value: 'fileName:asc' } });
    await waitFor(() => expect(last()).toMatchObject({ sortBy: 'fileName', sortOrder: 'asc', mimetype: 'image' }));
    fireEvent.change(screen.getAllByLabelText('Folder')[1]!, { target: { value: 'menu' } });
    await waitFor(() => expect(last()).toMatchObject({ folder: 'menu' }));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Open photo-2.jpg' })).toBeNull());
  });

  it('offline, keeps each picked file in the outbox with the folder and compress switch, shown as waiting', async () => {
    keepBlobs();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const { store } = fakeStore({ media: [] });
    open(store);
    await screen.findByText('No files yet.');

    fireEvent.change(screen.getAllByLabelText('Folder')[0]!, { target: { value: 'dishes' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Compress images' }));
    pick([photo('soup.jpg'), photo('salad.jpg')]);

    await waitFor(async () => expect(await db.outbox.count()).toBe(2));
    const entries = await db.outbox.orderBy('seq').toArray();
    expect(entries.map((entry) => [entry.kind, entry.path, entry.scope, entry.body, entry.label.title])).toEqual([
      // Each names the id it is kept under, which the server makes its record under (DESIGN §4).
      ['upload', `/api/cms/media/${SITE}/upload`, SITE, { folder: 'dishes', compressImages: 'false', _id: entries[0]!.entityId }, 'soup.jpg'],
      ['upload', `/api/cms/media/${SITE}/upload`, SITE, { folder: 'dishes', compressImages: 'false', _id: entries[1]!.entityId }, 'salad.jpg'],
    ]);
    // One id of this device's per file: each is its own entry, refused or sent on its own.
    expect(new Set(entries.map((entry) => entry.entityId)).size).toBe(2);
    expect(fetchMock).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.getAllByText('Waiting to upload')).toHaveLength(2));
  });

  it('online, uploads each file at once with its key, and shows a refusal with the server’s message and status', async () => {
    localStorage.setItem('auth_token', 'token');
    fetchMock.mockResolvedValueOnce(json({ success: false, message: 'Only JPEG, PNG, WebP, GIF and AVIF images and PDF files can be uploaded.' }, 415));
    const { store } = fakeStore({ media: [] });
    open(store);
    await screen.findByText('No files yet.');

    pick([photo('menu.svg')]);

    expect((await screen.findByRole('alert')).textContent).toBe('Only JPEG, PNG, WebP, GIF and AVIF images and PDF files can be uploaded. (HTTP 415)');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect([url, init?.method]).toEqual([`/api/cms/media/${SITE}/upload`, 'POST']);
    expect(new Headers(init?.headers).get('Idempotency-Key')).toMatch(/^[0-9a-f-]{36}$/);
    const form = init!.body as FormData;
    expect([form.get('compressImages'), (form.get('file') as File).name]).toEqual(['true', 'menu.svg']);
    expect(await db.outbox.count()).toBe(0);
  });

  it('opens a file’s details, edits them in the generic form, and deletes it after the one confirm', async () => {
    const { store, spies } = fakeStore({ media: library().slice(0, 3) });
    open(store);

    fireEvent.click(await screen.findByRole('button', { name: 'Open photo-3.jpg' }));
    const details = screen.getByRole('dialog', { name: 'photo-3.jpg' });
    expect(within(details).getByText('800 × 600')).toBeDefined();
    expect(within(details).getByText('menu')).toBeDefined();

    fireEvent.click(within(details).getByRole('button', { name: 'Edit details' }));
    const form = await screen.findByRole('dialog', { name: 'Edit file' });
    fireEvent.change(await within(form).findByLabelText('Alternative text'), { target: { value: 'A bowl of soup' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(spies.submit).toHaveBeenCalledWith(expect.objectContaining({ name: 'media' }), expect.objectContaining({ kind: 'update', values: { alt: 'A bowl of soup' } })));

    fireEvent.click(await screen.findByRole('button', { name: 'Open photo-2.jpg' }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'photo-2.jpg' })).getByRole('button', { name: 'Delete' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Yes, Delete' }));
    await waitFor(() => expect(spies.submit).toHaveBeenCalledWith(expect.objectContaining({ name: 'media' }), expect.objectContaining({ kind: 'delete', id: file(2).id })));
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Open photo-2.jpg' })).toBeNull());
  });

  it('offline, shows this device’s files with their age, and without a copy a quiet note: never an error', async () => {
    const offline = new ApiError('Network error or server unavailable', 0);
    const copied = fakeStore({ media: library().slice(0, 3) });
    const served = copied.spies.fetchList.getMockImplementation()!;
    copied.spies.cachedList.mockImplementation(async (resource, query) => ({ value: await served(resource, query), fetchedAt: Date.now() - 10 * 60_000 }));
    copied.spies.fetchList.mockRejectedValue(offline);
    const { unmount } = open(copied.store);

    expect(await screen.findByRole('button', { name: 'Open photo-3.jpg' })).toBeDefined();
    expect(screen.getByText('Offline — showing data as of 10 minutes ago')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
    unmount();

    const empty = fakeStore({ media: [] });
    empty.spies.fetchList.mockRejectedValue(offline);
    open(empty.store);
    expect(await screen.findByText('Offline — this has not been loaded on this device yet. It shows here once you are back online.')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(/Failed to load files/)).toBeNull();
  });
});
