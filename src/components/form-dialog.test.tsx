import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FormDialog } from './form-dialog';

describe('FormDialog', () => {
  it('asks its owner to close on Escape from a control disabled under the focus, once, and keeps the browser from closing it by itself', () => {
    const onRequestClose = vi.fn();
    render(
      <I18nProvider i18n={i18n}>
        <FormDialog title="Salad" onRequestClose={onRequestClose}>
          <input type="checkbox" role="switch" aria-label="Available" disabled />
        </FormDialog>
      </I18nProvider>,
    );
    // Chromium raises no close request here (the switch is busy saving): the key itself must close.
    const handled = fireEvent.keyDown(screen.getByRole('switch', { name: 'Available' }), { key: 'Escape' });
    expect(onRequestClose).toHaveBeenCalledTimes(1);
    expect(handled).toBe(false);
  });
});
