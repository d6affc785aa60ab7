// Web push in the service worker (issue 16): shows what the server pushed, reports it
// delivered and clicked with the payload's receipt, tells open pages so the bell updates at
// once, opens the notification's address on a click, and keeps the subscription registered
// when the browser replaces it. Nothing here reads or writes a cache: payloads, receipts and
// notification data live only in the shown notification and in requests to /api/, which the
// worker never caches (see sw.ts).
import {
  PUSH_RECEIPTS_PATH,
  PUSH_SUBSCRIPTIONS_PATH,
  clickTarget,
  shownNotificationDataSchema,
  subscriptionInput,
  type ShownNotificationData,
} from '@rescuelog/sync-protocol/client/push-subscription';
import {
  pushPayloadSchema,
  type NotificationPriority,
  type PushPayload,
} from '@rescuelog/sync-protocol/notifications';
import {
  clientToSwMessageSchema,
  type SwToClientMessage,
} from '@rescuelog/sync-protocol/sw-messages';

declare const self: ServiceWorkerGlobalScope;

/** Options Chromium and Android honour that TypeScript's WebWorker lib does not list. */
interface FullNotificationOptions extends NotificationOptions {
  vibrate?: number[];
  renotify?: boolean;
  timestamp?: number;
}

/** The pushsubscriptionchange event (not in TypeScript's WebWorker lib). */
interface PushSubscriptionChangeEvent extends ExtendableEvent {
  readonly oldSubscription: PushSubscription | null;
  readonly newSubscription: PushSubscription | null;
}

/**
 * How each priority asks for attention where the platform allows (Android Chrome vibrates and
 * keeps high ones on screen; desktop browsers ignore vibrate). Critical and high stay until
 * the user acts on them and alert again when a newer push replaces one with the same tag.
 */
const PRIORITY_OPTIONS: Record<NotificationPriority, FullNotificationOptions> = {
  critical: { requireInteraction: true, renotify: true, vibrate: [400, 150, 400, 150, 400] },
  high: { requireInteraction: true, renotify: true, vibrate: [250, 100, 250] },
  normal: {},
  low: { silent: true },
};

function notificationOptions(
  payload: PushPayload,
  data: ShownNotificationData,
): FullNotificationOptions {
  return {
    body: payload.message,
    icon: payload.icon,
    badge: payload.badge,
    // One notification per id: a repeated push (a retry, a resend) replaces it.
    tag: payload.test ? `test-${String(payload.notificationId)}` : String(payload.notificationId),
    timestamp: Date.parse(payload.createdAt) || Date.now(),
    lang: 'en-GB',
    data,
    ...PRIORITY_OPTIONS[payload.priority],
  };
}

/** POST the receipt; the server records the delivery's delivered or clicked time. */
async function report(data: ShownNotificationData, event: 'delivered' | 'clicked'): Promise<void> {
  if (data.test || data.receipt === '') return;
  try {
    const response = await fetch(PUSH_RECEIPTS_PATH, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'rescuelog' },
      body: JSON.stringify({ receipt: data.receipt, event }),
      credentials: 'omit',
      cache: 'no-store',
    });
    if (!response.ok) console.warn(`Push receipt (${event}) refused: ${String(response.status)}`);
  } catch (error) {
    // Offline: the in-app list still shows it; the figures miss this one receipt.
    console.warn(`Push receipt (${event}) not sent`, error);
  }
}

async function tellOpenPages(notificationId: number): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const message: SwToClientMessage = { type: 'NOTIFICATION_RECEIVED', notificationId };
  for (const client of windows) client.postMessage(message);
}

function readPayload(data: PushMessageData | null): PushPayload | null {
  if (!data) {
    console.warn('Ignored a push without a payload');
    return null;
  }
  let json: unknown;
  try {
    json = data.json();
  } catch {
    console.warn('Ignored a push whose payload is not JSON');
    return null;
  }
  const parsed = pushPayloadSchema.safeParse(json);
  if (!parsed.success) {
    console.warn('Ignored a push that is not a RescueLog notification', parsed.error.issues);
    return null;
  }
  return parsed.data;
}

