import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { SearchableSelect } from './searchable-select';

const options = [
  { value: 'draft', label: 'Draft' },
  { value: 'published', label: 'Published' },
];

function Harness({ initial = null }: { initial?: string | null }) {
  const [value, setValue] = useState<string | null>(initial);
  const [open, setOpen] = useState(false);
  return (
    <I18nProvider i18n={i18n}>
      <SearchableSelect label="Status" options={options} value={value} onChange={setValue} open={open} onOpenChange={setOpen} />
      <output>{value ?? 'none'}</output>
    </I18nProvider>
  );
}

describe('SearchableSelect', () => {
  it('opens, filters the options by the typed text and picks one', () => {
    render(<Harness />);
    const trigger = screen.getByRole('button', { name: 'Status All' });
    fireEvent.click(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('true');

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search Status' }), { target: { value: 'pub' } });
    expect(screen.queryByRole('button', { name: 'Draft' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Published' }));

    expect(screen.getByRole('status').textContent).toBe('published');
    expect(screen.getByRole('button', { name: 'Status Published' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('says so when nothing matches', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Status All' }));
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: 'zzz' } });

    expect(screen.getByText('No options available')).toBeDefined();
    expect(screen.getByText('No options found')).toBeDefined();
  });

  it('clears the value with the clear button', () => {
    render(<Harness initial="draft" />);
    fireEvent.click(screen.getByRole('button', { name: 'Clear Status' }));

    expect(screen.getByRole('status').textContent).toBe('none');
    expect(screen.queryByRole('button', { name: 'Clear Status' })).toBeNull();
  });
});
