import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigate } from 'wouter/use-browser-location';
import { toast, useConfirm } from '../machines/feedback';
import { FeedbackHost } from './feedback';

function renderHost() {
  return render(
    <I18nProvider i18n={i18n}>
      <FeedbackHost />
    </I18nProvider>,
  );
}

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms));

/** Asks, then lets the 50 ms open delay pass; the answer is recorded when it comes. */
function ask(question: (confirm: ReturnType<typeof useConfirm>) => Promise<boolean>) {
  const answer = vi.fn<(confirmed: boolean) => void>();
  act(() => void question(useConfirm()).then(answer));
  return answer;
}

async function answered(answer: ReturnType<typeof ask>) {
  await act(async () => {});
  return answer.mock.calls.map(([confirmed]) => confirmed);
}

beforeEach(() => {
  vi.useFakeTimers();
  renderHost();
});

afterEach(() => {
  // Lets the app-wide actors finish, so the next test starts with no toast and no dialog.
  advance(10_000);
  vi.useRealTimers();
});

describe('toasts', () => {
  it('shows a toast for 5000 ms, fades it for 300 ms, then removes it', () => {
    act(() => toast.success('Saved'));
    const shown = screen.getByRole('status');
    expect(shown.textContent).toContain('Saved');

    advance(4999);
    expect(shown.dataset.phase).toBe('visible');
    advance(1);
    expect(shown.dataset.phase).toBe('fading');
    advance(299);
    expect(screen.queryByRole('status')).not.toBeNull();
    advance(1);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('announces errors and warnings as alerts, successes and infos as status', () => {
    act(() => {
      toast.error('Broken');
      toast.warning('Careful');
      toast.info('Note');
    });

    expect(screen.getAllByRole('alert').map((element) => element.textContent)).toEqual(['Broken', 'Careful']);
    expect(screen.getByRole('status').textContent).toBe('Note');
  });

  it('fades a toast about the page left when the page changes, but not one shown with the move', () => {
    act(() => toast.error('Could not delete'));
    advance(2000);
    act(() => navigate('/elsewhere'));
    expect(screen.getByRole('alert').dataset.phase).toBe('fading');

    act(() => {
      toast.success('Saved');
      navigate('/list');
    });
    expect(screen.getByRole('status').dataset.phase).toBe('visible');
    advance(300);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('fades a toast at once when dismissed by hand', () => {
    act(() => toast.info('Note'));
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss notification' }));

    expect(screen.getByRole('status').dataset.phase).toBe('fading');
    advance(300);
    expect(screen.queryByRole('status')).toBeNull();
  });
});

describe('confirmation dialogs', () => {
  it('appears after 50 ms with Yes and No, focused on No, and resolves true on Yes', async () => {
    const answer = ask(({ confirm }) => confirm({ message: 'Publish the page?' }));
    advance(49);
    expect(screen.queryByRole('dialog')).toBeNull();
    advance(1);

    const dialog = screen.getByRole('dialog', { name: 'Please confirm' });
    expect(dialog.textContent).toContain('Publish the page?');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'No' }));

    fireEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(await answered(answer)).toEqual([true]);
    advance(199);
    expect(screen.queryByRole('dialog')).not.toBeNull();
    advance(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('asks deletes with the spec’s message and buttons', async () => {
    const answer = ask(({ confirmDelete }) => confirmDelete('Home'));
    advance(50);

    expect(screen.getByRole('dialog').textContent).toContain('Are you sure you want to delete Home? This action cannot be undone.');
    fireEvent.click(screen.getByRole('button', { name: 'Yes, Delete' }));
    expect(await answered(answer)).toEqual([true]);
  });

  it.each([
    ['the cancel button', () => fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))],
    ['the close button', () => fireEvent.click(screen.getByRole('button', { name: 'Close' }))],
    ['Escape', () => fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' })],
    ['the browser’s cancel (Escape, back gesture)', () => fireEvent(screen.getByRole('dialog'), new Event('cancel', { cancelable: true }))],
    ['a click on the backdrop', () => fireEvent.click(screen.getByRole('dialog'))],
  ])('resolves false on %s', async (_case, dismiss) => {
    const answer = ask(({ confirmDelete }) => confirmDelete('Home'));
    advance(50);

    dismiss();
    expect(await answered(answer)).toEqual([false]);
  });

  it('ignores a backdrop click when the caller turned it off, and clicks inside the dialog', async () => {
    const answer = ask(({ confirm }) => confirm({ message: 'Leave?', closeOnBackdrop: false, type: 'info', confirmText: 'Leave', cancelText: 'Stay' }));
    advance(50);

    fireEvent.click(screen.getByRole('dialog'));
    fireEvent.click(screen.getByText('Leave?'));
    expect(await answered(answer)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(await answered(answer)).toEqual([false]);
  });
});
