import { closestCenter, DndContext, KeyboardSensor, PointerSensor, TouchSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronUp, GripVertical } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import type { DataColumn } from '../../components/data-table';
import type { Row } from '../../db/resource-store';
import styles from './ordered-rows.module.css';

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
 * every other screen.
 */
export default function OrderedRows({ caption, columns, rows, actions, empty, nameOf, onMove }: OrderedRowsProps) {
  const { t } = useLingui();
  // The new order shows at once; the rows given next (the list re-read) take over.
  const [order, setOrder] = useState(() => rows.map((row) => row.id));
  const [given, setGiven] = useState(rows);
  if (given !== rows) {
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
  function dropped({ active, over }: DragEndEvent) {
    if (over && active.id !== over.id) move(order.indexOf(String(active.id)), order.indexOf(String(over.id)));
  }

  if (shown.length === 0) return <p className={styles.empty}>{empty}</p>;
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={dropped}>
      <SortableContext items={order} strategy={verticalListSortingStrategy}>
        <ol className={styles.list} aria-label={caption}>
          {shown.map((row, index) => (
            <OrderedRow key={row.id} row={row} name={nameOf(row)} columns={columns} actions={actions} movable={Boolean(onMove)} first={index === 0} last={index === shown.length - 1} onStep={(step) => move(index, index + step)} />
          ))}
        </ol>
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
  first: boolean;
  last: boolean;
  onStep: (step: -1 | 1) => void;
}

function OrderedRow({ row, name, columns, actions, movable, first, last, onStep }: OrderedRowProps) {
  const { t } = useLingui();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id: row.id, disabled: !movable });
  const [main, ...rest] = columns;
  return (
    <li ref={setNodeRef} className={`${styles.row} ${isDragging ? styles.dragging : ''}`} style={{ transform: CSS.Transform.toString(transform), transition }}>
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
