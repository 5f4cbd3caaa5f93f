import { msg } from '@lingui/core/macro';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'wouter';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../machines/feedback';
import type { Success } from '../../contract/envelope';
import { UPLOAD_LIMITS } from '../../contract/upload-limits';
import { uuidv7 } from '../../contract/uuid';
import { keepBlobs } from '../../db/blobs.test-support';
import { clearLocalData, db } from '../../db/database';
import { resourceStore } from '../../db/device-store';
import { drain, type OutboxRequest } from '../../db/outbox-drain';
import { uploadOrQueue } from '../../db/upload-or-queue';
import { itemsScreen } from '../cms/gastro';
import { fakeStore, renderResourceScreen, row } from './fake-store.test-support';
import { preloadFieldKinds } from './field-kinds';
import { ResourceFormPage } from './resource-form';
import { ResourceListPage } from './resource-list-page';
import type { ResourceStore } from '../../db/resource-store';
import { sessionUser } from '../render-screen.test-support';

const SITE = '0190a1b2-0000-7000-8000-00000000a5e1';
const MENU = '0190a1b2-0000-7000-8000-00000000b001';
const TERRACE = '0190a1b2-0000-7000-8000-00000000c001';
const FORM = `/cms/${SITE}/gastromenu/${MENU}/items/new`;
const UPLOAD = `/api/cms/media/${SITE}/upload`;

const library = () => [
  row({ id: TERRACE, name: 'terrace.jpg', fileName: 'terrace.jpg', alt: 'The terrace', mimetype: 'image/webp', size: 900, thumbUrl: '/api/files/media/terrace-thumb.webp' }),
  row({ id: uuidv7(), name: 'menu.pdf', fileName: 'menu.pdf', alt: '', mimetype: 'application/pdf', size: 900, thumbUrl: null }),
];
const seed = () => ({ gastroMenus: [row({ id: MENU, name: 'Summer menu' })], gastroCategories: [], gastroAllergens: [], gastroItems: [], media: library() });

const photo = (name = 'soup.jpg', size = 4) => new File([new Uint8Array(size)], name, { type: 'image/jpeg' });
const picture = () => within(screen.getByRole('group', { name: 'Picture' }));
const shown = () => picture().queryByRole('img', { name: 'Picture' })?.getAttribute('src');
const WAITING = 'Kept on this device; it is uploaded when the connection returns.';

/** The media library's answer to an upload: the record made under the id the form sent; nothing else answers. */
const fetchMock = vi.fn<typeof fetch>(async (url, init) => {
  if (url !== UPLOAD) throw new TypeError('Failed to fetch');
  const form = init!.body as FormData;
  const id = String(form.get('_id'));
  const name = (form.get('file') as File).name;
  const made = { _id: id, version: 1, createdAt: '2026-01-01T10:00:00.000Z', updatedAt: '2026-01-01T10:00:00.000Z', alt: '', description: '', folder: '' };
  const facts = { fileName: name, mimetype: 'image/webp', size: 300, width: 40, height: 30, url: `/api/files/media/${id}.webp`, thumbUrl: `/api/files/media/${id}-thumb.webp` };
  return new Response(JSON.stringify({ success: true, data: { ...made, ...facts } }), { status: 201 });
});

function openForm(store: ResourceStore, user = sessionUser()) {
  return renderResourceScreen(
    <Route path="/cms/:websiteId/gastromenu/:menuId/items/new">
      <ResourceFormPage screen={itemsScreen} title={msg`New dish`} id={null} />
    </Route>,
    store,
    { path: FORM, user },
  );
}

async function saveDish(name: string) {
  fireEvent.change(screen.getByLabelText('Name'), { target: { value: name } });
  fireEvent.change(screen.getByLabelText('Price'), { target: { value: '9,50' } });
  fireEvent.click(screen.getByRole('button', { name: 'Save' }));
}

beforeEach(async () => {
  await clearLocalData();
  localStorage.clear();
  keepBlobs();
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
  // The test's bytes are no image a browser reads: their pixels are the server's to judge.
  vi.stubGlobal('createImageBitmap', () => Promise.reject(new Error('not an image')));
  for (const kind of ['success', 'info', 'error'] as const) vi.spyOn(toast, kind).mockImplementation(() => {});
  await preloadFieldKinds(itemsScreen.fields);
});
afterEach(() => vi.restoreAllMocks());

