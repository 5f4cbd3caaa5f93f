import { i18n as appI18n, setupI18n, type I18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useActorRef, useSelector } from '@xstate/react';
import { CloudUpload, FolderTree, ListChecks, Pencil, Plus, Printer } from 'lucide-react';
import { useCallback, useEffect, useId, useMemo, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { Link, useParams } from 'wouter';
import { resourceText } from '../../api/resource-text';
import { ApiError } from '../../api/request';
import { catalogOf } from '../../api/catalogs';
import type { PageProps } from '../page';
import { useSession } from '../../api/session';
import { Button } from '../../components/form/button';
import buttonStyles from '../../components/form/form.module.css';
import { currencyOf, formatMoney } from '../../components/intl-formats';
import { INTERFACE_LANGUAGES, type InterfaceLanguage } from '../../contract/languages';
import { messages } from '../../contract/messages';
import { allows } from '../../contract/permissions';
import { boundTo, titleOf } from '../../contract/resource';
import { gastroAllergens, gastroCategories, gastroItems, gastroMenus } from '../../contract/resources/gastro';
import { resourceStore } from '../../db/device-store';
import { prefetchList, prefetchRecord, recordAhead, type ListPage, type ResourceStore, type Row } from '../../db/resource-store';
import { SYNCED_EVENT } from '../../db/sync-messages';
import { editorMachine } from '../../machines/editor.machine';
import { initialListQuery } from '../../machines/list.machine';
import { storeActors } from '../../machines/store-actors';
import { BackLink } from '../resource/back-link';
import { LoadProblem, OfflineNote } from '../resource/offline-note';
import resourceStyles from '../resource/resource.module.css';
import { ResourceStoreProvider, useResourceStore } from '../resource/store-context';
import { useHeldList } from '../resource/use-held-list';
import { useListActor } from '../resource/use-list-page';
import { boundParamsOf, useBoundResources } from '../resource/use-bound-resource';
import { useWindowRows } from '../resource/use-window-rows';
import { readAgain, useLiveRecord } from '../resource/use-live-record';
import { allergenName, legendQuery } from './gastro-allergens';
import { QuickEdit } from './gastro-quick-edit';
import styles from './gastro.module.css';
import { Loading } from '../resource/loading';

// Spec §2 /cms/{id}/gastromenu/{menuId}: the menu as it is printed, in the menu's own language.

const RESOURCES = [gastroMenus, gastroItems, gastroCategories, gastroAllergens] as const;
/** Beyond this many lines (dishes and headings) only those in view are in the page; printing puts all in. */
const LONG_MENU = 120;

/**
 * The store with spec §8's own words for a menu read that is answered without the menu (a
 * success without data): "No menu data returned from server".
 */
export function withMenuData(store: ResourceStore): ResourceStore {
  return {
    ...store,
    async fetchRecord(resource, id, signal) {
      try {
        return await store.fetchRecord(resource, id, signal);
      } catch (error) {
        const answered = error instanceof ApiError && error.status >= 200 && error.status < 300;
        if (resource.name === gastroMenus.name && answered) throw new ApiError(appI18n._(messages.noMenuData), error.status, error.details);
        throw error;
      }
    },
  };
}

/** Each language's catalog made once: a menu printed in a language other than the interface's. */
const catalogs = new Map<InterfaceLanguage, Promise<I18n>>();

/**
 * The words printed on the menu (the legend's heading, "not available") in the menu's language
 * when the app has a catalog for it, else in the interface's.
 */
function usePrintedWords(language: string): I18n {
  const { i18n } = useLingui();
  const wanted = language !== i18n.locale && (INTERFACE_LANGUAGES as readonly string[]).includes(language) ? (language as InterfaceLanguage) : null;
  const [loaded, setLoaded] = useState<{ language: string; i18n: I18n } | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    let catalog = catalogs.get(wanted);
    if (!catalog) {
      catalog = catalogOf(wanted).then((words) => setupI18n({ locale: wanted, messages: { [wanted]: words } }));
      catalogs.set(wanted, catalog);
    }
    catalog.then(
      (made) => live && setLoaded({ language: wanted, i18n: made }),
      () => catalogs.delete(wanted),
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  return wanted && loaded?.language === wanted ? loaded.i18n : i18n;
}

/**
 * Whether the page is being printed: then every line is in the page, not only those in view. The
 * browser says so before it lays the page out for print; flushSync renders before it does.
 */
function usePrinting(): [boolean, () => void] {
  const [printing, setPrinting] = useState(false);
  useEffect(() => {
    const before = () => flushSync(() => setPrinting(true));
    const after = () => setPrinting(false);
    const media = window.matchMedia?.('print');
    const change = (event: MediaQueryListEvent) => (event.matches ? before() : after());
    window.addEventListener('beforeprint', before);
    window.addEventListener('afterprint', after);
    media?.addEventListener?.('change', change);
    return () => {
      window.removeEventListener('beforeprint', before);
      window.removeEventListener('afterprint', after);
      media?.removeEventListener?.('change', change);
    };
  }, []);
  const print = useCallback(() => {
    flushSync(() => setPrinting(true));
    window.print();
  }, []);
  return [printing, print];
}

type Line = { kind: 'category'; key: string; name: string; description: string } | { kind: 'dish'; key: string; row: Row };

const dishLines = (rows: readonly Row[]): Line[] => rows.map((row) => ({ kind: 'dish', key: row.id, row }));

/**
 * The menu as lines: each category in its order with its dishes in theirs (dishes keep one order
 * across the menu), empty categories left out; dishes of no category (or of one not known here)
 * after them, under "More dishes" when there are categories at all.
 */
export function menuLines(items: readonly Row[], categories: readonly Row[], more: string): Line[] {
  const known = new Set(categories.map((category) => category.id));
  const byCategory = new Map<string | null, Row[]>();
  for (const item of items) {
    const category = typeof item.categoryId === 'string' && known.has(item.categoryId) ? item.categoryId : null;
    byCategory.set(category, [...(byCategory.get(category) ?? []), item]);
  }
  const lines: Line[] = categories.flatMap((category) => {
    const rows = byCategory.get(category.id);
    if (!rows) return [];
    return [{ kind: 'category' as const, key: `category ${category.id}`, name: String(category.name), description: String(category.description ?? '') }, ...dishLines(rows)];
  });
  const rest = byCategory.get(null) ?? [];
  if (rest.length > 0 && lines.length > 0) lines.push({ kind: 'category', key: 'category none', name: more, description: '' });
  return [...lines, ...dishLines(rest)];
}

/** /cms/{id}/gastromenu/{menuId} on the app's data layer; its dishes are asked for while the app still loads. */
export const GastroMenuPage = Object.assign(
  function GastroMenuPage({ title }: PageProps) {
    return (
      <ResourceStoreProvider store={resourceStore}>
        <GastroMenuView title={title} />
      </ResourceStoreProvider>
    );
  },
  {
    prefetch(params: Readonly<Record<string, string | undefined>>) {
      if (!params.menuId) return;
      const items = boundTo(gastroItems, { menuId: params.menuId });
      prefetchList(resourceStore, items, initialListQuery(items));
      // The dishes wait for the menu (its description sits above them): both are asked for at once.
      prefetchRecord(resourceStore, boundTo(gastroMenus, boundParamsOf(gastroMenus, params)), params.menuId);
    },
  },
);

/**
 * The menu as it is printed (spec §2): its categories in order, each dish with its price in the
 * menu's language and currency, its allergen letters and whether it is available, then the
 * allergen legend. Only the lines in view are in the page (a menu of 2,000 dishes); printing puts
 * all of them in, and prints nothing of the app around the menu. Who may edit taps a dish for its
 * price and availability; everyone else reads.
 */
export function GastroMenuView({ title }: PageProps) {
  const { t, i18n } = useLingui();
  const store = useResourceStore();
  const { user } = useSession();
  const { websiteId = '', menuId = '' } = useParams<{ websiteId: string; menuId: string }>();
  const [menus, items, categories, allergens] = useBoundResources(RESOURCES) as unknown as [typeof gastroMenus, typeof gastroItems, typeof gastroCategories, typeof gastroAllergens];
  const base = `/cms/${websiteId}/gastromenu`;

  // The menu itself, read as a record page reads its record: this device's copy first.
  const [menuAhead] = useState(() => recordAhead(store, menus, menuId));
  const menuMachine = useMemo(() => editorMachine.provide({ actors: storeActors(withMenuData(menuAhead)) }), [menuAhead]);
  const menuActor = useActorRef(menuMachine, { input: { resource: menus, id: menuId, blank: {} } });
  useLiveRecord(menuActor);
  const menu = useSelector(menuActor, (snapshot) => snapshot.context.loaded);
  const menuError = useSelector(menuActor, (snapshot) => snapshot.context.loadError);
  const reloadMenu = useCallback(() => readAgain(menuActor), [menuActor]);
  useEffect(() => {
    window.addEventListener(SYNCED_EVENT, reloadMenu);
    return () => window.removeEventListener(SYNCED_EVENT, reloadMenu);
  }, [reloadMenu]);

  // Its dishes, all of them in one page (an ordered list), read as every list is.
  const itemsActor = useListActor(store, items);
  const page = useSelector(itemsActor, (snapshot) => snapshot.context.page);
  const cachedAt = useSelector(itemsActor, (snapshot) => (snapshot.matches({ data: 'loading' }) ? null : snapshot.context.cachedAt));
  const itemsFailed = useSelector(itemsActor, (snapshot) => snapshot.matches({ data: 'failed' }));
  const itemsError = useSelector(itemsActor, (snapshot) => snapshot.context.error);
  // Every category and allergen this device holds, so one made offline heads its dishes at once.
  const heldCategories = useHeldList(categories, {});
  const heldLegend = useHeldList(allergens, legendQuery(allergens));
  const categoryRows = heldCategories.page?.items;
  const legend = heldLegend.page?.items;
  // The dishes wait for what would move them once shown (the menu's description, the category
  // headings between them, their allergen letters): a finger about to tap one never gets another.
  const standing = (menu !== null || menuError !== null) && heldCategories.settled && heldLegend.settled;

  // A dish saved from the sheet shows at once, without reading 2,000 dishes again; the next page read has it anyway.
  const [patched, setPatched] = useState<{ page: ListPage<Row> | null; rows: ReadonlyMap<string, Row> }>({ page: null, rows: new Map() });
  const dishes = useMemo(() => {
    const over = patched.page === page ? patched.rows : null;
    return (page?.items ?? []).map((row) => over?.get(row.id) ?? row);
  }, [page, patched]);
  const patch = (row: Row) => setPatched((before) => ({ page, rows: new Map(before.page === page ? before.rows : []).set(row.id, row) }));

  const language = String(menu?.language ?? i18n.locale);
  const printed = usePrintedWords(language);
  const more = printed._(msg`More dishes`);
  const lines = useMemo(() => (standing ? menuLines(dishes, categoryRows ?? [], more) : []), [standing, dishes, categoryRows, more]);
  const byId = useMemo(() => new Map((legend ?? []).map((row) => [row.id, row])), [legend]);
  const lettered = (legend ?? []).filter((row) => typeof row.identifier === 'string' && row.identifier !== '');

  const may = {
    edit: allows(items.access.update, user),
    add: allows(items.access.create, user),
    editMenu: allows(menus.access.update, user),
  };
  const [open, setOpen] = useState<string | null>(null);
  const opened = open ? dishes.find((row) => row.id === open) : undefined;

  const [printing, print] = usePrinting();
  const long = lines.length > LONG_MENU && !printing;
  const { ref: linesRef, virtualizer, rows: placedRows, height } = useWindowRows<HTMLDivElement>({
    count: lines.length,
    estimate: (index) => (lines[index]?.kind === 'category' ? 64 : 76),
    key: (index) => lines[index]?.key ?? String(index),
    enabled: long,
  });
  const shownLines = long ? placedRows : lines.map((_, index) => ({ index, top: undefined as number | undefined }));

  const titleId = useId();
  const legendId = useId();
  const name = menu ? titleOf(menus, menu) : i18n._(title);

  return (
    <section className={`${resourceStyles.page} ${styles.view}`} aria-labelledby={titleId}>
      <div className={styles.chrome}>
        <BackLink href={base}>
          <Trans>All food menus</Trans>
        </BackLink>
        <nav className={styles.toolbar} aria-label={t`Menu tools`}>
          {may.add && (
            <Link href={`${base}/${menuId}/items/new`} className={`${buttonStyles.button} ${buttonStyles.primary} ${styles.mainTool}`}>
              <Plus aria-hidden size={18} />
              <Trans>Add dish</Trans>
            </Link>
          )}
          {may.editMenu && (
            <Link href={`${base}/edit/${menuId}`} className={`${buttonStyles.button} ${buttonStyles.secondary}`}>
              <Pencil aria-hidden size={18} />
              <Trans context="food menu">Edit menu</Trans>
            </Link>
          )}
          <Link href={`${base}/${menuId}/categories`} className={`${buttonStyles.button} ${buttonStyles.secondary}`}>
            <FolderTree aria-hidden size={18} />
            <Trans>Categories</Trans>
          </Link>
          <Link href={`${base}/${menuId}/allergens`} className={`${buttonStyles.button} ${buttonStyles.secondary}`}>
            <ListChecks aria-hidden size={18} />
            <Trans>Allergens</Trans>
          </Link>
          <Button variant="secondary" onClick={print}>
            <Printer aria-hidden size={18} />
            <Trans>Print</Trans>
          </Button>
        </nav>
        {cachedAt !== null && (
          <p className={resourceStyles.age} role="status">
            <OfflineNote since={cachedAt} />
          </p>
        )}
        {menuError && !menu && <LoadProblem failed={resourceText(menus, 'loadFailed')} reason={menuError} onRetry={reloadMenu} />}
        {itemsFailed && <LoadProblem failed={resourceText(items, 'loadFailed')} reason={itemsError} onRetry={() => itemsActor.send({ type: 'list.refresh' })} />}
      </div>

      <article className={styles.menu} lang={language}>
        <h1 id={titleId} className={styles.menuTitle}>
          {name}
        </h1>
        {menu?.description ? <p className={styles.menuDescription}>{String(menu.description)}</p> : null}
        {(!page || !standing) && !itemsFailed && (
          <Loading className={styles.screenOnly} />
        )}
        {page && standing && lines.length === 0 && (
          <p className={`${resourceStyles.muted} ${styles.screenOnly}`}>
            <Trans>No dishes yet.</Trans>
          </p>
        )}
        <div ref={linesRef} className={long ? styles.placedLines : styles.lines} style={long ? { height } : undefined}>
          {shownLines.map(({ index, top }) => {
            const line = lines[index]!;
            const place = top === undefined ? {} : { ref: virtualizer.measureElement, 'data-index': index, style: { top } };
            if (line.kind === 'category') {
              return (
                <div key={line.key} className={`${styles.line} ${styles.categoryLine} ${top === undefined ? '' : styles.placed}`} {...place}>
                  <h2 className={styles.category}>{line.name}</h2>
                  {line.description && <p className={styles.categoryDescription}>{line.description}</p>}
                </div>
              );
            }
            return (
              <div key={line.key} className={`${styles.line} ${top === undefined ? '' : styles.placed}`} {...place}>
                <Dish
                  row={line.row}
                  language={language}
                  letters={lettersOf(line.row, byId, language)}
                  unavailable={printed._(msg`Not available`)}
                  onOpen={may.edit ? () => setOpen(line.row.id) : undefined}
                />
              </div>
            );
          })}
        </div>
        {lettered.length > 0 && (
          <section className={styles.legend} aria-labelledby={legendId}>
            <h2 id={legendId} className={styles.legendTitle}>
              {printed._(msg`Allergen information according to the Codex recommendation`)}
            </h2>
            <dl className={styles.legendList}>
              {lettered.map((row) => (
                <div key={row.id} className={styles.legendEntry}>
                  <dt>{String(row.identifier)}</dt>
                  <dd>{allergenName(row, language)}</dd>
                </div>
              ))}
            </dl>
          </section>
        )}
      </article>

      {opened && (
        <QuickEdit item={opened} resource={items} editHref={`${base}/${menuId}/items/edit/${opened.id}`} onClose={() => setOpen(null)} onSaved={patch} />
      )}
    </section>
  );
}

/** A dish's allergens as the menu prints them: their letters (a name where one has none), in the legend's order. */
function lettersOf(row: Row, byId: ReadonlyMap<string, Row>, language: string): string {
  const ids = Array.isArray(row.allergenIds) ? (row.allergenIds as string[]) : [];
  const order = [...byId.keys()];
  return ids
    .map((allergenId) => byId.get(allergenId))
    .filter((allergen): allergen is Row => allergen !== undefined)
    .toSorted((a, b) => order.indexOf(a.id) - order.indexOf(b.id))
    .map((allergen) => (typeof allergen.identifier === 'string' && allergen.identifier ? allergen.identifier : allergenName(allergen, language)))
    .join(', ');
}

interface DishProps {
  row: Row;
  language: string;
  letters: string;
  /** "Not available", in the menu's language. */
  unavailable: string;
  /** Who may edit opens the dish's price and availability; without it the dish is only read. */
  onOpen?: () => void;
}

function Dish({ row, language, letters, unavailable, onOpen }: DishProps) {
  const { t } = useLingui();
  const nameId = useId();
  const detailsId = useId();
  const available = row.available !== false;
  const price = typeof row.price === 'number' ? formatMoney(row.price, currencyOf(row), language) : '';
  const content: ReactNode = (
    <>
      <span className={styles.dishHead}>
        <span id={nameId} className={styles.dishName}>
          {String(row.name)}
        </span>
        <span className={styles.leader} aria-hidden />
        <span className={styles.price}>{price}</span>
      </span>
      <span id={detailsId} className={styles.dishDetails}>
        {row.description ? <span className={styles.description}>{String(row.description)}</span> : null}
        {letters && <span className={styles.letters}>{letters}</span>}
        {!available && <span className={styles.unavailable}>{unavailable}</span>}
        {onOpen && <span className={styles.hint}>{price ? t`${price} · Change price or availability` : t`Change price or availability`}</span>}
      </span>
      {row.pending && (
        <span className={`${resourceStyles.pending} ${styles.screenOnly}`}>
          <CloudUpload aria-hidden size={14} />
          <Trans>Not synced yet</Trans>
        </span>
      )}
    </>
  );
  const className = `${styles.dish} ${available ? '' : styles.soldOut}`;
  return onOpen ? (
    <button type="button" className={className} aria-labelledby={nameId} aria-describedby={detailsId} onClick={onOpen}>
      {content}
    </button>
  ) : (
    <div className={className}>{content}</div>
  );
}