async function onPush(message: PushMessageData | null): Promise<void> {
  const payload = readPayload(message);
  if (!payload) return;
  const data: ShownNotificationData = {
    notificationId: payload.notificationId,
    url: payload.url,
    receipt: payload.receipt,
    test: payload.test ?? false,
  };
  await self.registration.showNotification(payload.title, notificationOptions(payload, data));
  await Promise.all([report(data, 'delivered'), tellOpenPages(payload.notificationId)]);
}

/** How long an open page has to say it went to the address before the worker navigates it. */
const PAGE_ANSWER_MS = 2000;

/** Asks the open app to go to `path` with its router (OPEN_URL); true once it answered. */
function askPageToOpen(client: WindowClient, path: string): Promise<boolean> {
  const channel = new MessageChannel();
  const answered = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), PAGE_ANSWER_MS);
    channel.port1.onmessage = (event: MessageEvent<unknown>) => {
      const answer = clientToSwMessageSchema.safeParse(event.data);
      if (!answer.success || answer.data.type !== 'URL_OPENED') return;
      clearTimeout(timer);
      resolve(true);
    };
  });
  const message: SwToClientMessage = { type: 'OPEN_URL', path };
  client.postMessage(message, [channel.port2]);
  return answered.finally(() => channel.port1.close());
}

/**
 * An address of the app: the open app window is focused and goes there with its own router
 * (no reload; a page that does not answer is navigated instead); with no window open, a new
 * one opens at the address.
 */
async function openApp(path: string): Promise<void> {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const ours = windows.filter((w) => new URL(w.url).origin === self.location.origin);
  const client = ours.find((w) => w.focused) ?? ours[0];
  if (client) {
    let shown: WindowClient = client;
    try {
      shown = await client.focus();
    } catch {
      // The browser did not let this event focus a window: it still goes to the address.
    }
    const here = new URL(shown.url);
    if (`${here.pathname}${here.search}${here.hash}` === path) return;
    if (await askPageToOpen(shown, path)) return;
    try {
      // Only a window this worker controls can be navigated; another is opened instead.
      if (await shown.navigate(path)) return;
    } catch {
      // fall through to a new window
    }
  }
  await self.clients.openWindow(path);
}

async function onNotificationClick(notification: Notification): Promise<void> {
  const parsed = shownNotificationDataSchema.safeParse(notification.data);
  const data = parsed.success ? parsed.data : null;
  const target = clickTarget(data?.url ?? null, self.location.origin);
  const opening =
    target.kind === 'app' ? openApp(target.path) : self.clients.openWindow(target.href);
  await Promise.all([opening, data ? report(data, 'clicked') : Promise.resolve()]);
}

/**
 * The browser replaced the subscription (keys expired or the push service moved it): the new
 * one is registered with the server right away when a session is open. When this fails (no
 * session, offline) the page registers it on its next start (lib/push-device.ts), and the old
 * endpoint stops working, so the server drops it at its next send.
 */
async function onSubscriptionChange(event: PushSubscriptionChangeEvent): Promise<void> {
  const key = event.oldSubscription?.options.applicationServerKey ?? null;
  const subscription =
    event.newSubscription ??
    (key
      ? await self.registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: key,
        })
      : null);
  if (!subscription) return;
  const body = subscriptionInput(subscription, self.navigator.userAgent);
  if (!body.ok) return;
  const response = await fetch(PUSH_SUBSCRIPTIONS_PATH, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'rescuelog' },
    body: JSON.stringify(body.input),
    credentials: 'include',
    cache: 'no-store',
  });
  if (!response.ok) return;
  const old = event.oldSubscription?.endpoint;
  if (old && old !== subscription.endpoint) {
    await fetch(PUSH_SUBSCRIPTIONS_PATH, {
      method: 'DELETE',
      headers: { 'Content-Type': 'application/json', 'X-Requested-With': 'rescuelog' },
      body: JSON.stringify({ endpoint: old }),
      credentials: 'include',
      cache: 'no-store',
    });
  }
}

export function installPushHandlers(): void {
  self.addEventListener('push', (event: PushEvent) => {
    event.waitUntil(onPush(event.data));
  });

  self.addEventListener('notificationclick', (event: NotificationEvent) => {
    event.notification.close();
    event.waitUntil(onNotificationClick(event.notification));
  });

  self.addEventListener('pushsubscriptionchange', (event: Event) => {
    const change = event as PushSubscriptionChangeEvent;
    change.waitUntil(onSubscriptionChange(change).catch(() => undefined));
  });
}
