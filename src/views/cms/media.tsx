import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { Camera, ImageUp, TriangleAlert } from 'lucide-react';
import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type ChangeEvent } from 'react';
import type { PageProps } from '../page';
import { useConfirm } from '../../machines/feedback';
import { actionPath } from '../../api/action';
import { useSession } from '../../api/session';
import { resourceText } from '../../api/resource-text';
import { IMAGE_TYPES } from '../../api/upload';
import { Button } from '../../components/form/button';
import formStyles from '../../components/form/form.module.css';
import { UploadFailure, uploadRefusal } from '../../components/upload-failure';
import { messages } from '../../contract/messages';
import { allows } from '../../contract/permissions';
import { media, uploadMedia } from '../../contract/resources/cms';
import { uuidv7 } from '../../contract/uuid';
import type { OutboxEntry } from '../../db/database';
import type { ListPage, Row } from '../../db/resource-store';
import { NoRoomError } from '../../db/storage-room';
import { resourceStore } from '../../db/device-store';
import { uploadOrQueue } from '../../db/upload-or-queue';
import { useQueuedUploads } from '../../db/use-queued-uploads';
import { type ListQuery } from '../../machines/store-actors';
import { Allowed } from '../resource/no-access';
import { LoadProblem, OfflineNote } from '../resource/offline-note';
import { ResourceFormDialog } from '../resource/resource-form';
import resourceStyles from '../resource/resource.module.css';
import type { ResourceScreen } from '../resource/screen';
import { ResourceStoreProvider, useResourceStore } from '../resource/store-context';
import { useListActor, useListPage } from '../resource/use-list-page';
import { useBoundResource } from '../resource/use-bound-resource';
import { useWindowRows } from '../resource/use-window-rows';
import { useListControls, type ListControls } from '../shell/list-controls';
import { CmsBackLink } from './cms-back-link';
import { MediaDetails, MediaTile, QueuedDetails, QueuedTile, SendingTile, type Sending } from './media-tiles';
import styles from './media.module.css';

// Spec §2 /cms/{id}/media, §7 Media, §3 media upload fields (file(s), alt, description, folder,
// compressImages): the website's files as a grid of thumbnails that stays smooth with thousands of
// them, read a page at a time through the list machinery; uploads at once online, through the
// outbox offline (ADR 013).

/** Rows per read: the server's most. */
const PAGE_SIZE = 100;
/** The library's first page: the newest pictures first. */
const FIRST_QUERY = { limit: PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'desc' } as const;
/** The smallest tile, and the space between tiles (px): three across a 360 px phone. */
const MIN_TILE = 104;
const GAP = 8;
/** The file name under a tile. */
const CAPTION = 40;

const screen = {
  resource: media,
  columns: [],
  fields: [
    { name: 'alt', label: msg`Alternative text`, kind: 'text', hint: msg`What the picture shows, for people who cannot see it` },
    { name: 'description', label: msg`Description`, kind: 'textarea' },
    { name: 'folder', label: msg`Folder`, kind: 'text' },
  ],
} satisfies ResourceScreen;

const SORTS = [
  { value: 'createdAt:desc', label: msg`Newest first` },
  { value: 'createdAt:asc', label: msg`Oldest first` },
  { value: 'fileName:asc', label: msg`Name A–Z` },
  { value: 'fileName:desc', label: msg`Name Z–A` },
  { value: 'size:desc', label: msg`Largest first` },
  { value: 'size:asc', label: msg`Smallest first` },
] as const;

/** `mimetype` matches a type's family (contract/resources/cms.ts): PDFs are the documents. */
const TYPES = [
  { value: '', label: msg`All files` },
  { value: 'image', label: msg`Images` },
  { value: 'application', label: msg`Documents` },
] as const;

/** What a person may upload: the images the server takes, and PDFs; phones offer their camera too. */
const ACCEPT = [...IMAGE_TYPES, 'application/pdf'].join(',');


