// Registers the service worker (sw/src/sw.ts, built to /sw.js) and exposes two things to
// the app: whether a new version is waiting ("Update ready"), and the worker's messages
// (parsed with the sync-protocol schema) for the outbox drainer. Registration happens once
// per page, only in a production build and only where service workers exist.
import type { Workbox } from 'workbox-window';
import {
  swToClientMessageSchema,
  type ClientToSwMessage,
  type SwToClientMessage,
} from '@rescuelog/sync-protocol/sw-messages';

export const SERVICE_WORKER_URL = '/sw.js';

/** How often an open app asks the server whether a newer worker exists. */
const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export interface PwaUpdateState {
  /** A new version is installed and waiting for the user's go-ahead. */
  updateReady: boolean;
}

type Listener = () => void;

let state: PwaUpdateState = { updateReady: false };
let waitingWorker: ServiceWorker | null = null;
let registration: Promise<Workbox | null> | null = null;
const stateListeners = new Set<Listener>();

function setState(next: PwaUpdateState): void {
  state = next;
  for (const listener of stateListeners) listener();
}

export function subscribePwaUpdate(listener: Listener): () => void {
  stateListeners.add(listener);
  return () => stateListeners.delete(listener);
}

export function getPwaUpdateState(): PwaUpdateState {
  return state;
}

function serviceWorkersAvailable(): boolean {
  return import.meta.env.PROD && typeof navigator !== 'undefined' && 'serviceWorker' in navigator;
}

function afterPageLoad(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

/** Registers the worker once; later calls return the same registration. */
export function registerServiceWorker(): Promise<Workbox | null> {
  if (registration) return registration;
  if (!serviceWorkersAvailable()) {
    registration = Promise.resolve(null);
    return registration;
  }
  registration = (async () => {
    // After the page's load event: precaching fetches the whole app shell, which must not
    // compete with the first render for a slow connection.
    await afterPageLoad();
    const { Workbox } = await import('workbox-window');
    const wb = new Workbox(SERVICE_WORKER_URL, { scope: '/' });
    // Fires for a worker that finished installing while an older one controls the page,
    // and on load when such a worker was already waiting.
    wb.addEventListener('waiting', (event) => {
      waitingWorker = event.sw ?? null;
      setState({ updateReady: true });
    });
    await wb.register();
    window.setInterval(() => void wb.update(), UPDATE_CHECK_INTERVAL_MS);
    return wb;
  })().catch((error: unknown) => {
    // The app works without a worker (just not offline); say why in the console.
    console.warn('Service worker registration failed', error);
    return null;
  });
  return registration;
}

/** The user chose "Update": the waiting worker takes over and the page reloads once. */
export function applyPwaUpdate(): void {
  const worker = waitingWorker;
  if (!worker || !serviceWorkersAvailable()) return;
  let reloaded = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloaded) return;
    reloaded = true;
    window.location.reload();
  });
  const message: ClientToSwMessage = { type: 'SKIP_WAITING' };
  worker.postMessage(message);
}

/** The user chose "Later": hide the prompt for this page load; it returns on the next one. */
export function postponePwaUpdate(): void {
  setState({ updateReady: false });
}

/**
 * Subscribes to messages from the service worker (e.g. OUTBOX_DRAIN_REQUESTED when
 * Background Sync fires). Messages that do not match the schema are ignored. `reply` answers
 * on the message's own port, when it came with one.
 */
export function onServiceWorkerMessage(
  listener: (message: SwToClientMessage, reply: (answer: ClientToSwMessage) => void) => void,
): () => void {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return () => undefined;
  const container = navigator.serviceWorker;
  const handler = (event: MessageEvent<unknown>) => {
    const parsed = swToClientMessageSchema.safeParse(event.data);
    if (!parsed.success) return;
    const port = event.ports[0];
    listener(parsed.data, (answer) => port?.postMessage(answer));
  };
  container.addEventListener('message', handler);
  return () => container.removeEventListener('message', handler);
}
