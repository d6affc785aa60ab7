// Web push on the device, shared by the page (web/src/lib/push-device.ts) and the service
// worker (its `pushsubscriptionchange`): the API paths, the VAPID key as the bytes
// PushManager.subscribe wants, and a browser subscription turned into the §5 body the API
// takes. Structural types, so this compiles in the window, the worker and Node.
import { z } from 'zod';
import '../zod-config';
import { pushSubscriptionSchema, type PushSubscriptionInput } from '../notifications';

/** GET: the application server (VAPID) public key, base64url. Signed in. */
export const VAPID_PUBLIC_KEY_PATH = '/api/push/vapid-public-key';
/** GET lists, POST adds, DELETE ({endpoint}) removes the signed-in user's subscriptions. */
export const PUSH_SUBSCRIPTIONS_PATH = '/api/user/push-subscriptions';
/** POST: a test push to the signed-in user's devices. */
export const PUSH_TEST_PATH = '/api/user/push-subscriptions/test';
/** POST {receipt, event}: the worker reports a push delivered or clicked (no session). */
export const PUSH_RECEIPTS_PATH = '/api/notifications/receipts';

/** What a browser's PushSubscription gives (PushSubscription.toJSON()). */
export interface PushSubscriptionJson {
  endpoint?: string | undefined;
  keys?: Record<string, string> | undefined;
}

export interface PushSubscriptionLike {
  readonly endpoint: string;
  readonly options: { readonly applicationServerKey: ArrayBuffer | null };
  toJSON(): PushSubscriptionJson;
}

/** The base64url VAPID key as bytes (PushManager.subscribe's applicationServerKey). */
export function applicationServerKeyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64 + '='.repeat((4 - (base64.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** True when `subscription` was made with this VAPID key (false after the server changed it). */
export function madeWithKey(subscription: PushSubscriptionLike, base64url: string): boolean {
  const own = subscription.options.applicationServerKey;
  if (!own) return false;
  const a = new Uint8Array(own);
  const b = applicationServerKeyBytes(base64url);
  return a.length === b.length && a.every((byte, i) => byte === b[i]);
}

/**
 * The §5 body for POST /api/user/push-subscriptions, checked with the API's own schema; the
 * schema's message when the browser gave something the API would refuse.
 */
export function subscriptionInput(
  subscription: PushSubscriptionLike,
  userAgent?: string,
): { ok: true; input: PushSubscriptionInput } | { ok: false; message: string } {
  const json = subscription.toJSON();
  const parsed = pushSubscriptionSchema.safeParse({
    endpoint: json.endpoint ?? subscription.endpoint,
    p256dh: json.keys?.p256dh,
    auth: json.keys?.auth,
    ...(userAgent ? { userAgent: userAgent.slice(0, 512) } : {}),
  });
  if (parsed.success) return { ok: true, input: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? 'Invalid input' };
}

/**
 * What the page keeps (localStorage) about this browser's push subscription: whose it is and
 * its endpoint. The browser holds one subscription per app, whoever is signed in, so the app
 * must know whom it was registered for: a subscription left by someone else is dropped, one
 * the browser replaced is sent again, and the old endpoint is forgotten on the server.
 */
export const devicePushRecordSchema = z.object({
  userId: z.number().int().positive(),
  endpoint: z.string().min(1).max(2048),
});
export type DevicePushRecord = z.output<typeof devicePushRecordSchema>;

/**
 * The `data` the service worker puts on a notification it shows, read back when it is
 * clicked (parsed: a notification can outlive the worker build that showed it).
 */
export const shownNotificationDataSchema = z.object({
  notificationId: z.number().int(),
  url: z.string().nullable(),
  receipt: z.string(),
  test: z.boolean(),
});
export type ShownNotificationData = z.output<typeof shownNotificationDataSchema>;

/**
 * Where a click goes. An address of this app opens in the app (its open window, focused and
 * sent there; openApp in sw/src/push.ts). An address elsewhere opens in a new window only when it is https: the
 * address was written by an administrator and reached us in a payload only our server can
 * encrypt for this subscription, a new window does not replace the app or give the site a
 * handle on it (no opener), and the browser shows its address bar; plain http could be
 * altered on the way, and other schemes (javascript:, data:, file:, intent:) are never
 * opened. Anything refused, missing or unreadable opens the app's home screen.
 */
export function clickTarget(
  url: string | null,
  origin: string,
): { kind: 'app'; path: string } | { kind: 'external'; href: string } {
  if (!url) return { kind: 'app', path: '/' };
  let target: URL;
  try {
    target = new URL(url, origin);
  } catch {
    return { kind: 'app', path: '/' };
  }
  if (target.origin === origin) {
    // A path starting '//' ('/.//evil.example' once its dot segment is gone) would open
    // another host when the worker opens a window with it: the home screen instead.
    if (target.pathname.startsWith('//')) return { kind: 'app', path: '/' };
    return { kind: 'app', path: `${target.pathname}${target.search}${target.hash}` };
  }
  if (target.protocol === 'https:') return { kind: 'external', href: target.href };
  return { kind: 'app', path: '/' };
}