describe('a dish’s picture, online', () => {
  it('takes a photo with the camera: uploaded to the library at once, shown, and the dish names it', async () => {
    const { store, spies } = fakeStore(seed());
    openForm(store);
    const camera = picture().getByLabelText('Take a photo for Picture') as HTMLInputElement;
    expect([camera.accept, camera.getAttribute('capture')]).toEqual(['image/*', 'environment']);
    expect(picture().getByText('No picture yet')).toBeDefined();

    fireEvent.change(camera, { target: { files: [photo()] } });

    await waitFor(() => expect(shown()).toMatch(/-thumb\.webp$/));
    const [url, init] = fetchMock.mock.calls[0]!;
    const id = String((init!.body as FormData).get('_id'));
    expect([url, shown()]).toEqual([UPLOAD, `/api/files/media/${id}-thumb.webp`]);
    await saveDish('Soup');
    await waitFor(() => expect(spies.submit).toHaveBeenCalled());
    expect(spies.submit.mock.calls[0]![1]).toMatchObject({ kind: 'create', values: { name: 'Soup', mediaId: id } });
    // Sent at once: nothing waits on the device.
    expect(await db.outbox.count()).toBe(0);
  });

  it('is not saved while its photo is still being taken in: it would be saved without it', async () => {
    let answer: ((response: Response) => void) | undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const { store } = fakeStore(seed());
    openForm(store);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Soup' } });
    fireEvent.change(screen.getByLabelText('Price'), { target: { value: '9,50' } });

    fireEvent.change(picture().getByLabelText('Take a photo for Picture'), { target: { files: [photo()] } });

    const save = screen.getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toHaveProperty('disabled', true));
    answer!(new Response(JSON.stringify({ success: false, message: 'Not now' }), { status: 503 }));
    await waitFor(() => expect(save).toHaveProperty('disabled', false));
  });

  it('takes a file from the device the same way', async () => {
    const { store, spies } = fakeStore(seed());
    openForm(store);
    const files = picture().getByLabelText('Choose a file for Picture') as HTMLInputElement;
    expect(files.getAttribute('capture')).toBeNull();

    fireEvent.change(files, { target: { files: [photo('pizza.jpg')] } });

    await waitFor(() => expect(shown()).toMatch(/-thumb\.webp$/));
    const id = String((fetchMock.mock.calls[0]![1]!.body as FormData).get('_id'));
    await saveDish('Pizza');
    await waitFor(() => expect(spies.submit.mock.calls[0]?.[1]).toMatchObject({ values: { mediaId: id } }));
  });

  it('chooses one of the library’s pictures (its documents are none), and removes it again', async () => {
    const { store, spies } = fakeStore(seed());
    openForm(store);

    fireEvent.click(picture().getByRole('button', { name: 'From the media library' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose from the media library' });
    const choices = await within(dialog).findAllByRole('button', { name: /terrace|menu/ });
    expect(choices.map((choice) => choice.textContent)).toEqual(['The terrace']);
    fireEvent.click(choices[0]!);

    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(shown()).toBe('/api/files/media/terrace-thumb.webp'));
    fireEvent.click(picture().getByRole('button', { name: 'Remove' }));
    expect(picture().getByText('No picture yet')).toBeDefined();
    fireEvent.click(picture().getByRole('button', { name: 'From the media library' }));
    fireEvent.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: 'The terrace' }));
    await saveDish('Salad');
    await waitFor(() => expect(spies.submit.mock.calls[0]?.[1]).toMatchObject({ values: { mediaId: TERRACE } }));
    expect(fetchMock.mock.calls.filter(([url]) => url === UPLOAD)).toEqual([]);
  });
});

/** A kitchen's team member: may edit the dishes, and the media library only as far as `media` says. */
const member = (media: 'none' | 'view') =>
  sessionUser({ type: 'teammember', role: 'kitchen', websiteId: SITE, roleInfo: { permissions: { cms: true, seo: false, team: false, settings: false }, cmsPermissions: { gastro: 'edit', media } } });

describe('who may do what with a dish’s picture', () => {
  it('offers a photo only to whom the library takes one from, and the library only to whom may read it', async () => {
    for (const [user, ways] of [
      [member('view'), ['From the media library']],
      [member('none'), []],
    ] as const) {
      const { store } = fakeStore(seed());
      const { unmount } = openForm(store, user);
      expect(picture().queryAllByRole('button').map((button) => button.textContent)).toEqual(ways);
      expect(picture().queryByLabelText('Take a photo for Picture')).toBeNull();
      unmount();
    }
  });
});

