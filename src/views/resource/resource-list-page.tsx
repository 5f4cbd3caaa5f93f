import type { MessageDescriptor } from '@lingui/core';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { ArchiveRestore, CloudUpload, Pencil, Plus, RefreshCw, Trash2 } from 'lucide-react';
import { Suspense, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { Link, useParams } from 'wouter';
import { useConfirm, useToast } from '../../machines/feedback';
import { reasonOf } from '../../machines/reason';
import { useSession } from '../../api/session';
import { AddressBreaks } from '../../components/address-breaks';
import { DataTable, type DataColumn } from '../../components/data-table';
import { Button } from '../../components/form/button';
import buttonStyles from '../../components/form/form.module.css';
import { Pagination } from '../../components/pagination';
import { StatBoxes, type Stat } from '../../components/stat-boxes';
import type { Row } from '../../db/resource-store';
import { resourceText } from '../../api/resource-text';
import { useListControls, type ListControls } from '../shell/list-controls';
import { allows } from '../../contract/permissions';
import { offers, titleOf } from '../../contract/resource';
import { LoadProblem, OfflineNote } from './offline-note';
import { MediaPicture } from '../../components/media-picture';
import { ResourceFormDialog } from './resource-form';
import { BackLink } from './back-link';
import styles from './resource.module.css';
import { fieldSources, optionSources, type Column, type Filter, type ResourceScreen, type RowAction } from './screen';
import { useResourceStore } from './store-context';
import { useOptionLists, type OptionLists } from './use-option-lists';
import { useBoundResource } from './use-bound-resource';
import { useScreenRoutes } from './use-screen-routes';
import { useStatFigures } from './use-stats';
import { useListActor } from './use-list-page';
import { cellText } from './column-text';
import { useChangeTexts } from './use-change-texts';
import type { SelectOption } from '../../components/searchable-select';
import { dateFormat } from '../../components/intl-formats';
import { lazyScreen } from '../../components/lazy-screen';
import { Loading } from './loading';

interface ResourceListPageProps {
  screen: ResourceScreen;
  title: MessageDescriptor;
  /**
   * Query values the page itself sets (a parent's id, from the route): not offered as filters, shown
   * as a figure above the list, and given to new records.
   */
  fixed?: Readonly<Record<string, string>>;
  /** A link back to the parent's list. */
  back?: { href: string; label: MessageDescriptor };
  /** What the module does to the list beyond its records (load a default set), beside Add. */
  tools?: ReactNode;
}

type Editing = { id: string | null } | null;

/**
 * The list screen of any resource (spec §2 "Shared list screens"): search and filters in the header,
 * figures, a sortable table (cards on phones), pagination, and per row edit and delete where the user
 * may write. New and edited records open on their own routes or in a dialog, as the screen says.
 */
export function ResourceListPage({ screen, title, fixed, back, tools }: ResourceListPageProps) {
  const { t, i18n } = useLingui();
  const store = useResourceStore();
  const { user } = useSession();
  const { confirm, confirmDelete } = useConfirm();
  const toast = useToast();
  const params = useParams<Record<string, string>>();
  const [acting, setActing] = useState(false);
  const resource = useBoundResource(screen.resource);
  const start = { ...fixed, ...(screen.pageSize ? { limit: screen.pageSize } : {}) };
  const actor = useListActor(store, resource, start);
  const { query, searchText, page, cachedAt, error } = useSelector(actor, (snapshot) => snapshot.context);
  const loading = useSelector(actor, (snapshot) => snapshot.matches({ data: 'loading' }));
  const refreshing = useSelector(actor, (snapshot) => snapshot.matches({ data: { loading: 'refreshing' } }));
  const failed = useSelector(actor, (snapshot) => snapshot.matches({ data: 'failed' }));
  const deleting = useSelector(actor, (snapshot) => snapshot.matches({ deletion: 'deleting' }));
  const [editing, setEditing] = useState<Editing>(null);
  const titleId = useId();

  const routes = useScreenRoutes(screen.routes);
  const item = i18n._(resource.label.one);
  const items = i18n._(resource.label.other);
  // Per operation, as the server decides: a team role may edit a module's records without
  // adding or deleting any (spec §6).
  // What the entry has no route for (a log is only read) is offered to nobody.
  const may = (['create', 'update', 'delete'] as const).reduce(
    (all, operation) => ({ ...all, [operation]: offers(resource, operation) && allows(resource.access[operation], user) }),
    {} as Record<'create' | 'update' | 'delete', boolean>,
  );

  // The form dialog's choices too, so opening it does not load the same lists again.
  const sources = useMemo(
    () =>
      optionSources(
        ...(screen.filters ?? []).map((filter) => ('source' in filter ? filter.source : undefined)),
        ...screen.columns.map((column) => (column.format === 'lookup' ? column.source : undefined)),
        ...((may.create || may.update) && (!screen.routes || !screen.routes.create) ? fieldSources(screen.fields) : []),
      ),
    [screen, may.create, may.update],
  );
  // The names the page shows: its lookups' ids, and the values its fixed and chosen filters hold.
  const wanted = useMemo(() => {
    const ids: Record<string, (string | null | undefined)[]> = {};
    const want = (resourceName: string, id: unknown) => (ids[resourceName] ??= []).push(typeof id === 'string' ? id : null);
    for (const column of screen.columns) if (column.format === 'lookup') page?.items.forEach((row) => want(column.source.resource.name, row[column.key]));
    for (const filter of screen.filters ?? []) if ('source' in filter) want(filter.source.resource.name, fixed?.[filter.key] ?? query[filter.key]);
    return ids;
  }, [screen, page, fixed, query]);
  const { lists: options, search: searchOptions } = useOptionLists(sources, wanted);
  const open = useMemo(() => (screen.filters ?? []).filter((filter) => !fixed || !(filter.key in fixed)), [screen, fixed]);
  const loaded = useLoadedChoices(screen.filters);
  const changeText = useChangeTexts(screen.columns, page?.items);

  // The header's search box and filter panel drive this list (spec §2).
  const controls = useMemo<ListControls>(
    () => ({
      search: searchText,
      onSearch: (search) => actor.send({ type: 'list.search', search }),
      filters: open.map((filter) => ({
        key: filter.key,
        label: i18n._(filter.label),
        ...('source' in filter
          ? { options: options[filter.source.resource.name] ?? [], onSearch: (text: string) => searchOptions(filter.source.resource.name, text) }
          : 'choices' in filter
            ? { options: filter.choices.map((choice) => ({ value: choice.value, label: i18n._(choice.label) })) }
            : 'load' in filter
              ? { options: loaded[filter.key] ?? [] }
              : { options: [], day: true }),
      })),
      values: Object.fromEntries(
        open.map((filter) => {
          const value = query[filter.key];
          return [filter.key, value === undefined ? undefined : 'day' in filter ? dayOf(String(value)) : String(value)];
        }),
      ),
      onFilter: (key, value) => {
        const filter = open.find((candidate) => candidate.key === key);
        actor.send({ type: 'list.filter', key, value: value && filter && 'day' in filter ? momentOf(value, filter.day) : value });
      },
    }),
    [actor, i18n, open, options, loaded, searchOptions, query, searchText],
  );
  useListControls(controls);


  async function remove(row: Row) {
    if (await confirmDelete(titleOf(resource, row))) actor.send({ type: 'list.delete', id: row.id, baseVersion: row.version });
  }

  /** A screen's own row action: asked first where it says so, its outcome told by the toast it shows or the problem, then the list read again. */
  async function act(action: RowAction, row: Row) {
    const name = titleOf(resource, row);
    if (action.confirm && !(await confirm({ message: i18n._(action.confirm(name)), confirmText: i18n._(action.label(name)), cancelText: t`Cancel` }))) return;
    setActing(true);
    try {
      await action.run(row, params);
      actor.send({ type: 'list.refresh' });
    } catch (refused) {
      toast.error(reasonOf(refused));
    } finally {
      setActing(false);
    }
  }
  const rowActions = screen.rowActions ?? [];
  const mayDelete = (row: Row) => may.delete && (screen.deletion?.allowed?.(row, user) ?? true);

  const columns = screen.columns.map((column, index) => toDataColumn(column, index === 0, options, i18n, routes?.view, (row) => changeText(column, row)));
  // The server's figures (spec §2 stats boxes) where the entry has them: new ones, and per status.
  const figures = useStatFigures(resource, screen.filters ?? []);
  const stats: Stat[] = [
    { label: t`Total`, value: String(page?.pagination.totalItems ?? '–') },
    ...(page && page.pagination.totalPages > 1
      ? [{ label: t`Page`, value: `${page.pagination.currentPage} / ${page.pagination.totalPages}` }]
      : []),
    ...(screen.filters ?? [])
      .filter((filter) => fixed?.[filter.key] !== undefined)
      .map((filter) => ({
        label: i18n._(filter.label),
        value:
          'source' in filter
            ? (options[filter.source.resource.name]?.find((option) => option.value === fixed?.[filter.key])?.label ?? '…')
            : 'choices' in filter
              ? i18n._(filter.choices.find((choice) => choice.value === fixed?.[filter.key])?.label ?? filter.label)
              : 'load' in filter
                ? (loaded[filter.key]?.find((option) => option.value === fixed?.[filter.key])?.label ?? '…')
                : dateFormat(i18n.locale).format(new Date(fixed?.[filter.key] ?? '')),
      })),
    ...figures,
  ];

  const actions = (row: Row) => {
    const name = titleOf(resource, row);
    return (
      <div className={styles.rowActions}>
        {may.update &&
          (routes ? (
            <Link href={routes.edit(row.id)} className={styles.iconAction} aria-label={t`Edit ${name}`}>
              <Pencil aria-hidden size={18} />
            </Link>
          ) : (
            <button type="button" className={styles.iconAction} aria-label={t`Edit ${name}`} onClick={() => setEditing({ id: row.id })}>
              <Pencil aria-hidden size={18} />
            </button>
          ))}
        {rowActions
          .filter((action) => action.allowed?.(row, user) ?? true)
          .map((action) => (
            <button key={action.key} type="button" className={styles.iconAction} aria-label={i18n._(action.label(name))} title={i18n._(action.label(name))} disabled={acting} onClick={() => void act(action, row)}>
              <ArchiveRestore aria-hidden size={18} />
            </button>
          ))}
        {mayDelete(row) && (
          <button
            type="button"
            className={`${styles.iconAction} ${styles.danger}`}
            aria-label={screen.deletion ? i18n._(screen.deletion.label(name)) : t`Delete ${name}`}
            disabled={deleting}
            onClick={() => void remove(row)}
          >
            <Trash2 aria-hidden size={18} />
          </button>
        )}
      </div>
    );
  };

  const addLabel = t`Add ${item}`;
  const narrowed = Boolean(query.search) || open.some((filter) => query[filter.key] !== undefined);
  return (
    <section className={styles.page} aria-labelledby={titleId}>
      {back && (
        <BackLink href={back.href}>{i18n._(back.label)}</BackLink>
      )}
      <div className={styles.head}>
        <h1 id={titleId} className={styles.title}>
          {i18n._(title)}
        </h1>
        {tools}
        {may.create &&
          (routes?.create ? (
            <Link href={routes.create} className={`${buttonStyles.button} ${buttonStyles.primary}`}>
              <Plus aria-hidden size={18} />
              {addLabel}
            </Link>
          ) : (
            <Button onClick={() => setEditing({ id: null })}>
              <Plus aria-hidden size={18} />
              {addLabel}
            </Button>
          ))}
      </div>

      <StatBoxes stats={stats} />

      {refreshing && (
        <p className={styles.muted} role="status">
          <RefreshCw aria-hidden size={16} className={styles.spin} />
          <Trans>Updating…</Trans>
        </p>
      )}
      {cachedAt !== null && !loading && (
        <div className={styles.age} role="status">
          <span>
            <OfflineNote since={cachedAt} />
          </span>
          <Button variant="secondary" onClick={() => actor.send({ type: 'list.refresh' })}>
            <Trans>Try again</Trans>
          </Button>
        </div>
      )}
      {failed && <LoadProblem failed={resourceText(resource, 'loadFailed')} reason={error} onRetry={() => actor.send({ type: 'list.refresh' })} />}

      {page ? (
        <>
          {resource.order ? (
            <Suspense fallback={<p className={styles.muted}><Trans>Loading…</Trans></p>}>
              <OrderedRows
                caption={i18n._(title)}
                columns={columns}
                rows={page.items}
                actions={may.update || may.delete || rowActions.length > 0 ? actions : undefined}
                empty={narrowed ? <Trans>No {items} match your search.</Trans> : <Trans>No {items} yet.</Trans>}
                nameOf={(row) => titleOf(resource, row)}
                // The rows show the new order already; the sync's end refreshes the list (useRefreshOnSync).
                onMove={may.update && !narrowed ? (ids, before) => void store.reorder(resource, ids, before) : undefined}
              />
            </Suspense>
          ) : (
            <DataTable
              caption={i18n._(title)}
              columns={columns}
              rows={page.items}
              busy={loading && !refreshing}
              sort={{ by: query.sortBy, order: query.sortOrder, onSort: (sortBy, sortOrder) => actor.send({ type: 'list.sort', sortBy, sortOrder }) }}
              actions={may.update || may.delete || rowActions.length > 0 ? actions : undefined}
              empty={narrowed ? <Trans>No {items} match your search.</Trans> : <Trans>No {items} yet.</Trans>}
            />
          )}
          <Pagination pagination={page.pagination} disabled={loading} onPage={(next) => actor.send({ type: 'list.page', page: next })} />
        </>
      ) : (
        !failed && (
          <Loading />
        )
      )}

      {editing && (
        <ResourceFormDialog
          screen={screen}
          id={editing.id}
          defaults={fixed ?? {}}
          options={options}
          onSearch={searchOptions}
          onClose={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            actor.send({ type: 'list.refresh' });
          }}
        />
      )}
    </section>
  );
}

