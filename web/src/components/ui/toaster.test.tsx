import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOAST_REMOVE_DELAY_MS, toast, useToastStore } from '@/lib/toast-store';
import { Toaster } from './toaster';

function openToasts() {
  const region = screen.getByRole('region', { name: /Messages/ });
  return within(region)
    .queryAllByRole('listitem')
    .filter((li) => li.getAttribute('data-state') === 'open');
}

describe('toasts', () => {
  afterEach(() => vi.useRealTimers());

  it('shows one at a time: a new toast replaces the previous one', () => {
    render(<Toaster />);
    act(() => {
      toast({ title: 'Login successful', description: 'Welcome back!' });
    });
    expect(openToasts()).toHaveLength(1);
    act(() => {
      toast({ title: 'Logged out', description: 'You have been logged out successfully' });
    });
    const open = openToasts();
    expect(open).toHaveLength(1);
    expect(open[0]).toHaveTextContent('Logged out');
    expect(useToastStore.getState().toasts.map((t) => t.title)).toEqual(['Logged out']);
  });

  it('can be updated and dismissed, and is removed 1,000,000 ms after dismissal', () => {
    vi.useFakeTimers();
    const id = useToastStore.getState().add({ title: 'Uploading' });
    useToastStore.getState().update(id, { title: 'Documents uploaded' });
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      title: 'Documents uploaded',
      open: true,
    });
    useToastStore.getState().dismiss(id);
    expect(useToastStore.getState().toasts[0]).toMatchObject({ open: false });
    vi.advanceTimersByTime(TOAST_REMOVE_DELAY_MS - 1);
    expect(useToastStore.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(useToastStore.getState().toasts).toHaveLength(0);
  });

  it('closes with its close button and the F8 hotkey focuses the region', async () => {
    const user = userEvent.setup();
    render(<Toaster />);
    act(() => {
      toast({ title: 'Upload failed', description: 'Network error', variant: 'destructive' });
    });
    fireEvent.keyDown(document, { key: 'F8', code: 'F8' });
    expect(screen.getByRole('region', { name: /Messages/ })).toContainElement(
      document.activeElement as HTMLElement,
    );
    await user.click(screen.getByRole('button', { name: 'Close message' }));
    expect(openToasts()).toHaveLength(0);
    expect(useToastStore.getState().toasts[0]?.open).toBe(false);
  });

  it('stays 5000 ms by default', async () => {
    const { TOAST_DURATION_MS } = await import('./toaster');
    expect(TOAST_DURATION_MS).toBe(5000);
  });
});