describe('a dish’s picture, offline', () => {
  beforeEach(() => void vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false));

  it('keeps the photo on the device, shows it from there, and the dish saved meanwhile is sent after it, each once', async () => {
    openForm(resourceStore);
    const taken = photo();

    fireEvent.change(picture().getByLabelText('Take a photo for Picture'), { target: { files: [taken] } });

    await waitFor(() => expect(picture().getByRole('status').textContent).toBe(WAITING));
    await waitFor(() => expect(shown()).toMatch(/^blob:/));
    expect(fetchMock.mock.calls.filter(([url]) => url === UPLOAD)).toEqual([]);
    await saveDish('Soup');
    await waitFor(async () => expect(await db.outbox.count()).toBe(2));

    const [upload, dish] = await db.outbox.orderBy('seq').toArray();
    expect(upload).toMatchObject({ kind: 'upload', resource: 'media', scope: SITE, path: UPLOAD, body: { _id: upload!.entityId } });
    expect((await db.files.where('seq').equals(upload!.seq!).first())?.blob).toBe(taken);
    expect(dish).toMatchObject({ kind: 'create', resource: 'gastroItems', body: { name: 'Soup', mediaId: upload!.entityId } });
    expect(dish!.dependsOn).toContain(`media:${upload!.entityId}`);

    // Back online: the photo goes first, then the dish, each once.
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(true);
    const calls: string[] = [];
    const send = vi.fn(async (request: OutboxRequest): Promise<Success<unknown>> => {
      calls.push(`${request.method} ${request.path}`);
      const at = '2026-01-01T10:00:00.000Z';
      const body = request.body instanceof FormData ? { _id: String(request.body.get('_id')) } : (request.body as { _id: string });
      return { success: true, data: { ...body, version: 1, createdAt: at, updatedAt: at } };
    });
    await drain(send);
    expect(calls).toEqual([`POST ${UPLOAD}`, `POST /api/cms/gastro-menus/${MENU}/items`]);
    expect(await db.outbox.count()).toBe(0);
  });

  it('offers a photo taken offline in the media library, and the dish names it', async () => {
    const waiting = uuidv7();
    const file = { field: 'file', blob: photo('garden.jpg'), name: 'garden.jpg' };
    await uploadOrQueue({ resource: 'media', scope: SITE, entityId: waiting, path: UPLOAD, file, label: { item: 'file', title: 'garden.jpg' }, fallback: 'Upload failed' });
    openForm(resourceStore);

    fireEvent.click(picture().getByRole('button', { name: 'From the media library' }));
    const dialog = await screen.findByRole('dialog');
    // This device has no copy of the library's own pictures: no error, and nothing that never ends loading.
    expect(await within(dialog).findByText('The media library’s pictures show here once you are online.')).toBeDefined();
    expect(within(dialog).queryByText('Loading…')).toBeNull();
    fireEvent.click(await within(dialog).findByRole('button', { name: /^garden\.jpg/ }));

    await waitFor(() => expect(shown()).toMatch(/^blob:/));
    expect(picture().getByRole('status').textContent).toBe(WAITING);
    await saveDish('Garden salad');
    await waitFor(async () => expect(await db.outbox.count()).toBe(2));
    const dish = (await db.outbox.orderBy('seq').toArray())[1];
    expect(dish).toMatchObject({ kind: 'create', body: { name: 'Garden salad', mediaId: waiting } });
  });

  it('refuses a photo past the server’s limits before keeping it, in the server’s words', async () => {
    openForm(resourceStore);

    fireEvent.change(picture().getByLabelText('Take a photo for Picture'), { target: { files: [photo('huge.jpg', UPLOAD_LIMITS.maxBytes + 1)] } });

    expect((await picture().findByRole('alert')).textContent).toBe('The file is too large.Files may be up to 10 MB.');
    expect(await db.outbox.count()).toBe(0);
    expect(picture().getByText('No picture yet')).toBeDefined();
  });

  it('refuses a photo of a type the server does not take (a phone’s HEIC) before keeping it', async () => {
    openForm(resourceStore);

    fireEvent.change(picture().getByLabelText('Take a photo for Picture'), { target: { files: [new File([new Uint8Array(4)], 'IMG_1.heic', { type: 'image/heic' })] } });

    expect((await picture().findByRole('alert')).textContent).toBe('Only JPEG, PNG, WebP, GIF and AVIF images can be uploaded.');
    expect(await db.outbox.count()).toBe(0);
  });
});

describe('the menu editor', () => {
  it('shows a dish’s picture waiting on this device from there, and one on the server from the server', async () => {
    const waiting = uuidv7();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await uploadOrQueue({ resource: 'media', scope: SITE, entityId: waiting, path: UPLOAD, file: { field: 'file', blob: photo(), name: 'soup.jpg' }, label: { item: 'file', title: 'soup.jpg' }, fallback: 'Upload failed' });
    const dish = (name: string, position: number, mediaId: string, thumbUrl: string | null) =>
      row({ id: uuidv7(), menuId: MENU, position, name, price: 100, currency: 'EUR', categoryId: null, allergenIds: [], available: true, mediaId, thumbUrl });
    const { store } = fakeStore({ ...seed(), gastroItems: [dish('Soup', 0, waiting, null), dish('Pizza', 1, TERRACE, '/api/files/media/terrace.webp')] });
    renderResourceScreen(
      <Route path="/cms/:websiteId/gastromenu/:menuId">
        <ResourceListPage screen={itemsScreen} title={msg`Dishes`} />
      </Route>,
      store,
      { path: `/cms/${SITE}/gastromenu/${MENU}` },
    );

    const dishes = await screen.findByRole('list', { name: 'Dishes' });
    // The waiting picture's address is made once its file is read from the device: until then its image has none.
    await waitFor(() => {
      const [soup, pizza] = within(dishes).getAllByRole('listitem');
      expect(soup!.querySelector('img')?.getAttribute('src')).toMatch(/^blob:/);
      expect(pizza!.querySelector('img')?.getAttribute('src')).toBe('/api/files/media/terrace.webp');
    });
  });
});
