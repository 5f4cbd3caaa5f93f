import { i18n, setupI18n } from '@lingui/core';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FeedbackHost } from '../../app/feedback';
import { boundTo } from '../../contract/resource';
import { categories } from '../../contract/resources/catalogs';
import { gallerySlides } from '../../contract/resources/cms';
import { gastroCategories, gastroItems } from '../../contract/resources/gastro';
import { clearLocalData, db, type OutboxEntry, type WireRow } from '../../db/database';
import { keepBlobs } from '../../db/blobs.test-support';
import { orderTag } from '../../contract/order';
import { keepList, resourceStore } from '../../db/device-store';
import { enqueue, enqueueUpload } from '../../db/outbox';
import { enqueueReorder } from '../../db/outbox-reorder';
import { initialListQuery } from '../../machines/list.machine';
import { messages as de } from '../../locales/de/messages';
import { renderScreen } from '../render-screen.test-support';
import { refusalText } from '../../db/view';
import { categoriesScreen } from '../admin/catalogs';
import { categoriesScreen as menuCategoriesScreen, itemsScreen } from '../cms/gastro';
import { registerScreens } from '../resource/screen-registry';
import { SyncStatus } from './sync-status';

const A = '0190d6b0-0000-7000-8000-00000000000a';
const B = '0190d6b0-0000-7000-8000-00000000000b';
const C = '0190d6b0-0000-7000-8000-00000000000c';
const at = '2024-05-01T10:00:00.000Z';
const theirs: WireRow = { _id: A, version: 5, createdAt: at, updatedAt: at, name: 'Their drinks', description: 'Same' };
const fetchMock = vi.fn<typeof fetch>();

function Status() {
  const [open, setOpen] = useState(false);
  return <SyncStatus open={open} onOpenChange={setOpen} />;
}

async function add(id: string, title: string, changes: Partial<OutboxEntry> = {}): Promise<number> {
  const path = `/api/categories/${id}`;
  const seq = await enqueue({ resource: 'categories', entityId: id, kind: 'update', method: 'PUT', path, itemPath: path, body: { name: 'My drinks', description: 'Same' }, baseVersion: 3, label: { item: 'category', title }, fallback: 'Failed to update category' });
  if (Object.keys(changes).length) await db.outbox.update(seq!, changes);
  return seq!;
}

const conflict = { status: 'conflict' as const, current: theirs, error: { message: 'Changed', errors: [], status: 409 } };
const refused = { status: 'failed' as const, error: { message: 'This value is already in use', errors: [{ path: 'body.name', message: 'Taken' }], status: 400 } };

const button = () => screen.getByRole('button', { name: /^Sync status/ });
const panel = () => screen.getByRole('region', { name: 'Sync' });

function renderStatus() {
  return renderScreen(
    <>
      <Status />
      <FeedbackHost />
    </>,
  );
}

