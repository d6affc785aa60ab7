import { act, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { captureInstallPrompt } from '@/lib/install-prompt';
import { renderApp, signedInAs } from '@/test/render-app';

function fireInstallPrompt(outcome: 'accepted' | 'dismissed') {
  const event = new Event('beforeinstallprompt', { cancelable: true }) as Event & {
    prompt: () => Promise<void>;
    userChoice: Promise<{ outcome: string; platform: string }>;
  };
  event.prompt = vi.fn(() => Promise.resolve());
  event.userChoice = Promise.resolve({ outcome, platform: 'web' });
  act(() => {
    window.dispatchEvent(event);
  });
  return event;
}

describe('Install App', () => {
  it('explains Share → Add to Home Screen in a dialog when the browser offers no prompt', async () => {
    signedInAs(null);
    const { user } = renderApp('/auth');
    await user.click(await screen.findByRole('button', { name: 'Install App' }));
    const dialog = await screen.findByRole('dialog', { name: 'Install RescueLog' });
    expect(within(dialog).getByText('Share')).toBeInTheDocument();
    expect(within(dialog).getByText('Add to Home Screen')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Got it' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("uses the browser's install prompt and hides the button once installed", async () => {
    captureInstallPrompt();
    signedInAs(null);
    const { user } = renderApp('/auth');
    const button = await screen.findByRole('button', { name: 'Install App' });
    const event = fireInstallPrompt('accepted');
    expect(event.defaultPrevented).toBe(true);
    await user.click(button);
    expect(event.prompt).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await vi.waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Install App' })).not.toBeInTheDocument(),
    );
  });

  it('is hidden when the app already runs standalone', async () => {
    const original = window.matchMedia;
    window.matchMedia = ((query: string) => ({
      ...original(query),
      matches: query === '(display-mode: standalone)',
    })) as typeof window.matchMedia;
    try {
      signedInAs(null);
      renderApp('/auth');
      await screen.findByRole('tab', { name: 'Sign In' });
      expect(screen.queryByRole('button', { name: 'Install App' })).not.toBeInTheDocument();
    } finally {
      window.matchMedia = original;
    }
  });
});
