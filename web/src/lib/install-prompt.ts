// Captures the browser's install prompt as early as possible (it can fire before any screen
// that shows the Install App button has loaded) and knows whether the app is installed.
import { create } from 'zustand';

/** Chromium's BeforeInstallPromptEvent; not in the DOM typings. */
export interface BeforeInstallPromptEvent extends Event {
  prompt: () => Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform: string }>;
}

interface InstallState {
  deferredPrompt: BeforeInstallPromptEvent | null;
  installed: boolean;
}

export const useInstallStore = create<InstallState>()(() => ({
  deferredPrompt: null,
  installed: false,
}));

export function isStandalone(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  const displayStandalone =
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(display-mode: standalone)').matches;
  return iosStandalone || displayStandalone;
}

let listening = false;

export function captureInstallPrompt(): void {
  if (listening) return;
  listening = true;
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    useInstallStore.setState({ deferredPrompt: event as BeforeInstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => {
    useInstallStore.setState({ deferredPrompt: null, installed: true });
  });
}

/** Shows the browser's install prompt; false when there is none to show. */
export async function promptInstall(): Promise<boolean> {
  const prompt = useInstallStore.getState().deferredPrompt;
  if (!prompt) return false;
  await prompt.prompt();
  const choice = await prompt.userChoice;
  // A prompt can be used once; after it the browser may fire a new beforeinstallprompt.
  useInstallStore.setState({ deferredPrompt: null, installed: choice.outcome === 'accepted' });
  return true;
}
