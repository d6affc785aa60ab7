// `notifications` and `notification_deliveries` (spec §3): a notification is written once;
// when it is sent, each recipient gets one delivery row, which is their inbox entry and
// carries the delivery's lifecycle (docs/decisions/028). The push queue is in
// notification-queue-repository.ts.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, DeliveryStatus, NewNotification } from '@rescuelog/db/schema';
import { finishDrainedNotifications, queuePushes } from './notification-queue-repository';

type Db = Kysely<Database> | Transaction<Database>;

export const INBOX_LIMIT = 100;
export const ADMIN_LIST_LIMIT = 100;
export const FAILURES_LIMIT = 500;

/** In an inbox: fanned out (sending or sent). Written against the alias `n`. */
const inInbox = sql<boolean>`n.status in ('sending', 'sent')`;

/** The user's notifications, read or unread, newest first, with their delivery ids. */
export async function listInbox(db: Db, userId: number, state: 'unread' | 'read') {
  return db
    .selectFrom('notificationDeliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notificationId')
    .select([
      'n.id',
      'n.title',
      'n.message',
      'n.type',
      'n.priority',
      'n.url',
      'n.icon',
      'n.createdAt',
      'd.readAt',
      'd.id as deliveryId',
      'd.status as deliveryStatus',
    ])
    .where('d.userId', '=', userId)
    .where(inInbox)
    .where('d.readAt', state === 'unread' ? 'is' : 'is not', null)
    .orderBy('n.createdAt', 'desc')
    .orderBy('n.id', 'desc')
    .limit(INBOX_LIMIT)
    .execute();
}

/** The app showed these entries: pending, sent and failed ones count as delivered. */
export async function markFetchedDelivered(db: Db, deliveryIds: readonly number[]) {
  if (deliveryIds.length === 0) return;
  await db
    .updateTable('notificationDeliveries')
    .set({
      status: 'delivered',
      deliveredAt: sql`coalesce(delivered_at, now())`,
      updatedAt: sql`now()`,
    })
    .where('id', 'in', [...deliveryIds])
    .where('status', 'in', ['pending', 'sent', 'failed'])
    .execute();
}

