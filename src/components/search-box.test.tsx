import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SearchBox, suggest } from './search-box';

const labels = Array.from({ length: 15 }, (_, i) => `Option ${i + 1}`);

describe('suggest', () => {
  it('offers at most 10 distinct labels containing the text, case-insensitively', () => {
    expect(suggest(labels, 'OPTION')).toHaveLength(10);
    expect(suggest(['Active', 'Inactive', 'Active', 'Draft'], 'act')).toEqual(['Active', 'Inactive']);
  });

  it('offers nothing for blank text', () => {
    expect(suggest(labels, '  ')).toEqual([]);
  });
});

// By text: happy-dom lays <strong> out as a block, which splits the computed accessible name.
function optionByText(text: string): HTMLElement {
  const found = screen.getAllByRole('option').find((element) => element.textContent === text);
  if (!found) throw new Error(`no option ${text}`);
  return found;
}

function Harness() {
  const [value, setValue] = useState('');
  return <SearchBox label="Search" value={value} onChange={setValue} labels={['Published', 'Draft', 'Unpublished']} />;
}

describe('SearchBox', () => {
  it('suggests as the user types, with the typed part in bold', () => {
    render(<Harness />);
    const input = screen.getByRole('combobox', { name: 'Search' });
    fireEvent.change(input, { target: { value: 'publ' } });

    const options = screen.getAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Published', 'Unpublished']);
    expect(options[1]?.querySelector('strong')?.textContent).toBe('publ');
    expect(input.getAttribute('aria-expanded')).toBe('true');
  });

  it('fills the search with a clicked suggestion and closes the list', () => {
    render(<Harness />);
    const input = screen.getByRole<HTMLInputElement>('combobox');
    fireEvent.change(input, { target: { value: 'dra' } });
    fireEvent.click(optionByText('Draft'));

    expect(input.value).toBe('Draft');
    expect(screen.queryByRole('option')).toBeNull();
  });

  it('picks with the arrow keys and Enter', () => {
    render(<Harness />);
    const input = screen.getByRole<HTMLInputElement>('combobox');
    fireEvent.change(input, { target: { value: 'publ' } });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input.getAttribute('aria-activedescendant')).toBe(optionByText('Unpublished').id);
    fireEvent.keyDown(input, { key: 'Enter' });

    expect(input.value).toBe('Unpublished');
  });

  it('closes the suggestions on a click outside and on Escape', () => {
    render(<Harness />);
    const input = screen.getByRole('combobox');
    fireEvent.change(input, { target: { value: 'publ' } });
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('option')).toBeNull();

    fireEvent.change(input, { target: { value: 'pub' } });
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('option')).toBeNull();
  });
});
