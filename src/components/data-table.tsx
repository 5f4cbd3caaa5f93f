import { useLingui } from '@lingui/react/macro';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { useId, useLayoutEffect, useRef, type ReactNode } from 'react';
import styles from './data-table.module.css';

export type SortOrder = 'asc' | 'desc';

export interface DataColumn<T> {
  key: string;
  header: string;
  cell: (row: T) => ReactNode;
  /** Set for a column the rows can be sorted by. */
  sortable?: boolean;
}

export interface TableSort {
  by: string | undefined;
  order: SortOrder | undefined;
  onSort: (by: string, order: SortOrder) => void;
}

interface DataTableProps<T extends { id: string }> {
  /** Names the table for assistive technology. */
  caption: string;
  columns: readonly DataColumn<T>[];
  rows: readonly T[];
  sort: TableSort;
  /** A cell of buttons at the end of each row; a column is added for it when given. */
  actions?: (row: T) => ReactNode;
  /** Shown instead of the rows when there are none. */
  empty: ReactNode;
  /** The rows are being replaced: still shown, marked as out of date. */
  busy?: boolean;
}

/** Lays the rows out as a table when it fits its box, as cards when not. */
function fit(box: HTMLElement) {
  const table = box.querySelector('table');
  box.dataset.layout = 'table';
  if (table && table.offsetWidth > box.clientWidth) box.dataset.layout = 'cards';
}

/**
 * Cards whenever the table would not fit its box, measured rather than guessed from the window:
 * how wide a table must be depends on its columns, its words and the language (a German header,
 * an address), and a table wider than its box widens the whole page. Decided before the browser
 * paints, after every render (new rows, new words) and when the box changes size.
 */
function useCardsWhenTooWide() {
  const wrap = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (wrap.current) fit(wrap.current);
  });
  useLayoutEffect(() => {
    const box = wrap.current;
    if (!box) return;
    // Deciding again ends where it started, so this settles after one more call at most.
    const observer = new ResizeObserver(() => fit(box));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return wrap;
}

/**
 * Rows of records: a table where it fits, otherwise a stack of cards (each cell carries its
 * column's name for the card). Column headers sort; on cards a select does.
 */
export function DataTable<T extends { id: string }>({ caption, columns, rows, sort, actions, empty, busy = false }: DataTableProps<T>) {
  const { t } = useLingui();
  const sortId = useId();
  const sortable = columns.filter((column) => column.sortable);
  const wrap = useCardsWhenTooWide();

  const header = (column: DataColumn<T>) => {
    if (!column.sortable) return column.header;
    const active = sort.by === column.key;
    const next: SortOrder = active && sort.order === 'asc' ? 'desc' : 'asc';
    const Icon = !active ? ArrowUpDown : sort.order === 'desc' ? ArrowDown : ArrowUp;
    return (
      <button type="button" className={styles.sortButton} onClick={() => sort.onSort(column.key, next)}>
        {column.header}
        <Icon aria-hidden size={16} className={active ? undefined : styles.idleIcon} />
      </button>
    );
  };

  return (
    <div ref={wrap} className={styles.wrap} aria-busy={busy || undefined}>
      {sortable.length > 0 && (
        <div className={styles.phoneSort}>
          <label htmlFor={sortId}>{t`Sort by`}</label>
          <select
            id={sortId}
            className={styles.select}
            value={sort.by && sort.order ? `${sort.by}:${sort.order}` : ''}
            onChange={(event) => {
              const [by = '', order] = event.target.value.split(':');
              sort.onSort(by, order === 'desc' ? 'desc' : 'asc');
            }}
          >
            {sortable.flatMap(({ key, header: column }) => [
              <option key={`${key}:asc`} value={`${key}:asc`}>{t`${column}, ascending`}</option>,
              <option key={`${key}:desc`} value={`${key}:desc`}>{t`${column}, descending`}</option>,
            ])}
          </select>
        </div>
      )}
      {rows.length === 0 ? (
        <div className={styles.empty}>{empty}</div>
      ) : (
        <table className={styles.table}>
          <caption className={styles.caption}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th
                  key={column.key}
                  scope="col"
                  aria-sort={sort.by === column.key ? (sort.order === 'desc' ? 'descending' : 'ascending') : undefined}
                >
                  {header(column)}
                </th>
              ))}
              {actions && (
                <th scope="col">
                  <span className={styles.visuallyHidden}>{t`Actions`}</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id}>
                {columns.map((column) => (
                  <td key={column.key} data-label={column.header}>
                    {column.cell(row)}
                  </td>
                ))}
                {actions && <td className={styles.actions}>{actions(row)}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
