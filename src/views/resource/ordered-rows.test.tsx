import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DataColumn } from '../../components/data-table';
import type { Row } from '../../db/resource-store';
import { renderScreen } from '../render-screen.test-support';
import { row } from './fake-store.test-support';
import OrderedRows, { LONG_LIST } from './ordered-rows';

const dishes = (count: number) => Array.from({ length: count }, (_, index) => row({ id: `d${index + 1}`, name: `Dish ${index + 1}` }));
const columns: DataColumn<Row>[] = [{ key: 'name', header: 'Name', cell: (item) => String(item.name) }];

const ordered = (rows: Row[], onMove: () => void) => <OrderedRows caption="Dishes" columns={columns} rows={rows} empty="None" nameOf={(item) => String(item.name)} onMove={onMove} />;

function show(rows: Row[], onMove = vi.fn()) {
  renderScreen(ordered(rows, onMove));
  return onMove;
}

const items = () => within(screen.getByRole('list', { name: 'Dishes' })).getAllByRole('listitem');
const names = () => items().map((item) => item.textContent?.match(/Dish \d/)?.[0]);

afterEach(() => {
  window.scrollTo(0, 0);
});

describe('OrderedRows', () => {
  it('puts every row of a short list in the page, each with its handle and move buttons', () => {
    show(dishes(3));
    expect(items()).toHaveLength(3);
    expect(items()[0]!.getAttribute('aria-setsize')).toBeNull();
    expect(screen.getByRole('button', { name: 'Drag Dish 2 to another place' })).toBeDefined();
    expect((screen.getByRole('button', { name: 'Move Dish 1 up' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('has only the rows in view of a menu of 2,000 in the page, each telling its place among all', async () => {
    expect(2000).toBeGreaterThan(LONG_LIST);
    show(dishes(2000));
    await waitFor(() => expect(items().length).toBeGreaterThan(0));
    expect(items().length).toBeLessThan(60);
    expect([items()[0]!.getAttribute('aria-posinset'), items()[0]!.getAttribute('aria-setsize')]).toEqual(['1', '2000']);
    expect(screen.getByRole('button', { name: 'Drag Dish 1 to another place' })).toBeDefined();
    expect(screen.queryByText('Dish 1000')).toBeNull();

    // Far down the page: the rows there are put in, the ones at the top leave.
    window.scrollTo(0, 80 * 1000);
    fireEvent.scroll(window);
    expect(await screen.findByText('Dish 1000')).toBeDefined();
    expect(screen.queryByText('Dish 1')).toBeNull();
    expect(items().length).toBeLessThan(60);
  });

  it('keeps the rows in place while one is dragged, and takes the list read meanwhile once it is dropped', async () => {
    const onMove = vi.fn();
    const { rerender } = renderScreen(ordered(dishes(3), onMove));
    // Picked up with the keyboard, as a screen reader's user does.
    const handle = screen.getByRole('button', { name: 'Drag Dish 1 to another place' });
    handle.focus();
    fireEvent.keyDown(handle, { code: 'Space', key: ' ' });
    await waitFor(() => expect(handle.getAttribute('aria-pressed')).toBe('true'));

    // The list is read again meanwhile, in another order (another device moved a row).
    rerender(ordered(dishes(3).toReversed(), onMove));
    expect(names()).toEqual(['Dish 1', 'Dish 2', 'Dish 3']);

    fireEvent.keyDown(handle, { code: 'Escape', key: 'Escape' });
    await waitFor(() => expect(names()).toEqual(['Dish 3', 'Dish 2', 'Dish 1']));
    expect(onMove).not.toHaveBeenCalled();
  });

  it('moves a row of a long list one place with its buttons: the whole new order, the order it was made from, and where it went said aloud', async () => {
    const onMove = show(dishes(2000));
    fireEvent.click(await screen.findByRole('button', { name: 'Move Dish 1 down' }));

    const ids = dishes(2000).map((item) => item.id);
    const [next, before] = onMove.mock.calls[0]!;
    expect(next.slice(0, 3)).toEqual(['d2', 'd1', 'd3']);
    expect(next).toHaveLength(2000);
    expect(before).toEqual(ids);
    expect(screen.getByText('Dish 1 is now at position 2 of 2000').getAttribute('role')).toBe('status');
    await waitFor(() => expect(items()[0]!.textContent).toContain('Dish 2'));
    expect(items()[1]!.getAttribute('aria-posinset')).toBe('2');
  });
});