const pad = (n: number) => String(n).padStart(2, '0');
/** The day (`2026-11-20`) a moment falls on in the device's time zone: what a day filter shows. */
const dayOf = (moment: string) => {
  const at = new Date(moment);
  return Number.isNaN(at.getTime()) ? '' : `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
};
/** The moment a day starts or ends in the device's time zone: what a day filter asks the server for. */
const momentOf = (day: string, end: 'start' | 'end') => new Date(`${day}T${end === 'start' ? '00:00:00.000' : '23:59:59.999'}`).toISOString();

const NO_FILTERS: readonly Filter[] = [];

/** The choices of the filters that load theirs (`load`), with the route's parameters; none while they load or when they failed. */
function useLoadedChoices(filters: readonly Filter[] = NO_FILTERS): Readonly<Record<string, readonly SelectOption[]>> {
  const params = useParams<Record<string, string>>();
  const [loaded, setLoaded] = useState<Readonly<Record<string, readonly SelectOption[]>>>({});
  const key = JSON.stringify(params);
  useEffect(() => {
    let live = true;
    for (const filter of filters) {
      if (!('load' in filter)) continue;
      filter.load(JSON.parse(key) as Record<string, string>).then(
        (choices) => live && setLoaded((all) => ({ ...all, [filter.key]: choices })),
        // Offline or refused: the filter offers nothing, the list still works.
        () => undefined,
      );
    }
    return () => {
      live = false;
    };
  }, [filters, key]);
  return loaded;
}

// dnd-kit loads with the first ordered list, not with every list.
const OrderedRows = lazyScreen(() => import('./ordered-rows').then((m) => m.default));

/** What the screen's list needs besides its page's code: an ordered list's rows. */
export const listReady = (screen: ResourceScreen): Promise<unknown> => (screen.resource.order ? OrderedRows.preload() : Promise.resolve());

type I18n = ReturnType<typeof useLingui>['i18n'];

/**
 * A screen's column as the table shows it; the first one also marks rows not yet on the server
 * and, where records have a page of their own (`view`), leads there.
 */
function toDataColumn(column: Column, first: boolean, options: OptionLists, i18n: I18n, view?: (id: string) => string, changes?: (row: Row) => string): DataColumn<Row> {
  const text = (row: Row) => cellText(column, row, options, i18n, changes);
  const plain = column.format === undefined || column.format === 'text';
  const link = (plain ? column.link : undefined) ?? (first && view ? (row: Row) => view(row.id) : undefined);
  return {
    key: column.key,
    header: i18n._(column.label),
    sortable: 'sortable' in column && column.sortable,
    cell: (row) => (
      <span className={styles.cell}>
        {column.format === 'image' && (
          <MediaPicture id={column.media ? ((row[column.media] as string | null) ?? null) : null} url={typeof row[column.key] === 'string' ? (row[column.key] as string) : null} alt="" className={styles.thumb} />
        )}
        {link ? (
          <Link href={link(row)} className={styles.link}>
            <AddressBreaks text={text(row)} />
          </Link>
        ) : (
          <AddressBreaks text={text(row)} />
        )}
        {first && row.pending && (
          <span className={styles.pending}>
            <CloudUpload aria-hidden size={14} />
            <Trans>Not synced yet</Trans>
          </span>
        )}
      </span>
    ),
  };
}
