// Notifications (spec §3, §7; docs/decisions/028). An administrator creates one to send now
// ('pending') or at a time ('scheduled'); the notification job (push/notification-dispatcher)
// sends it: one delivery per approved recipient, which is their inbox entry, and a web push
// to each of their devices. This module is what the routes call: create, list, detail,
// cancel, resend the failed, the user's inbox, and the device's receipts.
import type { Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { checkIsoInstant } from '@rescuelog/sync-protocol/time';
import {
  SCHEDULE_MESSAGES,
  type AdminNotification,
  type AdminNotificationDetail,
  type NotificationItem,
  type notificationCreateSchema,
} from '@rescuelog/sync-protocol/notifications';
import type { z } from 'zod';
import { ApiError } from '../lib/api-error';
import * as repo from '../repositories/notifications-repository';

/**
 * The user's inbox, newest first. Showing it to the user's app counts as delivered for the
 * entries that had not been (pending, sent, or failed to push).
 */
export async function inbox(
  db: Kysely<Database>,
  userId: number,
  state: 'unread' | 'read',
): Promise<NotificationItem[]> {
  const rows = await repo.listInbox(db, userId, state);
  await repo.markFetchedDelivered(
    db,
    rows
      .filter(
        (r) =>
          r.deliveryStatus === 'pending' ||
          r.deliveryStatus === 'sent' ||
          r.deliveryStatus === 'failed',
      )
      .map((r) => r.deliveryId),
  );
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    message: row.message,
    type: row.type,
    priority: row.priority,
    url: row.url,
    icon: row.icon,
    createdAt: row.createdAt.toISOString(),
    readAt: row.readAt ? row.readAt.toISOString() : null,
  }));
}

export const unreadCount = (db: Kysely<Database>, userId: number) => repo.countUnread(db, userId);
export const markAllRead = (db: Kysely<Database>, userId: number) => repo.markAllRead(db, userId);

/**
 * A system notice to one user's inbox at once, written with the change it reports (pass the
 * transaction); its web push is queued in the same transaction and the job sends it.
 */
export async function notifyUser(
  db: Kysely<Database>,
  userId: number,
  notice: { title: string; message: string },
): Promise<void> {
  const row = await repo.insertNotification(db, {
    title: notice.title,
    message: notice.message,
    type: 'system',
    priority: 'high',
    targetUserIds: [userId],
    targetRoles: null,
    status: 'sending',
    sentAt: new Date(),
    fannedOutAt: new Date(),
    scheduledFor: null,
    url: null,
    sound: null,
    createdBy: null,
  });
  await repo.insertDeliveriesWithPushes(db, row.id, [userId]);
}

function toAdminNotification(row: repo.AdminNotificationRow): AdminNotification {
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    type: row.type,
    priority: row.priority,
    targetUserIds: row.targetUserIds,
    targetRoles: row.targetRoles,
    status: row.status,
    sentAt: row.sentAt ? row.sentAt.toISOString() : null,
    scheduledFor: row.scheduledFor ? row.scheduledFor.toISOString() : null,
    url: row.url,
    sound: row.sound,
    createdBy: row.createdBy,
    createdByName: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    figures: {
      recipients: row.recipients,
      pushed: row.pushed,
      delivered: row.delivered,
      clicked: row.clicked,
      read: row.read,
      failed: row.failed,
    },
  };
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

function scheduleError(message: string): ApiError {
  return new ApiError(400, ErrorCode.VALIDATION_FAILED, message, {
    fieldErrors: { scheduledFor: [message] },
  });
}

/**
 * The scheduled time, or null to send now. Only a full ISO date-time with a zone (a time
 * without one means different instants on different machines), in the future, and at most a
 * year ahead.
 */
export function parseSchedule(value: string | undefined, now: Date): Date | null {
  if (value === undefined || value.trim() === '') return null;
  const text = value.trim();
  const date = new Date(text);
  // checkIsoInstant: a real day ('2026-02-30' would otherwise be read as 2 March).
  if (!ISO_WITH_ZONE.test(text) || !checkIsoInstant(text).ok)
    throw scheduleError(SCHEDULE_MESSAGES.format);
  if (date.getTime() <= now.getTime()) throw scheduleError(SCHEDULE_MESSAGES.past);
  const yearAhead = new Date(now.getTime());
  yearAhead.setUTCFullYear(yearAhead.getUTCFullYear() + 1);
  if (date.getTime() > yearAhead.getTime()) throw scheduleError(SCHEDULE_MESSAGES.tooFar);
  return date;
}

/** Creates a notification to send now ('pending') or later ('scheduled'); the job sends it. */
export async function createNotification(
  db: Kysely<Database>,
  createdBy: number,
  input: z.output<typeof notificationCreateSchema>,
  now = new Date(),
): Promise<AdminNotification> {
  const scheduledFor = parseSchedule(input.scheduledFor, now);
  const targetUserIds =
    input.targetUserIds && input.targetUserIds.length > 0
      ? [...new Set(input.targetUserIds)]
      : null;
  const targetRoles =
    input.targetRoles && input.targetRoles.length > 0 ? [...new Set(input.targetRoles)] : null;
  const row = await repo.insertNotification(db, {
    title: input.title,
    message: input.message,
    type: input.type,
    priority: input.priority,
    targetUserIds,
    targetRoles,
    status: scheduledFor ? 'scheduled' : 'pending',
    sentAt: null,
    scheduledFor,
    url: input.url ?? null,
    sound: input.sound ?? null,
    createdBy,
  });
  const created = await repo.findAdminNotification(db, row.id);
  if (!created) throw new Error('the notification just written is missing');
  return toAdminNotification(created);
}

export async function listAdminNotifications(db: Kysely<Database>): Promise<AdminNotification[]> {
  return (await repo.listAdminNotifications(db)).map(toAdminNotification);
}

const notFound = () => new ApiError(404, ErrorCode.NOT_FOUND, 'Notification not found');

export async function adminNotificationDetail(
  db: Kysely<Database>,
  id: number,
): Promise<AdminNotificationDetail> {
  const row = await repo.findAdminNotification(db, id);
  if (!row) throw notFound();
  const failures = await repo.listFailures(db, id);
  return {
    notification: toAdminNotification(row),
    failures: failures.map((f) => ({
      userId: f.userId,
      fullName: f.fullName,
      email: f.email,
      errorMessage: f.errorMessage,
      updatedAt: f.updatedAt.toISOString(),
    })),
  };
}

export const CANCEL_CONFLICT_MESSAGE =
  'Only a scheduled or pending notification can be cancelled; this one has already been sent or cancelled';

export async function cancelNotification(
  db: Kysely<Database>,
  id: number,
): Promise<AdminNotification> {
  const result = await repo.cancelNotification(db, id);
  if (!result.found) throw notFound();
  if (!result.cancelled)
    throw new ApiError(
      409,
      ErrorCode.CONFLICT,
      result.status === 'sending'
        ? 'This notification is being sent and can no longer be cancelled'
        : CANCEL_CONFLICT_MESSAGE,
    );
  const row = await repo.findAdminNotification(db, id);
  if (!row) throw notFound();
  return toAdminNotification(row);
}

export async function resendFailed(db: Kysely<Database>, id: number): Promise<number> {
  const result = await repo.requeueFailed(db, id);
  if (!result.found) throw notFound();
  if (result.requeued === null)
    throw new ApiError(
      409,
      ErrorCode.CONFLICT,
      result.status === 'cancelled'
        ? 'This notification was cancelled; nothing was sent'
        : 'This notification has not been sent yet',
    );
  return result.requeued;
}

export const recordReceipt = repo.recordReceipt;
