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
} as const;

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
  scheduledFor: z.string().max(64).optional(),
  url: z.url().max(2048).optional(),
  sound: z.string().max(200).optional(),
});
export type NotificationCreateInput = z.input<typeof notificationCreateSchema>;

export const pushSubscriptionSchema = z.strictObject({
  endpoint: z.url().max(2048),
  p256dh: z.string().min(1).max(512),
  auth: z.string().min(1).max(512),
  userAgent: z.string().max(512).optional(),
});

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

/** A notification as the administrator sees it (POST and GET /api/admin/notifications). */
export const adminNotificationSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  message: z.string(),
  type: z.enum(NOTIFICATION_TYPES),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  targetUserIds: z.array(z.number().int()).nullable(),
  targetRoles: z.array(z.string()).nullable(),
  /** 'sent' once delivered to the recipients' inboxes, 'scheduled' until scheduledFor. */
  status: z.string(),
  sentAt: isoDate.nullable(),
  scheduledFor: isoDate.nullable(),
  url: z.string().nullable(),
  sound: z.string().nullable(),
  createdBy: z.number().int().nullable(),
  createdAt: isoDate,
  recipientCount: z.number().int().nonnegative(),
  readCount: z.number().int().nonnegative(),
});
export type AdminNotification = z.output<typeof adminNotificationSchema>;
export const adminNotificationResponseSchema = z.object({ notification: adminNotificationSchema });
export const adminNotificationListSchema = z.object({
  notifications: z.array(adminNotificationSchema),
});
