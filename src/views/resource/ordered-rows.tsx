import { closestCenter, DndContext, KeyboardSensor, MeasuringStrategy, PointerSensor, TouchSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronUp, GripVertical } from 'lucide-react';
import { useCallback, useState, type ReactNode } from 'react';
import type { DataColumn } from '../../components/data-table';
import type { Row } from '../../db/resource-store';
import styles from './ordered-rows.module.css';
import { useWindowRows } from './use-window-rows';

/** Beyond this many rows only those in view are in the page (a menu of 2,000 dishes). */
export const LONG_LIST = 100;
/** A row's height before it is measured, and the space between rows (--space-2). */
const ROW_ESTIMATE = 72;
const ROW_GAP = 8;
// Rows come and go while a long list is dragged through: the places to drop on are measured all along.
const MEASURE_ALWAYS = { droppable: { strategy: MeasuringStrategy.Always } };

export interface OrderedRowsProps {
  caption: string;
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  actions?: (row: Row) => ReactNode;
  empty: ReactNode;
  /** How a person knows a row (the entry's title): the move buttons' and the status line's words. */
  nameOf: (row: Row) => string;
  /** Set when the person may change the order: every row's id in the new order, and in the order it was made from. */
  onMove?: (ids: string[], before: readonly string[]) => void;
}

/**
 * Children in the order a person sets (menu items, slides): dragged by their handle (a long press
 * on touch, so scrolling still scrolls), or moved one place with the up and down buttons, which
 * keyboards and screen readers reach. Loaded only where a list is ordered: dnd-kit stays out of
 * every other screen. A long list has only the rows in view in the page; the row being dragged
 * stays in it wherever the page scrolls, and a row moved by its buttons is scrolled to.
 */
export default function OrderedRows({ caption, columns, rows, actions, empty, nameOf, onMove }: OrderedRowsProps) {
  const { t } = useLingui();
  // The new order shows at once; the rows given next (the list re-read) take over, once no row is
  // being dragged: a re-read under a drag (a change heard, a sync ending) would move the rows under
  // the finger and lose the drop.
  const [order, setOrder] = useState(() => rows.map((row) => row.id));
  const [given, setGiven] = useState(rows);
  const [dragged, setDragged] = useState<string | null>(null);
  if (given !== rows && dragged === null) {
    setGiven(rows);
    setOrder(rows.map((row) => row.id));
  }
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const shown = order.flatMap((id) => byId.get(id) ?? []);
  const [status, setStatus] = useState('');
  const long = shown.length > LONG_LIST;
  const { ref: listRef, virtualizer, rows: placedRows, height } = useWindowRows<HTMLOListElement>({
    count: shown.length,
    estimate: () => ROW_ESTIMATE,
    key: (index) => shown[index]?.id ?? String(index),
    gap: ROW_GAP,
    keep: dragged === null ? null : shown.findIndex((row) => row.id === dragged),
    enabled: long,
  });

  function move(from: number, to: number) {
    if (!onMove || to < 0 || to >= shown.length || from === to) return;
    const next = arrayMove(order, from, to);
    setOrder(next);
    const name = nameOf(byId.get(order[from]!)!);
    const position = to + 1;
    const count = shown.length;
    setStatus(t`${name} is now at position ${position} of ${count}`);
    onMove(next, order);
  }
  function step(index: number, by: -1 | 1) {
    move(index, index + by);
    // The row keeps its focused button: it must not leave the rows in the page.
    if (long) virtualizer.scrollToIndex(index + by, { align: 'auto' });
  }
  function dropped({ active, over }: DragEndEvent) {
    setDragged(null);
    if (over && active.id !== over.id) move(order.indexOf(String(active.id)), order.indexOf(String(over.id)));
  }

  if (shown.length === 0) return <p className={styles.empty}>{empty}</p>;
  const rowAt = (row: Row, index: number, top?: number) => (
    <OrderedRow
      key={row.id}
      row={row}
      name={nameOf(row)}
      columns={columns}
      actions={actions}
      movable={Boolean(onMove)}
      index={index}
      count={shown.length}
      place={top === undefined ? undefined : { top, measure: virtualizer.measureElement }}
      onStep={(by) => step(index, by)}
    />
  );
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      measuring={long ? MEASURE_ALWAYS : undefined}
      onDragStart={({ active }) => setDragged(String(active.id))}
      onDragCancel={() => setDragged(null)}
      onDragEnd={dropped}
    >
      <SortableContext items={order} strategy={verticalListSortingStrategy}>
        {long ? (
          <ol ref={listRef} className={`${styles.list} ${styles.long}`} aria-label={caption} style={{ height }}>
            {placedRows.map(({ index, top }) => rowAt(shown[index]!, index, top))}
          </ol>
        ) : (
          <ol className={styles.list} aria-label={caption}>
            {shown.map((row, index) => rowAt(row, index))}
          </ol>
        )}
      </SortableContext>
      <p className={styles.status} role="status">
        {status}
      </p>
    </DndContext>
  );
}

interface OrderedRowProps {
  row: Row;
  name: string;
  columns: readonly DataColumn<Row>[];
  actions?: (row: Row) => ReactNode;
  movable: boolean;
  /** Its place among all the rows (0-based), and how many there are. */
  index: number;
  count: number;
  /** In a long list: where the row sits (px from the list's top), and how its height is told. */
  place?: { top: number; measure: (node: Element | null) => void };
  onStep: (step: -1 | 1) => void;
}

function OrderedRow({ row, name, columns, actions, movable, index, count, place, onStep }: OrderedRowProps) {
  const { t } = useLingui();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: row.id, disabled: !movable });
  const measure = place?.measure;
  const ref = useCallback(
    (node: HTMLLIElement | null) => {
      setNodeRef(node);
      measure?.(node);
    },
    [setNodeRef, measure],
  );
  const [main, ...rest] = columns;
  const first = index === 0;
  const last = index === count - 1;
  return (
    <li
      ref={ref}
      data-index={index}
      // Only some rows are in a long list's page: each says where it stands among all.
      aria-posinset={place && index + 1}
      aria-setsize={place && count}
      className={`${styles.row} ${place ? styles.placed : ''} ${isDragging ? styles.dragging : ''}`}
      style={{ top: place?.top, transform: CSS.Transform.toString(transform), transition }}
    >
      {movable && (
        <button type="button" ref={setActivatorNodeRef} className={styles.handle} aria-label={t`Drag ${name} to another place`} {...attributes} {...listeners}>
          <GripVertical aria-hidden size={18} />
        </button>
      )}
      <div className={styles.body}>
        <div className={styles.main}>{main?.cell(row)}</div>
        {rest.map((column) => (
          <div key={column.key} className={styles.detail}>
            <span className={styles.detailLabel}>{column.header}</span> {column.cell(row)}
          </div>
        ))}
      </div>
      {movable && (
        <div className={styles.steps}>
          <button type="button" className={styles.step} disabled={first} aria-label={t`Move ${name} up`} onClick={() => onStep(-1)}>
            <ChevronUp aria-hidden size={18} />
          </button>
          <button type="button" className={styles.step} disabled={last} aria-label={t`Move ${name} down`} onClick={() => onStep(1)}>
            <ChevronDown aria-hidden size={18} />
          </button>
        </div>
      )}
      {actions?.(row)}
    </li>
  );
}
