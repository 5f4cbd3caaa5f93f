import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { I18nProvider } from '@lingui/react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FIELD_KINDS, preloadFieldKinds, type FieldInputProps } from './field-kinds';
import type { Field } from './screen';

const spec = { name: 'content', label: msg`Content`, kind: 'richText' } as const satisfies Field;

/** The field as a form shows it: through its kind's lazy chunk. */
async function renderField(value: string) {
  await preloadFieldKinds([spec]);
  const onChange = vi.fn();
  const Input = FIELD_KINDS.richText as React.ComponentType<FieldInputProps>;
  const view = render(
    <I18nProvider i18n={i18n}>
      <Input spec={spec} label="Content" value={value} error={null} options={{}} onChange={onChange} />
    </I18nProvider>,
  );
  const text = await screen.findByRole('textbox', { name: 'Content' });
  return { ...view, text, onChange };
}

/**
 * Typing as a browser does it: the DOM changes at the cursor, and ProseMirror reads the change back
 * through its mutation observer (happy-dom sends no real key input).
 */
async function edit(change: () => void) {
  await act(async () => {
    change();
    await new Promise((resolve) => setTimeout(resolve, 20));
  });
}
const type = (target: HTMLElement, text: string) =>
  edit(() => {
    const paragraph = target.querySelector('p')!;
    paragraph.insertBefore(document.createTextNode(text), paragraph.firstChild);
  });

const tool = (name: string) => screen.getByRole('button', { name });

describe('the rich text field', () => {
  it('turns text typed after Bold into <strong>, and reports the HTML', async () => {
    const { text, onChange } = await renderField('');
    act(() => text.focus());
    fireEvent.click(tool('Bold'));
    expect(tool('Bold').getAttribute('aria-pressed')).toBe('true');
    await type(text, 'Hello');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p><strong>Hello</strong></p>'));
    expect(tool('Undo').getAttribute('aria-disabled')).toBeNull();
  });

  it('links an address typed into its form, with Enter applying it instead of submitting the record’s form', async () => {
    const { text, onChange } = await renderField('');
    act(() => text.focus());
    fireEvent.click(tool('Link'));
    const address = screen.getByLabelText('Link address');
    expect(document.activeElement).toBe(address);
    fireEvent.change(address, { target: { value: 'https://example.com/menu' } });
    fireEvent.click(screen.getByLabelText('Open in a new tab'));
    // Handled here: no implicit submission of the form around the editor.
    expect(fireEvent.keyDown(address, { key: 'Enter' })).toBe(false);
    await waitFor(() =>
      expect(onChange).toHaveBeenLastCalledWith('<p><a target="_blank" rel="noopener noreferrer" href="https://example.com/menu">https://example.com/menu</a></p>'),
    );
    expect(screen.queryByLabelText('Link address')).toBeNull();
  });

  it('refuses a javascript: link', async () => {
    const { text, onChange } = await renderField('');
    act(() => text.focus());
    fireEvent.click(tool('Link'));
    fireEvent.change(screen.getByLabelText('Link address'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    expect(await screen.findByText(/Use an address such as/)).toBeTruthy();
    expect(onChange).not.toHaveBeenCalled();
  });

  it('shows the value it is given and offers every tool with its name, Undo unavailable before a change', async () => {
    const { text } = await renderField('<h2>Menu</h2><ul><li><p>Pizza</p></li></ul>');
    expect(text.innerHTML).toContain('<h2>Menu</h2>');
    expect(screen.getByRole('toolbar', { name: 'Formatting of Content' })).toBeTruthy();
    for (const name of ['Bold', 'Italic', 'Heading', 'Subheading', 'Bulleted list', 'Numbered list', 'Quote', 'Link', 'Undo', 'Redo']) expect(tool(name)).toBeTruthy();
    expect(tool('Undo').getAttribute('aria-disabled')).toBe('true');
  });

  it('is one tab stop whose arrows move between the tools', async () => {
    await renderField('');
    const tabbable = screen.getAllByRole('button').filter((button) => button.tabIndex === 0);
    expect(tabbable.map((button) => button.getAttribute('aria-label'))).toEqual(['Bold']);
    act(() => tool('Bold').focus());
    fireEvent.keyDown(tool('Bold'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tool('Italic'));
    fireEvent.keyDown(tool('Italic'), { key: 'End' });
    expect(document.activeElement).toBe(tool('Redo'));
    fireEvent.keyDown(tool('Redo'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tool('Bold'));
  });

  it('keeps text typed without Bold plain, and reports an emptied editor as no text at all', async () => {
    const { text, onChange } = await renderField('');
    act(() => text.focus());
    await type(text, 'Hello');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith('<p>Hello</p>'));
    await edit(() => text.querySelector('p')!.firstChild!.remove());
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(''));
  });
});

describe('the rich-text toolbar', () => {
  it('leaves the focus in the text when a tool is pressed with a pointer, so the next key lands there', async () => {
    await renderField('<p>Open</p>');
    const bold = screen.getByRole('button', { name: 'Bold' });
    // fireEvent answers false when a handler prevented the default: the button does not take the focus.
    expect(fireEvent.mouseDown(bold)).toBe(false);
  });
});