export async function countUnread(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom('notificationDeliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notificationId')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('d.userId', '=', userId)
    .where('d.readAt', 'is', null)
    .where(inInbox)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks every unread inbox entry of the user read; returns how many changed. */
export async function markAllRead(db: Db, userId: number): Promise<number> {
  const result = await db
    .updateTable('notificationDeliveries as d')
    .set({
      readAt: sql`now()`,
      status: 'read',
      deliveredAt: sql`coalesce(d.delivered_at, now())`,
      updatedAt: sql`now()`,
    })
    .where('d.userId', '=', userId)
    .where('d.readAt', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('notifications as n')
          .select(sql.lit(1).as('one'))
          .whereRef('n.id', '=', 'd.notificationId')
          .where(inInbox),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * A device reported the push for this delivery: 'delivered' (shown) or 'clicked' (opened).
 * Never moves a delivery back; false when the delivery does not exist (any more).
 */
export async function recordReceipt(
  db: Db,
  deliveryId: number,
  event: 'delivered' | 'clicked',
): Promise<{ status: DeliveryStatus } | undefined> {
  const update =
    event === 'delivered'
      ? {
          deliveredAt: sql<Date>`coalesce(delivered_at, now())`,
          status: sql<DeliveryStatus>`case when status in ('pending', 'sent', 'failed') then 'delivered' else status end`,
        }
      : {
          deliveredAt: sql<Date>`coalesce(delivered_at, now())`,
          clickedAt: sql<Date>`coalesce(clicked_at, now())`,
          status: sql<DeliveryStatus>`'clicked'`,
        };
  return db
    .updateTable('notificationDeliveries')
    .set({ ...update, updatedAt: sql`now()` })
    .where('id', '=', deliveryId)
    .returning('status')
    .executeTakeFirst();
}

export async function insertNotification(db: Db, values: NewNotification) {
  return db.insertInto('notifications').values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Deliveries and queued pushes (one per device) for users of a notification written as
 * already fanned out ('sending'); it is 'sent' at once when no device is subscribed.
 */
export async function insertDeliveriesWithPushes(
  db: Db,
  notificationId: number,
  userIds: readonly number[],
) {
  if (userIds.length > 0) {
    await db
      .insertInto('notificationDeliveries')
      .values(userIds.map((userId) => ({ notificationId, userId })))
      .onConflict((oc) => oc.columns(['notificationId', 'userId']).doNothing())
      .execute();
    await queuePushes(db, notificationId);
  }
  await finishDrainedNotifications(db, [notificationId]);
}

const adminColumns = sql`
  n.*, u.full_name as created_by_name,
  coalesce(f.recipients, 0) as recipients, coalesce(f.pushed, 0) as pushed,
  coalesce(f.delivered, 0) as delivered, coalesce(f.clicked, 0) as clicked,
  coalesce(f.read, 0) as read, coalesce(f.failed, 0) as failed`;
const adminJoins = sql`
  left join users u on u.id = n.created_by
  left join lateral (
    select count(*)::int as recipients,
           count(d.pushed_at)::int as pushed,
           count(d.delivered_at)::int as delivered,
           count(d.clicked_at)::int as clicked,
           count(d.read_at)::int as read,
           (count(*) filter (where d.status = 'failed'))::int as failed
      from notification_deliveries d
     where d.notification_id = n.id) f on true`;

/** Raw rows come back camelCased by the CamelCasePlugin, like every other query. */
export interface AdminNotificationRow {
  id: number;
  title: string;
  message: string;
  type: 'general' | 'emergency' | 'system' | 'maintenance';
  priority: 'low' | 'normal' | 'high' | 'critical';
  targetUserIds: number[] | null;
  targetRoles: string[] | null;
  status: 'pending' | 'scheduled' | 'sending' | 'sent' | 'cancelled';
  sentAt: Date | null;
  scheduledFor: Date | null;
  url: string | null;
  sound: string | null;
  createdBy: number | null;
  createdByName: string | null;
  createdAt: Date;
  recipients: number;
  pushed: number;
  delivered: number;
  clicked: number;
  read: number;
  failed: number;
}

/** Notifications newest first, each with its sender's name and delivery figures. */
export async function listAdminNotifications(db: Db, limit = ADMIN_LIST_LIMIT) {
  const result = await sql<AdminNotificationRow>`
    select ${adminColumns} from notifications n ${adminJoins}
     order by n.created_at desc, n.id desc
     limit ${limit}`.execute(db);
  return result.rows;
}

export async function findAdminNotification(db: Db, id: number) {
  const result = await sql<AdminNotificationRow>`
    select ${adminColumns} from notifications n ${adminJoins}
     where n.id = ${id}`.execute(db);
  return result.rows[0];
}

/** Failed deliveries of a notification, with who and why. */
export async function listFailures(db: Db, notificationId: number) {
  return db
    .selectFrom('notificationDeliveries as d')
    .innerJoin('users as u', 'u.id', 'd.userId')
    .select(['d.userId', 'u.fullName', 'u.email', 'd.errorMessage', 'd.updatedAt'])
    .where('d.notificationId', '=', notificationId)
    .where('d.status', '=', 'failed')
    .orderBy('u.fullName')
    .orderBy('d.id')
    .limit(FAILURES_LIMIT)
    .execute();
}

/** Cancels a notification that is still pending or scheduled; the status it had otherwise. */
export async function cancelNotification(db: Kysely<Database>, id: number) {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('notifications')
      .select('status')
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return { found: false as const };
    if (row.status !== 'pending' && row.status !== 'scheduled')
      return { found: true as const, cancelled: false, status: row.status };
    await trx
      .updateTable('notifications')
      .set({ status: 'cancelled', cancelledAt: sql`now()`, updatedAt: sql`now()` })
      .where('id', '=', id)
      .execute();
    return { found: true as const, cancelled: true, status: 'cancelled' as const };
  });
}

/**
 * Queues the failed deliveries of a sent notification again: their failed pushes are tried
 * afresh, devices the user subscribed since are added, and the deliveries are pending again.
 */
export async function requeueFailed(db: Kysely<Database>, id: number) {
  return db.transaction().execute(async (trx) => {
    const n = await trx
      .selectFrom('notifications')
      .select(['status', 'fannedOutAt'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!n) return { found: false as const };
    if (n.fannedOutAt === null) return { found: true as const, requeued: null, status: n.status };
    const failed = await trx
      .updateTable('notificationDeliveries')
      .set({ status: 'pending', errorMessage: null, updatedAt: sql`now()` })
      .where('notificationId', '=', id)
      .where('status', '=', 'failed')
      .returning(['id', 'userId'])
      .execute();
    if (failed.length === 0) return { found: true as const, requeued: 0, status: n.status };
    const deliveryIds = failed.map((d) => d.id);
    await trx
      .updateTable('notificationPushes')
      .set({
        state: 'queued',
        attempts: 0,
        nextAttemptAt: sql`now()`,
        leaseUntil: null,
        updatedAt: sql`now()`,
      })
      .where('deliveryId', 'in', deliveryIds)
      .where('state', '=', 'failed')
      .where('subscriptionId', 'is not', null)
      .execute();
    await queuePushes(trx, id, deliveryIds);
    await sql`
      update notifications n set status = 'sending', updated_at = now()
       where n.id = ${id} and exists (select 1 from notification_pushes p
                                       where p.notification_id = n.id and p.state = 'queued')`.execute(
      trx,
    );
    return { found: true as const, requeued: failed.length, status: n.status };
  });
}
