import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { useDocumentUploads } from '@/features/auth/stores/document-uploads';
import { useInstallStore } from '@/lib/install-prompt';
import { resetToasts } from '@/lib/toast-store';
import { server } from './server';

// The first test of a file also waits for lazily loaded route code to be transformed.
configure({ asyncUtilTimeout: 4000 });

// Times in tests are written in UTC; en-GB formatting then gives stable strings.
process.env.TZ = 'UTC';

// jsdom has no matchMedia; the install button asks for (display-mode: standalone).
if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// jsdom lacks pointer capture, which Radix Toast's swipe handling calls on pointer events.
if (typeof Element.prototype.hasPointerCapture !== 'function') {
  Element.prototype.hasPointerCapture = () => false;
  Element.prototype.setPointerCapture = () => undefined;
  Element.prototype.releasePointerCapture = () => undefined;
}

let consoleErrors: string[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));

beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    consoleErrors.push(
      args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' '),
    );
  });
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  // A test's request listeners (read counters) end with it, as its handlers do.
  server.events.removeAllListeners();
  resetToasts();
  useDocumentUploads.getState().reset();
  useInstallStore.setState({ deferredPrompt: null, installed: false });
  localStorage.clear();
  const errors = consoleErrors;
  consoleErrors = [];
  if (errors.length > 0) throw new Error(`Unexpected console.error:\n${errors.join('\n---\n')}`);
});

afterAll(() => server.close());
