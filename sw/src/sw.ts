// RescueLog service worker, built by vite-plugin-pwa (injectManifest) from web/vite.config.ts.
//
// What it does:
// - Precaches the app shell the build produced (HTML, JS, CSS, icons, web manifest) so the
//   app opens offline after one online visit; every navigation outside /api/ is answered
//   with the precached index.html and the React router takes it from there.
// - Waits when a new version is installed: the page shows "Update ready" and the new worker
//   takes over only when the user presses Update (SKIP_WAITING), never under the user.
// - Drains the signed-in user's outbox itself (the shared client engine) on a Background
//   Sync event and when the worker starts, and wakes the open pages' drainers too.
// - Web push (push.ts): shows a pushed notification (payload parsed with the sync-protocol
//   schema, one per notification id), reports it delivered and clicked with the payload's
//   receipt, tells open pages (NOTIFICATION_RECEIVED) so the bell updates at once, opens the
//   notification's address on a click (this app's addresses in the app; others only when
//   https, in a new window), and registers a subscription the browser replaced.
//
// What it never caches: nothing under /api/ (API responses are Cache-Control: no-store and
// carry patient data), no uploaded documents (they are served under /api/objects/), no push
// payload or notification data, and no runtime responses at all — only the build's own
// static files are in the precache. When a
// session ends, the page still deletes every other cache of the origin and any /api/ entry
// (web/src/lib/sync/browser-caches.ts, decision 023), in case an older build left one.
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
import { drainActiveUserOutbox } from '@rescuelog/sync-protocol/client/worker-drain';
import { appDeviceSchema } from '@rescuelog/sync-protocol/records/device';
import { installPushHandlers } from './push';

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

installPushHandlers();

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
    case 'URL_OPENED':
      // Only ever an answer on an OPEN_URL message's own port (push.ts).
      return;
  }
});

/**
 * Background-sync wake-up hook: asks every open RescueLog page to drain its outbox.
 *
 * The outbox is the source of truth and lives in the user's IndexedDB; pages and this worker
 * drain it with the same code (one drainer at a time under a Web Lock) and handle 401/5xx
 * themselves, which plain workbox-background-sync replay cannot. Pages also pull afterwards.
 */
async function requestOutboxDrain(reason: OutboxDrainReason): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const message: SwToClientMessage = { type: 'OUTBOX_DRAIN_REQUESTED', reason };
  for (const client of windows) client.postMessage(message);
}

/**
 * The worker drains too, with the same code as the pages (sync-protocol/src/client): the
 * signed-in user's database, the same Web Lock, so a page and the worker never push at the
 * same time. A retryable failure rejects, so Background Sync schedules another attempt;
 * 401/403 and 426 resolve (retrying cannot help until the user signs in or updates).
 */
async function drainInWorker(): Promise<void> {
  const outcome = await drainActiveUserOutbox({ schema: appDeviceSchema });
  if (outcome.kind === 'retry') throw new Error(`Outbox drain will be retried: ${outcome.message}`);
}

self.addEventListener('sync', (event: Event) => {
  const syncEvent = event as SyncEvent;
  if (syncEvent.tag !== OUTBOX_SYNC_TAG) return;
  // Chromium: connectivity is back, possibly with every tab closed.
  syncEvent.waitUntil(drainInWorker().finally(() => requestOutboxDrain('background-sync')));
});

// Worker start (Safari and Firefox have no Background Sync): every time the browser starts
// this worker, e.g. for the first navigation after the device came back online.
const workerStartDrain = drainInWorker().catch(() => undefined);

self.addEventListener('activate', (event: ExtendableEvent) => {
  event.waitUntil(workerStartDrain.then(() => requestOutboxDrain('worker-start')));
});