beforeEach(async () => {
  await clearLocalData();
  // What opening the screens' forms (or loading their modules) does in the app.
  registerScreens(categoriesScreen);
  fetchMock.mockReset().mockResolvedValue(new Response(JSON.stringify({ success: true, data: theirs })));
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(async () => {
  vi.restoreAllMocks();
  localStorage.clear();
  // The toasts are the app's one actor: the next test starts without this one's.
  for (const dismiss of screen.queryAllByRole('button', { name: 'Dismiss notification' })) fireEvent.click(dismiss);
  await waitFor(() => expect(screen.queryAllByRole('button', { name: 'Dismiss notification' })).toEqual([]));
});

/** Answers the app's confirmation dialog. */
async function answer(title: string, choice: string) {
  const question = await screen.findByRole('dialog', { name: title });
  fireEvent.click(within(question).getByRole('button', { name: choice }));
  await waitFor(() => expect(screen.queryByRole('dialog', { name: title })).toBeNull());
}

const toasts = () => screen.queryAllByRole('button', { name: 'Dismiss notification' }).map((dismiss) => dismiss.parentElement?.textContent);

describe('the sync status button', () => {
  it('says online with nothing waiting', async () => {
    renderStatus();
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('Sync status: Online'));
    expect(button().dataset.state).toBe('synced');
  });

  it('counts pending, conflicting and failed changes', async () => {
    await add(A, 'Drinks');
    await add(B, 'Food', conflict);
    await add(C, 'Wine', refused);
    renderStatus();

    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('Sync status: Online, 1 pending, 1 in conflict, 1 failed'));
    expect(button().dataset.state).toBe('attention');
    expect(button().textContent).toBe('2');
  });

  it('says offline when the device is', async () => {
    renderStatus();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    act(() => void window.dispatchEvent(new Event('offline')));

    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('Sync status: Offline'));
    fireEvent.click(button());
    expect(panel().textContent).toContain('Offline: your changes are kept on this device');
    expect(within(panel()).getByRole('button', { name: 'Sync now' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('the sync panel', () => {
  it('shows a conflict with both versions of the fields that differ; keep mine sends mine again', async () => {
    const seq = await add(A, 'Drinks', conflict);
    renderStatus();
    fireEvent.click(button());

    const entry = await within(panel()).findByText('category “Drinks”');
    const item = entry.closest('li')!;
    expect(item.textContent).toContain('Someone else changed it in the meantime.');
    expect(within(item).getAllByRole('term').map((term) => term.textContent)).toEqual(['Name']);
    expect(within(item).getAllByRole('definition').map((definition) => definition.textContent)).toEqual(['Mine My drinks', 'Theirs Their drinks']);

    fireEvent.click(within(item).getByRole('button', { name: 'Keep mine' }));
    await waitFor(async () => expect(await db.outbox.get(seq)).toMatchObject({ status: 'pending', baseVersion: 5 }));
    await waitFor(() => expect(within(panel()).queryByText('category “Drinks”')).toBeNull());
  });

  it('take theirs drops my change and caches theirs', async () => {
    await add(A, 'Drinks', conflict);
    renderStatus();
    fireEvent.click(button());

    fireEvent.click(await within(panel()).findByRole('button', { name: 'Take theirs' }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect((await db.records.get(['categories', A]))?.row).toEqual(theirs);
  });

  it('shows a refusal with the server’s message and field errors; retry queues it again', async () => {
    const seq = await add(C, 'Wine', refused);
    renderStatus();
    fireEvent.click(button());

    const item = (await within(panel()).findByText('category “Wine”')).closest('li')!;
    expect(item.textContent).toContain('This value is already in use');
    expect(item.textContent).toContain('Name: Taken');

    fireEvent.click(within(item).getByRole('button', { name: 'Retry' }));
    await waitFor(async () => expect((await db.outbox.get(seq))?.status).toBe('pending'));
  });

  it('shows why the outbox itself failed a change from the message catalog, not as the worker stored it', async () => {
    const reason = 'Not sent: the item it depends on could not be saved.';
    await add(C, 'Wine', { status: 'failed', error: { message: 'as the worker stored it', errors: [], status: 424, reason: 'parentNotSaved' } });
    renderStatus();
    fireEvent.click(button());

    const item = (await within(panel()).findByText('category “Wine”')).closest('li')!;
    expect(item.textContent).toContain(reason);
    expect(item.textContent).not.toContain('as the worker stored it');
  });

  it('discard drops a refused change after asking, and fetches the server’s version', async () => {
    localStorage.setItem('auth_token', 'tok-1');
    await add(C, 'Wine', refused);
    renderStatus();
    fireEvent.click(button());

    fireEvent.click(await within(panel()).findByRole('button', { name: 'Discard' }));
    await answer('Discard this change?', 'Discard');
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    await waitFor(() => expect(fetchMock.mock.calls.map(([url]) => String(url))).toContain(`/api/categories/${C}`));
  });

  it('“Sync now” sends what waits', async () => {
    localStorage.setItem('auth_token', 'tok-1');
    renderStatus();
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('Sync status: Online'));
    await add(A, 'Drinks');
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ success: true, data: { ...theirs, version: 4 } })));
    fireEvent.click(button());

    fireEvent.click(within(panel()).getByRole('button', { name: 'Sync now' }));
    await waitFor(async () => expect(await db.outbox.count()).toBe(0));
    expect(fetchMock.mock.calls.some(([url, init]) => String(url) === `/api/categories/${A}` && init?.method === 'PUT')).toBe(true);
  });
});

const photo = () => new File([new Uint8Array([137, 80, 78, 71])], 'dish.png', { type: 'image/png' });

const upload = () =>
  enqueueUpload({
    resource: 'media',
    scope: 'w-1',
    entityId: A,
    path: '/api/cms/media/w-1/upload',
    fields: { folder: 'menu' },
    file: { field: 'file', blob: photo(), name: 'dish.png' },
    label: { item: 'file', title: 'dish.png' },
    fallback: 'Upload failed',
  });

const wire = (fields: Record<string, unknown>): WireRow => ({ ...fields, _id: fields.id as string, version: 1, createdAt: at, updatedAt: at });
const buttonDe = () => screen.getByRole('button', { name: /^Synchronisierungsstatus/ });
const panelDe = () => screen.getByRole('region', { name: 'Synchronisieren' });
/** Amounts as Intl writes them, with a no-break space before the euro sign. */
const plain = (text: string | null | undefined) => text?.replace(/\u00a0/g, ' ');

describe('the sync panel in the interface language', () => {
  const MENU = '0190d6b0-0000-7000-8000-0000000000f1';
  const [PIZZA, SOUP, MAINS, DESSERTS] = [A, B, '0190d6b0-0000-7000-8000-0000000000d1', '0190d6b0-0000-7000-8000-0000000000d2'];
  const dishes = boundTo(gastroItems, { menuId: MENU });
  const menuCategories = boundTo(gastroCategories, { menuId: MENU });
  const dish = (id: string, name: string, price: number, categoryId: string | null = MAINS) =>
    wire({ id, menuId: MENU, position: 0, name, description: '', price, currency: 'EUR', categoryId, allergenIds: [], available: true, mediaId: null });

  beforeEach(async () => {
    registerScreens(itemsScreen, menuCategoriesScreen);
    await keepList(dishes, initialListQuery(dishes), [dish(PIZZA, 'Pizza Margherita', 1090), dish(SOUP, 'Suppe', 450)]);
    await keepList(menuCategories, initialListQuery(menuCategories), [wire({ id: MAINS, menuId: MENU, position: 0, name: 'Hauptspeisen', description: '' })]);
    i18n.loadAndActivate({ locale: 'de', messages: de });
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
  });

  it('lists every waiting change in words, with euros, and discards one after asking', async () => {
    await resourceStore.submit(dishes, { kind: 'update', id: PIZZA, values: { price: 1150 }, baseVersion: 1 });
    await resourceStore.submit(menuCategories, { kind: 'create', id: DESSERTS, values: { name: 'Desserts', description: '' } });
    await resourceStore.submit(dishes, { kind: 'delete', id: SOUP, baseVersion: 1 });
    // Words stored in English when the order changed: the panel speaks the interface's language anyway.
    await enqueueReorder({ resource: dishes.name, scope: MENU, parentId: MENU, ids: [PIZZA], base: orderTag([PIZZA, SOUP]), path: `/api/cms/gastro-menus/${MENU}/items/order`, field: 'items', label: { item: 'dishes', title: '' }, fallback: '' });
    renderStatus();
    fireEvent.click(buttonDe());

    const waiting = await within(panelDe()).findByRole('list', { name: 'Änderungen, die auf das Senden warten' });
    await waitFor(() =>
      expect(within(waiting).getAllByRole('listitem').filter((item) => item.parentElement === waiting).map((item) => plain(item.textContent))).toEqual([
        'Pizza MargheritaPreis 10,90 € → 11,50 €Verwerfen',
        'Neu: Speisekartenkategorie „Desserts“Verwerfen',
        'Speise „Suppe“ gelöschtVerwerfen',
        'Reihenfolge der Speisen geändertVerwerfen',
      ]),
    );
    expect(panelDe().textContent).toContain('4 Änderungen warten auf das Senden');

    const pizza = within(waiting).getByText('Pizza Margherita').closest('li')!;
    fireEvent.click(within(pizza).getByRole('button', { name: 'Verwerfen' }));
    const question = await screen.findByRole('dialog', { name: 'Diese Änderung verwerfen?' });
    expect(question.textContent).toContain('Diese Änderung wird von diesem Gerät entfernt und nie gesendet.');
    const yes = within(question).getByRole('button', { name: 'Verwerfen' });
    fireEvent.pointerDown(yes);
    fireEvent.click(yes);

    await waitFor(() => expect(within(panelDe()).queryByText('Pizza Margherita')).toBeNull());
    // Answering the question was no click beside the panel: it stays open on the rest.
    expect(panelDe().hidden).toBe(false);
    expect((await db.outbox.toArray()).map((entry) => [entry.kind, entry.entityId])).toEqual([
      ['create', DESSERTS],
      ['delete', SOUP],
      ['reorder', `order:${MENU}`],
    ]);
  });

  it('keeps a change that is not discarded when the question is answered no', async () => {
    await resourceStore.submit(dishes, { kind: 'update', id: PIZZA, values: { price: 1150 }, baseVersion: 1 });
    renderStatus();
    fireEvent.click(buttonDe());

    fireEvent.click(await within(panelDe()).findByRole('button', { name: 'Verwerfen' }));
    fireEvent.click(within(await screen.findByRole('dialog', { name: 'Diese Änderung verwerfen?' })).getByRole('button', { name: 'Behalten' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await db.outbox.count()).toBe(1);
  });

  it('shows a conflict by the fields’ labels, with both values in words: euros, a category by its name, yes or no', async () => {
    await keepList(menuCategories, { search: 'Dess' }, [wire({ id: DESSERTS, menuId: MENU, position: 1, name: 'Desserts', description: '' })]);
    const path = `/api/cms/gastro-menus/items/${PIZZA}`;
    const seq = await enqueue({ resource: dishes.name, scope: MENU, entityId: PIZZA, kind: 'update', method: 'PUT', path, itemPath: path, body: { price: 1150, categoryId: DESSERTS, available: false }, baseVersion: 1, label: { item: 'Speise', title: 'Pizza Margherita' }, fallback: '' });
    await db.outbox.update(seq!, { status: 'conflict', current: { ...dish(PIZZA, 'Pizza Margherita', 1090), version: 2 }, error: { message: 'Geändert', errors: [], status: 409 } });
    renderStatus();
    fireEvent.click(buttonDe());

    const item = (await within(panelDe()).findByText('Speise „Pizza Margherita“')).closest('li')!;
    await waitFor(() =>
      expect([...item.querySelectorAll('dt')].map((term) => plain([term, ...within(term.parentElement!).getAllByRole('definition')].map((node) => node.textContent).join(' | ')))).toEqual([
        'Preis | Meine Version 11,50 € | Server-Version 10,90 €',
        'Kategorie | Meine Version Desserts | Server-Version Hauptspeisen',
        'Verfügbar | Meine Version Nein | Server-Version Ja',
      ]),
    );
    expect(item.textContent).not.toMatch(/price|1150|categoryId|true|false/);
  });
});

describe('a change of a record without a name', () => {
  it('is shown by what the record is, never by its id', async () => {
    const SITE = '0190d6b0-0000-7000-8000-0000000000e1';
    const SLIDER = '0190d6b0-0000-7000-8000-0000000000e2';
    const pictures = boundTo(gallerySlides, { websiteId: SITE, sliderId: SLIDER });
    await keepList(pictures, initialListQuery(pictures), [wire({ id: A, sliderId: SLIDER, position: 0, mediaId: B, caption: '' })]);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    await resourceStore.submit(pictures, { kind: 'update', id: A, values: { mediaId: C }, baseVersion: 1 });
    renderStatus();
    fireEvent.click(button());

    expect(await within(panel()).findByText('Picture changed')).toBeDefined();
    expect(panel().textContent).not.toContain(A);
  });
});

describe('uploads and reorders in the sync panel', () => {
  it('lists a file waiting to be uploaded with its picture from the device, and lets the picture go once it is sent', async () => {
    keepBlobs();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const revoke = vi.spyOn(URL, 'revokeObjectURL');
    const seq = await upload();
    renderStatus();
    fireEvent.click(button());

    await within(panel()).findByText('1 change waiting to be sent');
    const item = within(panel()).getByText('File “dish.png” is waiting to be uploaded').closest('li')!;
    const thumb = await waitFor(() => {
      const img = item.querySelector('img');
      expect(img?.getAttribute('src')).toMatch(/^blob:/);
      return img!;
    });
    const url = thumb.getAttribute('src');

    await db.transaction('rw', [db.outbox, db.files], async () => {
      await db.outbox.delete(seq);
      await db.files.where('seq').equals(seq).delete();
    });
    await waitFor(() => expect(within(panel()).queryByText('File “dish.png” is waiting to be uploaded')).toBeNull());
    // An unmounted picture's effect is cleaned up after the commit that removed it, not in it.
    await waitFor(() => expect(revoke).toHaveBeenCalledWith(url));
  });

  it('shows a refused upload with the server’s message, status and limit; discard drops it and its file', async () => {
    keepBlobs();
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const seq = await upload();
    await db.outbox.update(seq, { status: 'failed', error: { message: 'The file is too large.', errors: [], status: 413, data: { maxBytes: 10 * 1024 * 1024 } } });
    renderStatus();
    fireEvent.click(button());

    const item = (await within(panel()).findByText('file “dish.png”')).closest('li')!;
    expect(within(item).getByRole('alert').textContent).toBe('The file is too large. (HTTP 413)Files may be up to 10 MB.');

    fireEvent.click(within(item).getByRole('button', { name: 'Discard' }));
    await answer('Discard this change?', 'Discard');
    await waitFor(async () => expect([await db.outbox.count(), await db.files.count()]).toEqual([0, 0]));
  });

  it('shows a reorder someone else’s order overtook; keep mine sends my order on top of theirs', async () => {
    const [x, y, z] = [A, B, C];
    const seq = await enqueueReorder({ resource: 'menuItems', parentId: 'm-1', ids: [z, x, y], base: orderTag([x, y, z]), path: '/api/menus/m-1/reorder', field: 'items', label: { item: 'menu items', title: '' }, fallback: 'Failed to reorder menu items' });
    await db.outbox.update(seq, { status: 'conflict', currentOrder: [y, x, z], error: { message: 'Someone else changed this order in the meantime.', errors: [], status: 409 } });
    renderStatus();
    fireEvent.click(button());

    const item = (await within(panel()).findByText('menu items')).closest('li')!;
    expect(item.textContent).toContain('Someone else changed the order in the meantime.');
    expect(within(item).queryAllByRole('term')).toEqual([]);

    fireEvent.click(within(item).getByRole('button', { name: 'Keep mine' }));
    await waitFor(async () => expect(await db.outbox.get(seq)).toMatchObject({ status: 'pending', body: { items: [z, x, y] }, baseOrder: orderTag([y, x, z]) }));
  });
});

describe('announcements', () => {
  it('a queued change that is refused later is announced with a toast', async () => {
    const seq = await add(A, 'Drinks');
    renderStatus();
    await waitFor(() => expect(button().textContent).toBe('1'));

    await db.outbox.update(seq, refused);

    await waitFor(() => expect(toasts()).toEqual(['Your change to category “Drinks” was refused: This value is already in use']));
  });

  it('a queued change that conflicts later is announced with a toast', async () => {
    const seq = await add(A, 'Drinks');
    renderStatus();
    await waitFor(() => expect(button().textContent).toBe('1'));

    await db.outbox.update(seq, conflict);

    await waitFor(() =>
      expect(toasts()).toEqual(['Someone else changed category “Drinks” too. Open the sync status to choose which version to keep.']),
    );
  });

  it('a change whose screen heard the refusal is not announced again', async () => {
    localStorage.setItem('auth_token', 'tok-1');
    renderStatus();
    await waitFor(() => expect(button().getAttribute('aria-label')).toBe('Sync status: Online'));
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ success: false, message: 'Taken' }), { status: 422 }));

    const outcome = await resourceStore.submit(categories, { kind: 'update', id: A, values: { name: 'x' }, baseVersion: 1 });

    expect(outcome).toMatchObject({ status: 'failed', message: 'Taken' });
    await waitFor(() => expect(button().textContent).toBe('1'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toasts()).toEqual([]);
  });

  it('what needed attention before the tab opened is counted, not announced', async () => {
    await add(A, 'Drinks', refused);
    renderStatus();
    await waitFor(() => expect(button().textContent).toBe('1'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(toasts()).toEqual([]);
  });
});

describe('the reason a refusal shows', () => {
  const german = setupI18n({ locale: 'de', messages: { de } });
  const error = { message: 'Vom Server', errors: [], status: 400 };

  it('is the outbox’s own reason in the interface language, else the server’s message, else the entry’s fallback', () => {
    expect(refusalText({ error: { ...error, reason: 'parentNotSaved' }, fallback: '' }, german)).toBe(
      'Nicht gesendet: Der Eintrag, von dem diese Änderung abhängt, konnte nicht gespeichert werden.',
    );
    expect(refusalText({ error, fallback: 'Kategorie konnte nicht angelegt werden' }, german)).toBe('Vom Server');
    expect(refusalText({ fallback: 'Kategorie konnte nicht angelegt werden' }, german)).toBe('Kategorie konnte nicht angelegt werden');
  });
});
