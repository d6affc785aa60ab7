// RescueLog service worker, built by vite-plugin-pwa (injectManifest) from web/vite.config.ts.
//
// What it does:
// - Precaches the app shell the build produced (HTML, JS, CSS, icons, web manifest) so the
//   app opens offline after one online visit; every navigation outside /api/ is answered
//   with the precached index.html and the React router takes it from there.
// - Waits when a new version is installed: the page shows "Update ready" and the new worker
//   takes over only when the user presses Update (SKIP_WAITING), never under the user.
// - Wakes the page's outbox drainer on a Background Sync event and when the worker starts.
//
// What it never caches: nothing under /api/ (API responses are Cache-Control: no-store and
// carry patient data), no uploaded documents (they are served under /api/objects/), and no
// runtime responses at all — only the build's own static files are in the precache.
import { clientsClaim } from 'workbox-core';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import type { PrecacheEntry } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import {
  OUTBOX_SYNC_TAG,
  clientToSwMessageSchema,
  type OutboxDrainReason,
  type SwToClientMessage,
} from '@rescuelog/sync-protocol/sw-messages';

declare const self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<PrecacheEntry | string>;
};

/** Background Sync's event is not in TypeScript's WebWorker lib (Chromium-only API). */
interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
}

const precacheManifest = self.__WB_MANIFEST;

/** The build this worker belongs to: index.html's revision changes whenever any hashed
 * asset it references changes, so it identifies the app version. */
const SW_VERSION =
  precacheManifest
    .map((entry) => (typeof entry === 'string' ? null : entry))
    .find((entry) => entry?.url === 'index.html' || entry?.url === '/index.html')?.revision ??
  'dev';

const API_PATH = /^\/api(\/|$)/;

cleanupOutdatedCaches();
precacheAndRoute(precacheManifest);

// A first install controls the open page at once so the very first visit is enough for
// offline use. An update does not: it waits for SKIP_WAITING (see the message handler).
clientsClaim();

registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), {
    denylist: [API_PATH],
  }),
);

function reply(event: ExtendableMessageEvent, message: SwToClientMessage): void {
  const port = event.ports[0];
  if (port) {
    port.postMessage(message);
    return;
  }
  event.source?.postMessage(message);
}

self.addEventListener('message', (event: ExtendableMessageEvent) => {
  const parsed = clientToSwMessageSchema.safeParse(event.data);
  if (!parsed.success) return;
  switch (parsed.data.type) {
    case 'SKIP_WAITING':
      event.waitUntil(self.skipWaiting());
      return;
    case 'GET_VERSION':
      reply(event, { type: 'SW_VERSION', version: SW_VERSION });
      return;
  }
});

/**
 * Background-sync wake-up hook: asks every open RescueLog page to drain its outbox.
 *
 * The outbox is the source of truth and lives in the page's IndexedDB; the page drains it
 * (one drainer at a time under a Web Lock) and handles 401/5xx itself, which plain
 * workbox-background-sync replay cannot. The worker's job is only to wake the pages up.
 */
async function requestOutboxDrain(reason: OutboxDrainReason): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const message: SwToClientMessage = { type: 'OUTBOX_DRAIN_REQUESTED', reason };
  for (const client of windows) client.postMessage(message);
}

self.addEventListener('sync', (event: Event) => {
  const syncEvent = event as SyncEvent;
  if (syncEvent.tag !== OUTBOX_SYNC_TAG) return;
  syncEvent.waitUntil(requestOutboxDrain('background-sync'));
});

self.addEventListener('activate', (event: ExtendableEvent) => {
  event.waitUntil(requestOutboxDrain('worker-start'));
});
