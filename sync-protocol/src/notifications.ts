// Notifications (spec §3 entities, §5 validation, §7 calls).
import { z } from 'zod';
import { isoDateSchema as isoDate } from './primitives';
import './zod-config';

export const NOTIFICATION_TYPES = ['general', 'emergency', 'system', 'maintenance'] as const;
export const NOTIFICATION_PRIORITIES = ['low', 'normal', 'high', 'critical'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export type NotificationPriority = (typeof NOTIFICATION_PRIORITIES)[number];

export const NOTIFICATION_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: 'Title too long',
  messageRequired: 'Message is required',
  messageTooLong: 'Message too long',
  urlInvalid: 'Link must be a path of this app (such as /cases) or an https address',
  urlTooLong: 'Link too long',
} as const;

/** Any whitespace, control character or backslash: URL parsers drop or reinterpret them
 * ('/\\evil.example' and '/\t/evil.example' both read as '//evil.example'), so none is allowed. */
function hasTrickCharacter(value: string): boolean {
  for (const c of value) {
    const code = c.codePointAt(0) ?? 0;
    if (code <= 0x20 || (code >= 0x7f && code <= 0x9f) || c === '\\' || /\s/u.test(c)) return true;
  }
  return false;
}
const PROBE_ORIGIN = 'https://app.invalid';

/**
 * Where a tapped notification leads: a path of this app ('/cases', '/case-search?status=…'),
 * kept as a path so it follows the app to any address, or an https address elsewhere
 * (the service worker opens nothing else either: client/push-subscription.ts clickTarget).
 * Refused: other schemes (javascript:, data:, http:), addresses without a scheme
 * ('//evil.example'), credentials in the address, and the characters parsers bend.
 */
export function isNotificationUrl(value: string): boolean {
  if (hasTrickCharacter(value)) return false;
  if (value.startsWith('/')) {
    if (value.startsWith('//')) return false;
    try {
      // Dot segments can leave a path starting '//' ('/.//evil.example'), which a window
      // opened with it would read as another host.
      const url = new URL(value, PROBE_ORIGIN);
      return url.origin === PROBE_ORIGIN && !url.pathname.startsWith('//');
    } catch {
      return false;
    }
  }
  if (!/^https:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (
      url.protocol === 'https:' && url.hostname !== '' && url.username === '' && url.password === ''
    );
  } catch {
    return false;
  }
}

export const notificationCreateSchema = z.strictObject({
  title: z
    .string({ error: NOTIFICATION_MESSAGES.titleRequired })
    .trim()
    .min(1, NOTIFICATION_MESSAGES.titleRequired)
    .max(100, NOTIFICATION_MESSAGES.titleTooLong),
  message: z
    .string({ error: NOTIFICATION_MESSAGES.messageRequired })
    .trim()
    .min(1, NOTIFICATION_MESSAGES.messageRequired)
    .max(500, NOTIFICATION_MESSAGES.messageTooLong),
  type: z.enum(NOTIFICATION_TYPES).default('general'),
  priority: z.enum(NOTIFICATION_PRIORITIES).default('normal'),
  targetUserIds: z.array(z.number().int().positive()).max(10_000).optional(),
  targetRoles: z.array(z.string().min(1).max(50)).max(100).optional(),
  /** ISO date-time with a zone; the server refuses a time in the past or more than a year ahead. */
  scheduledFor: z.string().max(64).optional(),
  url: z
    .string({ error: NOTIFICATION_MESSAGES.urlInvalid })
    .max(2048, NOTIFICATION_MESSAGES.urlTooLong)
    .refine(isNotificationUrl, NOTIFICATION_MESSAGES.urlInvalid)
    .optional(),
  sound: z.string().max(200).optional(),
});
export type NotificationCreateInput = z.input<typeof notificationCreateSchema>;

export const SCHEDULE_MESSAGES = {
  format: 'Scheduled time must be an ISO date and time with a time zone',
  past: 'Scheduled time must be in the future',
  tooFar: 'Scheduled time must be within one year',
} as const;

export const PUSH_SUBSCRIPTION_MESSAGES = {
  endpoint: 'Subscription endpoint must be a valid URL',
  endpointNotHttps: 'Subscription endpoint must use https',
  endpointPrivate: 'Subscription endpoint must be a public push service address',
  endpointTooLong: 'Subscription endpoint is too long',
  keys: 'Subscription keys are required',
} as const;

/** Spec §5 push subscription. The server also refuses non-https, private-address and over-2 KB
 * endpoints (it must never become a request forwarder). The user is always the signed-in one. */
export const pushSubscriptionSchema = z.strictObject({
  endpoint: z.url({ error: PUSH_SUBSCRIPTION_MESSAGES.endpoint }).max(2048, {
    error: PUSH_SUBSCRIPTION_MESSAGES.endpointTooLong,
  }),
  p256dh: z
    .string({ error: PUSH_SUBSCRIPTION_MESSAGES.keys })
    .min(1, PUSH_SUBSCRIPTION_MESSAGES.keys)
    .max(512),
  auth: z
    .string({ error: PUSH_SUBSCRIPTION_MESSAGES.keys })
    .min(1, PUSH_SUBSCRIPTION_MESSAGES.keys)
    .max(512),
  userAgent: z.string().max(512).optional(),
});
export type PushSubscriptionInput = z.input<typeof pushSubscriptionSchema>;