/** A refusal of an upload sent at once, kept until the person dismisses it. */
interface Refusal {
  id: string;
  name: string;
  message: string;
  status: number;
  details: unknown;
}

type Tile = { kind: 'sending'; sending: Sending } | { kind: 'queued'; entry: OutboxEntry } | { kind: 'row'; index: number };

/** One page of the list past the first, read through the list machinery (device first, then server) while it is in view. */
function PageReader({ query, onPage }: { query: Partial<ListQuery>; onPage: (page: number, read: ListPage<Row>) => void }) {
  const resource = useBoundResource(media);
  // Only the first page's failure is shown (the library's own); a later page that fails leaves its tiles empty.
  const read = useListPage(resource, query).page;
  useEffect(() => {
    if (read) onPage(Number(query.page), read);
  }, [read, query.page, onPage]);
  return null;
}

/** /cms/{id}/media on the app's data layer. */
export function MediaPage({ title }: PageProps) {
  return (
    <ResourceStoreProvider store={resourceStore}>
      <Allowed policy={media.access.list} title={title}>
        <MediaLibrary title={title} />
      </Allowed>
    </ResourceStoreProvider>
  );
}

/**
 * The media library: search (the header's box), folder, type and order; a virtualized grid (only
 * the rows in view are in the page, and only their pages are read); files picked or photographed
 * are uploaded with a folder and the compress switch; a file opens its details, to edit (the
 * generic form) or delete.
 */
