// Notifications (spec §3, §7): an administrator sends one; each targeted approved user gets a
// delivery row, which is their inbox entry. A notification scheduled for later becomes
// visible once its time has passed.
import type { Kysely } from 'kysely';
import type { Database, Notification as NotificationRow } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import type {
  AdminNotification,
  NotificationItem,
  notificationCreateSchema,
} from '@rescuelog/sync-protocol/notifications';
import type { z } from 'zod';
import { ApiError } from '../lib/api-error';
import * as repo from '../repositories/notifications-repository';

export async function inbox(
  db: Kysely<Database>,
  userId: number,
  state: 'unread' | 'read',
  now = new Date(),
): Promise<NotificationItem[]> {
  const rows = await repo.listInbox(db, userId, state, now);
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

export const unreadCount = (db: Kysely<Database>, userId: number, now = new Date()) =>
  repo.countUnread(db, userId, now);
export const markAllRead = (db: Kysely<Database>, userId: number, now = new Date()) =>
  repo.markAllRead(db, userId, now);

/**
 * A system notice to one user's in-app list, delivered now (account security notices).
 * Takes a transaction so it is written with the change it reports.
 */
export async function notifyUser(
  db: Kysely<Database>,
  userId: number,
  notice: { title: string; message: string },
  now = new Date(),
): Promise<void> {
  const row = await repo.insertNotification(db, {
    title: notice.title,
    message: notice.message,
    type: 'system',
    priority: 'high',
    targetUserIds: [userId],
    targetRoles: null,
    status: 'sent',
    sentAt: now,
    scheduledFor: null,
    url: null,
    sound: null,
    createdBy: null,
  });
  await repo.insertDeliveries(db, row.id, [userId], 'delivered', now);
}

function toAdminNotification(
  row: NotificationRow,
  counts: { recipientCount: number; readCount: number },
): AdminNotification {
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
    createdAt: row.createdAt.toISOString(),
    ...counts,
  };
}

function parseSchedule(value: string | undefined): Date | null {
  if (value === undefined || value.trim() === '') return null;
  // Only full ISO timestamps: a date without a zone would mean different instants on different machines.
  const ok = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/.test(
    value.trim(),
  );
  const date = new Date(value.trim());
  if (!ok || Number.isNaN(date.getTime())) {
    throw new ApiError(
      400,
      ErrorCode.VALIDATION_FAILED,
      'Scheduled time must be an ISO date and time with a time zone',
      {
        fieldErrors: {
          scheduledFor: ['Scheduled time must be an ISO date and time with a time zone'],
        },
      },
    );
  }
  return date;
}

export async function sendNotification(
  db: Kysely<Database>,
  createdBy: number,
  input: z.output<typeof notificationCreateSchema>,
  now = new Date(),
): Promise<AdminNotification> {
  const scheduledFor = parseSchedule(input.scheduledFor);
  const later = scheduledFor !== null && scheduledFor.getTime() > now.getTime();
  const targetUserIds =
    input.targetUserIds && input.targetUserIds.length > 0
      ? [...new Set(input.targetUserIds)]
      : null;
  const targetRoles =
    input.targetRoles && input.targetRoles.length > 0 ? [...new Set(input.targetRoles)] : null;
  return db.transaction().execute(async (trx) => {
    const row = await repo.insertNotification(trx, {
      title: input.title,
      message: input.message,
      type: input.type,
      priority: input.priority,
      targetUserIds,
      targetRoles,
      status: later ? 'scheduled' : 'sent',
      sentAt: later ? null : now,
      scheduledFor,
      url: input.url ?? null,
      sound: input.sound ?? null,
      createdBy,
    });
    const recipients = await repo.findRecipientIds(
      trx,
      targetUserIds ?? undefined,
      targetRoles ?? undefined,
    );
    await repo.insertDeliveries(
      trx,
      row.id,
      recipients,
      later ? 'pending' : 'delivered',
      later ? null : now,
    );
    return toAdminNotification(row, { recipientCount: recipients.length, readCount: 0 });
  });
}

export async function listSentNotifications(
  db: Kysely<Database>,
  limit = 100,
): Promise<AdminNotification[]> {
  const rows = await repo.listNotifications(db, limit);
  return rows.map(({ recipientCount, readCount, ...row }) =>
    toAdminNotification(row, {
      recipientCount: Number(recipientCount ?? 0),
      readCount: Number(readCount ?? 0),
    }),
  );
}
