import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { fireEvent, render as renderBare, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { DataTable } from '../data-table';
import { KeyValueField } from './key-value-field';
import { SelectField } from './select-field';

const render = (ui: ReactNode) => renderBare(<I18nProvider i18n={i18n}>{ui}</I18nProvider>);

describe('SelectField', () => {
  it('keeps a value whose option has not loaded yet, instead of showing it as empty', () => {
    render(<SelectField label="Category" options={[{ value: 'a', label: 'Food' }]} value="b" onChange={() => {}} />);
    expect((screen.getByLabelText('Category') as HTMLSelectElement).value).toBe('b');
  });
});

describe('KeyValueField', () => {
  it('adds an entry with Enter, and refuses a key that is already in the list', () => {
    const onChange = vi.fn();
    render(<KeyValueField label="Names" keyLabel="Language code" valueLabel="Translated name" value={{ de: 'Englisch' }} onChange={onChange} />);
    const key = screen.getByLabelText('Language code');
    fireEvent.change(key, { target: { value: 'de' } });
    fireEvent.keyDown(key, { key: 'Enter' });
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('de is already in the list.')).toBeDefined();

    fireEvent.change(key, { target: { value: 'fr' } });
    fireEvent.change(screen.getByLabelText('Translated name'), { target: { value: 'Anglais' } });
    fireEvent.keyDown(key, { key: 'Enter' });
    expect(onChange).toHaveBeenCalledWith({ de: 'Englisch', fr: 'Anglais' });
  });
});

describe('DataTable', () => {
  it('sorts from the phone select as from the column headers', () => {
    const onSort = vi.fn();
    render(
      <DataTable
        caption="Categories"
        columns={[{ key: 'name', header: 'Name', sortable: true, cell: (row: { id: string; name: string }) => row.name }]}
        rows={[{ id: '1', name: 'Food' }]}
        sort={{ by: 'name', order: 'asc', onSort }}
        empty="None"
      />,
    );
    fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: 'name:desc' } });
    expect(onSort).toHaveBeenCalledWith('name', 'desc');
  });
});
