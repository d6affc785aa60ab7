// Web push on this device (issue 16): whether it can receive notifications, turning them on
// and off, keeping the server's copy of the subscription current, and removing it at logout.
// Loaded on demand (the offer card, the profile section, the start-up check, logout), never
// on the first render. The permission prompt only ever follows a tap on "Turn on".
//
// One browser holds one subscription for the app, whoever is signed in; the server keeps it
// per user (a user may have several devices). The page remembers whose it is
// (devicePushRecordSchema) so a subscription left by someone else is dropped, not adopted.
import {
  PUSH_SUBSCRIPTIONS_PATH,
  PUSH_TEST_PATH,
  VAPID_PUBLIC_KEY_PATH,
  applicationServerKeyBytes,
  devicePushRecordSchema,
  madeWithKey,
  subscriptionInput,
  type DevicePushRecord,
} from '@rescuelog/sync-protocol/client/push-subscription';
import {
  pushSubscriptionListSchema,
  pushSubscriptionResponseSchema,
  pushTestResponseSchema,
  vapidPublicKeySchema,
} from '@rescuelog/sync-protocol/notifications';
import { errorMessage, getJson, HttpError, sendJson, sendWithoutAnswer } from './api-client';
import { registerServiceWorker } from './pwa-register';

export const DEVICE_PUSH_KEY = 'rescuelog.pushDevice';
const OFFER_DISMISSED_PREFIX = 'rescuelog.pushOfferDismissed.';
/** How long to wait for the service worker to become active before saying it is not there. */
const WORKER_WAIT_MS = 20_000;

/** Why this device cannot receive push at all. */
export type PushUnavailable =
  /** No Push API, Notifications or service workers in this browser (or not a secure page). */
  | 'no-push-api'
  /** The app's service worker is not running here (a development build, or it failed). */
  | 'no-worker';

export type DevicePushState =
  | { available: false; reason: PushUnavailable }
  | {
      available: true;
      permission: NotificationPermission;
      /** This browser holds a subscription registered for this user. */
      subscribed: boolean;
    };

/** A step of turning push on failed; `message` says what and what to do. */
export class PushSetupError extends Error {
  override readonly name = 'PushSetupError';
}

function pushApiPresent(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

function delay(ms: number): Promise<null> {
  return new Promise((resolve) => setTimeout(() => resolve(null), ms));
}

/** The app's active service worker registration, or null when there is none. */
async function pushRegistration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushApiPresent()) return null;
  // Registers it if the page has not yet (a no-op in development builds).
  void registerServiceWorker();
  const existing = await navigator.serviceWorker.getRegistration();
  if (existing?.active) return existing;
  return Promise.race([navigator.serviceWorker.ready, delay(WORKER_WAIT_MS)]);
}

