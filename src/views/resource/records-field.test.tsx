import { msg } from '@lingui/core/macro';
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../render-screen.test-support';
import { RecordsField } from './records-field';
import type { Field } from './screen';

const spec = {
  name: 'people',
  label: msg`People`,
  kind: 'records',
  item: [
    { name: 'name', label: msg`Name`, kind: 'text' },
    { name: 'vip', label: msg`VIP`, kind: 'checkbox' },
  ],
  itemTitle: 'name',
  add: msg`Add person`,
} satisfies Field;

function Harness({ initial, seen }: { initial: unknown[]; seen: unknown[][] }) {
  const [value, setValue] = useState<unknown>(initial);
  return (
    <RecordsField
      spec={spec}
      label="People"
      value={value}
      error={null}
      options={{}}
      onChange={(next) => {
        seen.push(next as unknown[]);
        setValue(next);
      }}
    />
  );
}

const names = () => (screen.getAllByLabelText('Name') as HTMLInputElement[]).map((input) => input.value);

describe('a list of small records', () => {
  it('adds blank entries, edits each through its item fields, moves and removes them', () => {
    const seen: unknown[][] = [];
    renderScreen(<Harness initial={[{ name: 'Ada', vip: false }]} seen={seen} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add person' }));
    expect(seen.at(-1)).toEqual([{ name: 'Ada', vip: false }, { name: '', vip: false }]);
    // An entry without its title field filled is named by its place.
    expect(screen.getByRole('group', { name: 'Entry 2' })).toBeDefined();

    fireEvent.change(screen.getAllByLabelText('Name')[1]!, { target: { value: 'Bob' } });
    fireEvent.click(screen.getAllByLabelText('VIP')[1]!);
    expect(seen.at(-1)).toEqual([{ name: 'Ada', vip: false }, { name: 'Bob', vip: true }]);

    const up = screen.getByRole('button', { name: 'Move Bob up' });
    up.focus();
    fireEvent.click(up);
    expect(names()).toEqual(['Bob', 'Ada']);
    // The button moved with its entry and keeps the focus there.
    expect(document.activeElement).toBe(up);
    expect(screen.getByRole('button', { name: 'Move Bob up' })).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('button', { name: 'Remove Ada' }));
    expect(seen.at(-1)).toEqual([{ name: 'Bob', vip: true }]);
    fireEvent.click(screen.getByRole('button', { name: 'Remove Bob' }));
    expect(screen.getByText('None yet.')).toBeDefined();
  });
});
