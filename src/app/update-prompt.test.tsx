import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { UpdatePrompt } from './update-prompt';

const registration = vi.hoisted(() => ({ waiting: false, updateServiceWorker: vi.fn<(reload?: boolean) => Promise<void>>() }));

// The real hook registers a worker; this one reports whether a new worker is waiting, as the plugin's hook does.
vi.mock('virtual:pwa-register/react', () => ({
  useRegisterSW: () => ({
    needRefresh: useState(registration.waiting),
    offlineReady: useState(false),
    updateServiceWorker: registration.updateServiceWorker,
  }),
}));

function renderPrompt() {
  return render(
    <I18nProvider i18n={i18n}>
      <UpdatePrompt />
    </I18nProvider>,
  );
}

const serviceWorker = new EventTarget();

beforeEach(() => {
  registration.updateServiceWorker.mockReset().mockResolvedValue(undefined);
  vi.stubGlobal('navigator', Object.assign(Object.create(navigator) as Navigator, { serviceWorker }));
});

describe('UpdatePrompt', () => {
  it('shows nothing while no new version waits', () => {
    registration.waiting = false;
    const { container } = renderPrompt();

    expect(container.textContent).toBe('');
  });

  it('offers a waiting version, activates it on Reload and reloads once it takes control', () => {
    registration.waiting = true;
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => {});
    renderPrompt();

    expect(screen.getByRole('status').textContent).toContain('A new version is available');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(registration.updateServiceWorker).toHaveBeenCalledWith(true);
    expect(reload).not.toHaveBeenCalled();

    serviceWorker.dispatchEvent(new Event('controllerchange'));
    expect(reload).toHaveBeenCalledOnce();
  });

  it('hides the banner on Dismiss without activating the new version', () => {
    registration.waiting = true;
    renderPrompt();

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('status')).toBeNull();
    expect(registration.updateServiceWorker).not.toHaveBeenCalled();
  });
});