export function readDeviceRecord(): DevicePushRecord | null {
  try {
    const raw = localStorage.getItem(DEVICE_PUSH_KEY);
    if (raw === null) return null;
    const parsed = devicePushRecordSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function writeDeviceRecord(record: DevicePushRecord | null): void {
  try {
    if (record) localStorage.setItem(DEVICE_PUSH_KEY, JSON.stringify(record));
    else localStorage.removeItem(DEVICE_PUSH_KEY);
  } catch {
    // Storage disabled: the start-up check then treats the subscription as someone else's.
  }
}

/** The user said "Not now" to the offer on this device. */
export function offerDismissed(userId: number): boolean {
  try {
    return localStorage.getItem(`${OFFER_DISMISSED_PREFIX}${String(userId)}`) === '1';
  } catch {
    return false;
  }
}

export function dismissOffer(userId: number): void {
  try {
    localStorage.setItem(`${OFFER_DISMISSED_PREFIX}${String(userId)}`, '1');
  } catch {
    // Storage disabled: the offer shows again next time.
  }
}

/** Whether this device can receive push, is allowed to, and is subscribed for `userId`. */
export async function readDevicePush(userId: number): Promise<DevicePushState> {
  if (!pushApiPresent()) return { available: false, reason: 'no-push-api' };
  const registration = await pushRegistration();
  if (!registration) return { available: false, reason: 'no-worker' };
  const subscription = await registration.pushManager.getSubscription();
  const permission = Notification.permission;
  return {
    available: true,
    permission,
    subscribed:
      permission === 'granted' && subscription !== null && readDeviceRecord()?.userId === userId,
  };
}

async function vapidKey(): Promise<string> {
  return (await getJson(VAPID_PUBLIC_KEY_PATH, vapidPublicKeySchema)).publicKey;
}

/** A subscription made with the server's current key (an older one is replaced). */
async function subscribeWithKey(
  registration: ServiceWorkerRegistration,
  publicKey: string,
): Promise<PushSubscription> {
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !madeWithKey(subscription, publicKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (subscription) return subscription;
  try {
    return await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: applicationServerKeyBytes(publicKey),
    });
  } catch (error) {
    throw new PushSetupError(
      `The browser's push service did not register this device (${errorMessage(error)}). Check the connection and try again.`,
    );
  }
}

/** Sends this browser's subscription to the server as `userId`'s, and remembers it. */
async function registerWithServer(subscription: PushSubscription, userId: number): Promise<void> {
  const body = subscriptionInput(subscription, navigator.userAgent);
  if (!body.ok) throw new PushSetupError(body.message);
  await sendJson('POST', PUSH_SUBSCRIPTIONS_PATH, pushSubscriptionResponseSchema, body.input);
  const previous = readDeviceRecord();
  writeDeviceRecord({ userId, endpoint: subscription.endpoint });
  // The browser replaced the subscription: the server forgets the old endpoint.
  if (previous && previous.userId === userId && previous.endpoint !== subscription.endpoint) {
    await forgetOnServer(previous.endpoint).catch(() => undefined);
  }
}

async function forgetOnServer(endpoint: string): Promise<void> {
  try {
    await sendWithoutAnswer('DELETE', PUSH_SUBSCRIPTIONS_PATH, { endpoint });
  } catch (error) {
    // Already gone is what we wanted.
    if (error instanceof HttpError && error.status === 404) return;
    throw error;
  }
}

/**
 * "Turn on notifications": asks the browser's permission (only ever after the user's tap),
 * subscribes with the server's VAPID key and registers the subscription. Resolves with the
 * new state (permission 'denied' or 'default' when the user did not allow it); rejects with
 * a PushSetupError or the API's error when a step failed.
 */
export async function enableDevicePush(userId: number): Promise<DevicePushState> {
  if (!pushApiPresent()) return { available: false, reason: 'no-push-api' };
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return { available: true, permission, subscribed: false };
  const registration = await pushRegistration();
  if (!registration) return { available: false, reason: 'no-worker' };
  const subscription = await subscribeWithKey(registration, await vapidKey());
  try {
    await registerWithServer(subscription, userId);
  } catch (error) {
    // Nothing half-done: a subscription the server does not know is dropped again.
    await subscription.unsubscribe().catch(() => false);
    if (readDeviceRecord()?.endpoint === subscription.endpoint) writeDeviceRecord(null);
    throw error;
  }
  return { available: true, permission, subscribed: true };
}

/**
 * "Turn off" and logout: the server forgets this device (DELETE), then the browser drops the
 * subscription. The browser side happens even when the server cannot be reached: the push
 * service then refuses the dead endpoint and the server removes it at its next send.
 */
export async function disableDevicePush(): Promise<void> {
  const registration = pushApiPresent() ? await navigator.serviceWorker.getRegistration() : null;
  const subscription = (await registration?.pushManager.getSubscription()) ?? null;
  let serverError: unknown = null;
  if (subscription) {
    try {
      await forgetOnServer(subscription.endpoint);
    } catch (error) {
      serverError = error;
    }
    await subscription.unsubscribe().catch(() => false);
  }
  writeDeviceRecord(null);
  if (serverError) console.warn('The server could not be told to forget this device', serverError);
}

/** Logout: like turning off, bounded in time so signing out never waits on it. */
export async function removeDevicePushAtLogout(timeoutMs = 4000): Promise<void> {
  if (!pushApiPresent()) return;
  await Promise.race([disableDevicePush().catch(() => undefined), delay(timeoutMs)]);
}

/**
 * On app start (signed in): keeps this device's subscription true to the server. A
 * subscription left by someone else who did not log out is dropped; one made with an old
 * VAPID key is replaced; one the browser replaced, or that the server no longer has, is sent
 * again. Never asks for permission.
 */
export async function keepDevicePushCurrent(userId: number): Promise<void> {
  if (!pushApiPresent()) return;
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration?.active) return;
  let subscription = await registration.pushManager.getSubscription();
  const record = readDeviceRecord();
  if (!subscription) {
    // The browser dropped it while permission stands: subscribe again for the same user.
    if (record?.userId === userId && Notification.permission === 'granted') {
      subscription = await subscribeWithKey(registration, await vapidKey());
      await registerWithServer(subscription, userId);
    } else if (record) {
      writeDeviceRecord(null);
    }
    return;
  }
  if (!record || record.userId !== userId) {
    // Not this user's (or unknown): it must not bring them someone else's notifications.
    await subscription.unsubscribe().catch(() => false);
    writeDeviceRecord(null);
    return;
  }
  if (Notification.permission !== 'granted') {
    await disableDevicePush();
    return;
  }
  const publicKey = await vapidKey();
  if (!madeWithKey(subscription, publicKey)) {
    subscription = await subscribeWithKey(registration, publicKey);
    await registerWithServer(subscription, userId);
    return;
  }
  const { subscriptions } = await getJson(PUSH_SUBSCRIPTIONS_PATH, pushSubscriptionListSchema);
  if (
    record.endpoint !== subscription.endpoint ||
    !subscriptions.some((s) => s.endpoint === subscription.endpoint)
  ) {
    await registerWithServer(subscription, userId);
  }
}

/** "Send me a test": a push to each of the user's registered devices; how many there are. */
export async function sendTestPush(): Promise<number> {
  return (await sendJson('POST', PUSH_TEST_PATH, pushTestResponseSchema)).devices;
}