export function MediaLibrary({ title }: PageProps) {
  const { t, i18n } = useLingui();
  const store = useResourceStore();
  const { user } = useSession();
  const { confirmDelete } = useConfirm();
  const resource = useBoundResource(media);
  const actor = useListActor(store, resource, FIRST_QUERY);
  const { query, searchText, page: first, cachedAt, error } = useSelector(actor, (snapshot) => snapshot.context);
  const failed = useSelector(actor, (snapshot) => snapshot.matches({ data: 'failed' }));
  const loading = useSelector(actor, (snapshot) => snapshot.matches({ data: 'loading' }));
  const deleting = useSelector(actor, (snapshot) => snapshot.matches({ deletion: 'deleting' }));
  const titleId = useId();
  const may = { create: allows(resource.access.create, user), update: allows(resource.access.update, user), delete: allows(resource.access.delete, user) };

  // Every page read past the first, for the query on show; a new query starts over.
  const queryKey = JSON.stringify({ ...query, page: undefined });
  const [read, setRead] = useState<{ key: string; pages: Map<number, Row[]> }>({ key: queryKey, pages: new Map() });
  const pages = read.key === queryKey ? read.pages : null;
  const onPage = useCallback(
    (page: number, list: ListPage<Row>) =>
      setRead((before) => {
        const kept = before.key === queryKey ? before.pages : new Map<number, Row[]>();
        return { key: queryKey, pages: new Map(kept).set(page, list.items) };
      }),
    [queryKey],
  );
  // Pages past the first read again after a change (an upload, an edit, a delete) or a sync.
  const [round, setRound] = useState(0);
  const refresh = useCallback(() => {
    actor.send({ type: 'list.refresh' });
    setRound((n) => n + 1);
  }, [actor]);
  useEffect(() => {
    let was = false;
    const subscription = actor.subscribe((snapshot) => {
      const now = snapshot.matches({ deletion: 'deleting' });
      if (was && !now) setRound((n) => n + 1);
      was = now;
    });
    return () => subscription.unsubscribe();
  }, [actor]);

  // The header's search box drives the search; the page's own controls the rest.
  const controls = useMemo<ListControls>(
    () => ({ search: searchText, onSearch: (search) => actor.send({ type: 'list.search', search }), filters: [], values: {}, onFilter: () => {} }),
    [actor, searchText],
  );
  useListControls(controls);

  const [folder, setFolder] = useState(String(query.folder ?? ''));
  useEffect(() => {
    const timer = setTimeout(() => {
      if (folder.trim() !== String(query.folder ?? '')) actor.send({ type: 'list.filter', key: 'folder', value: folder.trim() || null });
    }, 300);
    return () => clearTimeout(timer);
  }, [folder, query.folder, actor]);

  // Uploads: sending now, waiting in the outbox (or refused there), refused at once.
  const queued = useQueuedUploads(media.name, resource.boundKey);
  const [sending, setSending] = useState<Sending[]>([]);
  const [refusals, setRefusals] = useState<Refusal[]>([]);
  const [noRoom, setNoRoom] = useState(false);
  const [compress, setCompress] = useState(true);
  const [uploadFolder, setUploadFolder] = useState('');
  const fileInput = useRef<HTMLInputElement>(null);
  const cameraInput = useRef<HTMLInputElement>(null);

  async function upload(files: File[]) {
    setNoRoom(false);
    const batch = files.map((file) => ({ file, sending: { id: uuidv7(), name: file.name, preview: file.type.startsWith('image/') ? URL.createObjectURL(file) : null } }));
    setSending((before) => [...batch.map((item) => item.sending), ...before]);
    // One at a time: a phone's connection is shared, and each file's answer shows as it comes.
    for (const { file, sending: item } of batch) {
      try {
        await uploadOrQueue(
          {
            resource: media.name,
            scope: resource.boundKey,
            entityId: item.id,
            // The library is bound to its website alone: its key is the website's id.
            path: actionPath(uploadMedia, { params: { websiteId: resource.boundKey } }),
            fields: { folder: (uploadFolder || folder).trim(), compressImages: String(compress) },
            file: { field: 'file', blob: file, name: file.name },
            label: { item: i18n._(media.label.one), title: file.name },
            fallback: i18n._(messages.uploadFailed),
          },
          { entity: resource.entity },
        );
      } catch (problem) {
        if (problem instanceof NoRoomError) setNoRoom(true);
        else {
          setRefusals((before) => [...before, { id: item.id, name: file.name, ...uploadRefusal(problem, i18n) }]);
        }
      } finally {
        if (item.preview) URL.revokeObjectURL(item.preview);
        setSending((before) => before.filter((other) => other.id !== item.id));
      }
    }
    refresh();
  }

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = [...(event.target.files ?? [])];
    event.target.value = '';
    if (files.length > 0) void upload(files);
  };

  // The grid: this screen's uploads first, then the server's files in the order asked for.
  const local: Tile[] = [...sending.map((item) => ({ kind: 'sending' as const, sending: item })), ...queued.map((entry) => ({ kind: 'queued' as const, entry }))];
  const total = first?.pagination.totalItems ?? 0;
  const count = local.length + total;
  const rowAt = (index: number): Row | undefined => {
    const page = Math.floor(index / PAGE_SIZE) + 1;
    return (page === 1 ? first?.items : pages?.get(page))?.[index % PAGE_SIZE];
  };

  // Rows of tiles, as many to a row as the grid's width holds; where the grid starts on the page
  // (below a warning, a refusal) is measured by useWindowRows.
  const [width, setWidth] = useState(0);
  const columns = Math.max(2, Math.floor((width + GAP) / (MIN_TILE + GAP)));
  const tileSize = width > 0 ? (width - GAP * (columns - 1)) / columns : MIN_TILE;
  const rowHeight = tileSize + CAPTION + GAP;
  const { ref: grid, virtualizer, rows, height } = useWindowRows<HTMLDivElement>({
    count: Math.ceil(count / columns),
    estimate: () => rowHeight,
    key: String,
    overscan: 3,
    enabled: true,
  });
  useLayoutEffect(() => {
    const element = grid.current;
    if (!element) return;
    // Rows are never measured, only estimated: a new width places them all again.
    const measure = () => {
      setWidth(element.clientWidth);
      virtualizer.measure();
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [grid, virtualizer]);

  // The pages past the first that the rows in view (and the few around them) show.
  const wanted = [
    ...new Set(
      rows.flatMap((row) =>
        Array.from({ length: columns }, (_, column) => row.index * columns + column - local.length)
          .filter((index) => index >= PAGE_SIZE && index < total)
          .map((index) => Math.floor(index / PAGE_SIZE) + 1),
      ),
    ),
  ];

  const [open, setOpen] = useState<{ tile: 'row'; id: string } | { tile: 'queued'; seq: number } | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const openRow = open?.tile === 'row' ? [first?.items, ...(pages?.values() ?? [])].flatMap((items) => items ?? []).find((row) => row.id === open.id) : undefined;
  const openQueued = open?.tile === 'queued' ? queued.find((entry) => entry.seq === open.seq) : undefined;

  async function remove(row: Row) {
    if (!(await confirmDelete(String(row.fileName)))) return;
    setOpen(null);
    actor.send({ type: 'list.delete', id: row.id, baseVersion: row.version });
  }

  const tileOf = (index: number): Tile => local[index] ?? { kind: 'row', index: index - local.length };

  return (
    <section className={resourceStyles.page} aria-labelledby={titleId}>
      <CmsBackLink />
      <div className={resourceStyles.head}>
        <h1 id={titleId} className={resourceStyles.title}>
          {i18n._(title)}
        </h1>
        {may.create && (
          <div className={styles.add}>
            <input ref={fileInput} className={styles.input} type="file" multiple accept={ACCEPT} aria-label={t`Choose files to upload`} tabIndex={-1} onChange={pick} />
            <input ref={cameraInput} className={styles.input} type="file" accept="image/*" capture="environment" aria-label={t`Take a photo to upload`} tabIndex={-1} onChange={pick} />
            <Button onClick={() => fileInput.current?.click()}>
              <ImageUp aria-hidden size={18} />
              <Trans>Upload files</Trans>
            </Button>
            <Button variant="secondary" onClick={() => cameraInput.current?.click()}>
              <Camera aria-hidden size={18} />
              <Trans>Take a photo</Trans>
            </Button>
          </div>
        )}
      </div>

      {may.create && (
        <fieldset className={styles.uploadOptions}>
          <legend className={styles.legend}>
            <Trans>New files</Trans>
          </legend>
          <label className={formStyles.field}>
            <span className={formStyles.label}>
              <Trans>Folder</Trans>
            </span>
            <input className={formStyles.input} value={uploadFolder} placeholder={folder} maxLength={120} onChange={(event) => setUploadFolder(event.target.value)} />
          </label>
          <label className={styles.switch}>
            <input type="checkbox" role="switch" checked={compress} onChange={(event) => setCompress(event.target.checked)} />
            <span>
              <Trans>Compress images</Trans>
            </span>
          </label>
        </fieldset>
      )}

      <div className={styles.toolbar}>
        <label className={formStyles.field}>
          <span className={formStyles.label}>
            <Trans>Folder</Trans>
          </span>
          <input className={formStyles.input} type="search" value={folder} placeholder={t`All folders`} maxLength={120} onChange={(event) => setFolder(event.target.value)} />
        </label>
        <label className={formStyles.field}>
          <span className={formStyles.label}>
            <Trans>Type</Trans>
          </span>
          <select
            className={formStyles.input}
            value={String(query.mimetype ?? '')}
            onChange={(event) => actor.send({ type: 'list.filter', key: 'mimetype', value: event.target.value || null })}
          >
            {TYPES.map((type) => (
              <option key={type.value} value={type.value}>
                {i18n._(type.label)}
              </option>
            ))}
          </select>
        </label>
        <label className={formStyles.field}>
          <span className={formStyles.label}>
            <Trans>Order</Trans>
          </span>
          <select
            className={formStyles.input}
            value={`${String(query.sortBy)}:${String(query.sortOrder)}`}
            onChange={(event) => {
              const [sortBy = 'createdAt', sortOrder] = event.target.value.split(':');
              actor.send({ type: 'list.sort', sortBy, sortOrder: sortOrder === 'asc' ? 'asc' : 'desc' });
            }}
          >
            {SORTS.map((sort) => (
              <option key={sort.value} value={sort.value}>
                {i18n._(sort.label)}
              </option>
            ))}
          </select>
        </label>
      </div>

      {noRoom && (
        <p className={styles.warning} role="alert">
          <TriangleAlert aria-hidden size={18} />
          <Trans>This device has no room left to keep the files until they can be uploaded. Free up some space, or upload them when you are online.</Trans>
        </p>
      )}
      {refusals.map((refusal) => (
        <div key={refusal.id} className={styles.refusal}>
          <p className={styles.refusalName}>{refusal.name}</p>
          <UploadFailure message={refusal.message} status={refusal.status} details={refusal.details} />
          <Button variant="secondary" onClick={() => setRefusals((before) => before.filter((item) => item.id !== refusal.id))}>
            <Trans>Dismiss</Trans>
          </Button>
        </div>
      ))}
      {cachedAt !== null && !loading && (
        <p className={resourceStyles.age} role="status">
          <OfflineNote since={cachedAt} />
        </p>
      )}
      {failed && <LoadProblem failed={resourceText(resource, 'loadFailed')} reason={error} onRetry={refresh} />}
      {first && count === 0 && (
        <p className={resourceStyles.muted}>
          <Trans>No files yet.</Trans>
        </p>
      )}

      {wanted.map((page) => (
        <PageReader key={`${queryKey} ${page} ${round}`} query={{ ...query, page }} onPage={onPage} />
      ))}

      <div ref={grid} className={styles.grid} role="list" aria-label={t`Files`} aria-busy={loading || undefined} style={{ height }}>
        {rows.map((row) => (
          <div
            key={row.key}
            role="none"
            className={styles.row}
            style={{ transform: `translateY(${row.top}px)`, gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap: GAP, height: rowHeight - GAP }}
          >
            {Array.from({ length: columns }, (_, column) => row.index * columns + column)
              .filter((index) => index < count)
              .map((index) => {
                const tile = tileOf(index);
                const position = { 'aria-setsize': count, 'aria-posinset': index + 1 };
                if (tile.kind === 'sending') return <SendingTile key={tile.sending.id} sending={tile.sending} size={tileSize} position={position} />;
                if (tile.kind === 'queued') {
                  return <QueuedTile key={tile.entry.seq} entry={tile.entry} size={tileSize} position={position} onOpen={() => setOpen({ tile: 'queued', seq: tile.entry.seq! })} />;
                }
                const item = rowAt(tile.index);
                return item ? (
                  <MediaTile key={item.id} row={item} size={tileSize} position={position} onOpen={() => setOpen({ tile: 'row', id: item.id })} />
                ) : (
                  <div key={`placeholder ${index}`} role="listitem" {...position} className={styles.tile} aria-busy="true">
                    <span className={styles.frame} style={{ height: tileSize }} />
                  </div>
                );
              })}
          </div>
        ))}
      </div>

      {openRow && (
        <MediaDetails
          row={openRow}
          may={may}
          deleting={deleting}
          onClose={() => setOpen(null)}
          onEdit={() => {
            setOpen(null);
            setEditing(openRow.id);
          }}
          onDelete={() => void remove(openRow)}
        />
      )}
      {openQueued && <QueuedDetails entry={openQueued} onClose={() => setOpen(null)} />}
      {editing && (
        <ResourceFormDialog
          screen={screen}
          id={editing}
          defaults={{}}
          options={{}}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            refresh();
          }}
        />
      )}
    </section>
  );
}