/** One notification as the current user sees it (a notification joined with its delivery). */
export const notificationItemSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  url: z.string().nullable(),
  icon: z.string().nullable(),
  createdAt: isoDate,
  readAt: isoDate.nullable(),
});
export type NotificationItem = z.output<typeof notificationItemSchema>;
export const notificationListSchema = z.array(notificationItemSchema);
export const unreadCountSchema = z.object({ count: z.number().int().nonnegative() });
export const markAllReadResponseSchema = z.object({ updated: z.number().int().nonnegative() });

/** A notification's own status (decision record on the delivery lifecycle). */
export const NOTIFICATION_STATUSES = [
  'pending',
  'scheduled',
  'sending',
  'sent',
  'cancelled',
] as const;
export type NotificationStatus = (typeof NOTIFICATION_STATUSES)[number];
/** One recipient's delivery: pending -> sent -> delivered -> clicked / read, or failed. */
export const DELIVERY_STATUSES = [
  'pending',
  'sent',
  'delivered',
  'clicked',
  'read',
  'failed',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Delivery figures of one notification, as the administrator's list shows them. */
export const deliveryFiguresSchema = z.object({
  /** Delivery rows (approved users targeted). */
  recipients: z.number().int().nonnegative(),
  /** Recipients at least one of whose devices' push services accepted the message. */
  pushed: z.number().int().nonnegative(),
  /** Recipients whose device reported the push received, or whose app fetched it. */
  delivered: z.number().int().nonnegative(),
  clicked: z.number().int().nonnegative(),
  read: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
});
export type DeliveryFigures = z.output<typeof deliveryFiguresSchema>;

/** A notification as the administrator sees it (POST and GET /api/admin/notifications). */
export const adminNotificationSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  targetUserIds: z.array(z.number().int()).nullable(),
  targetRoles: z.array(z.string()).nullable(),
  status: z.enum(NOTIFICATION_STATUSES),
  sentAt: isoDate.nullable(),
  scheduledFor: isoDate.nullable(),
  url: z.string().nullable(),
  sound: z.string().nullable(),
  createdBy: z.number().int().nullable(),
  /** The sender's full name (null for system notices). */
  createdByName: z.string().nullable(),
  createdAt: isoDate,
  figures: deliveryFiguresSchema,
});
export type AdminNotification = z.output<typeof adminNotificationSchema>;
export const adminNotificationResponseSchema = z.object({ notification: adminNotificationSchema });
export const adminNotificationListSchema = z.object({
  notifications: z.array(adminNotificationSchema),
});

/** One failed delivery, for the administrator's detail view (GET /api/admin/notifications/:id). */
export const failedDeliverySchema = z.object({
  userId: z.number().int(),
  fullName: z.string(),
  email: z.string(),
  errorMessage: z.string().nullable(),
  updatedAt: isoDate,
});
export const adminNotificationDetailSchema = z.object({
  notification: adminNotificationSchema,
  failures: z.array(failedDeliverySchema),
});
export type AdminNotificationDetail = z.output<typeof adminNotificationDetailSchema>;
/** POST /api/admin/notifications/:id/resend-failed: failed deliveries queued again. */
export const resendFailedResponseSchema = z.object({ requeued: z.number().int().nonnegative() });

/** GET /api/push/vapid-public-key (signed in): the application server key, base64url. */
export const vapidPublicKeySchema = z.object({ publicKey: z.string().min(1) });

/** One of the signed-in user's push subscriptions (GET/POST /api/user/push-subscriptions). */
export const pushSubscriptionItemSchema = z.object({
  id: z.number().int(),
  endpoint: z.string(),
  userAgent: z.string().nullable(),
  createdAt: isoDate,
});
export const pushSubscriptionResponseSchema = z.object({
  subscription: pushSubscriptionItemSchema,
});
export const pushSubscriptionListSchema = z.object({
  subscriptions: z.array(pushSubscriptionItemSchema),
});
/** DELETE /api/user/push-subscriptions body: the endpoint to forget (this device's). */
export const pushUnsubscribeSchema = z.strictObject({ endpoint: z.string().min(1).max(2048) });
/** POST /api/user/push-subscriptions/test: a test push to the signed-in user's devices. */
export const pushTestResponseSchema = z.object({ devices: z.number().int().nonnegative() });

/**
 * What the server pushes (encrypted per RFC 8291) and the service worker parses. `receipt`
 * is an opaque server-signed token the worker sends back to report `delivered` and `clicked`
 * (POST /api/notifications/receipts), so reporting works without a session.
 */
export const pushPayloadSchema = z.object({
  v: z.literal(1),
  notificationId: z.number().int(),
  title: z.string(),
  message: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  url: z.string().nullable(),
  icon: z.string(),
  badge: z.string(),
  sound: z.string().nullable(),
  createdAt: isoDate,
  receipt: z.string().max(512),
  /** A test push from the profile screen: no delivery row behind it. */
  test: z.boolean().optional(),
});
export type PushPayload = z.output<typeof pushPayloadSchema>;

/** POST /api/notifications/receipts (no session needed; the receipt proves the delivery). */
export const pushReceiptSchema = z.strictObject({
  receipt: z.string().min(1).max(512),
  event: z.enum(['delivered', 'clicked']),
});
