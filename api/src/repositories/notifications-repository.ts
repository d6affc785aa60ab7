// `notifications` and `notification_deliveries` (spec §3): a notification is written once,
// with one delivery row per recipient; a user's inbox is their delivery rows.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, NewNotification } from '@rescuelog/db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export const INBOX_LIMIT = 100;

/**
 * The user's notifications that are due (sent, or scheduled for a time that has passed),
 * read or unread, newest first.
 */
export async function listInbox(db: Db, userId: number, state: 'unread' | 'read', now: Date) {
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
    ])
    .where('d.userId', '=', userId)
    .where(due(now))
    .where('d.readAt', state === 'unread' ? 'is' : 'is not', null)
    .orderBy('n.createdAt', 'desc')
    .orderBy('n.id', 'desc')
    .limit(INBOX_LIMIT)
    .execute();
}

export async function countUnread(db: Db, userId: number, now: Date): Promise<number> {
  const row = await db
    .selectFrom('notificationDeliveries as d')
    .innerJoin('notifications as n', 'n.id', 'd.notificationId')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('d.userId', '=', userId)
    .where('d.readAt', 'is', null)
    .where(due(now))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Marks every due, unread delivery of the user read; returns how many changed. */
export async function markAllRead(db: Db, userId: number, now: Date): Promise<number> {
  const result = await db
    .updateTable('notificationDeliveries as d')
    .set({ readAt: now, status: 'read' })
    .where('d.userId', '=', userId)
    .where('d.readAt', 'is', null)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('notifications as n')
          .select(sql.lit(1).as('one'))
          .whereRef('n.id', '=', 'd.notificationId')
          .where(due(now)),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Due: sent, or scheduled for a time that has passed. Written against the alias `n`. */
function due(now: Date) {
  return sql<boolean>`(n.status = 'sent' or (n.status = 'scheduled' and n.scheduled_for <= ${now}))`;
}

export async function insertNotification(db: Db, values: NewNotification) {
  return db.insertInto('notifications').values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Approved users a notification reaches: those listed in `targetUserIds`, those whose role
 * (administrator/member) or custom role name is in `targetRoles`, or everyone approved when
 * neither is given.
 */
export async function findRecipientIds(
  db: Db,
  targetUserIds: readonly number[] | undefined,
  targetRoles: readonly string[] | undefined,
): Promise<number[]> {
  const byIds = targetUserIds !== undefined && targetUserIds.length > 0;
  const byRoles = targetRoles !== undefined && targetRoles.length > 0;
  let query = db
    .selectFrom('users')
    .leftJoin('roles', 'roles.id', 'users.roleId')
    .select('users.id')
    .where('users.status', '=', 'approved');
  if (byIds || byRoles) {
    query = query.where((eb) =>
      eb.or([
        ...(byIds ? [eb('users.id', 'in', [...targetUserIds])] : []),
        ...(byRoles
          ? [
              eb('users.role', 'in', [...targetRoles] as Array<'administrator' | 'member'>),
              eb('roles.name', 'in', [...targetRoles]),
            ]
          : []),
      ]),
    );
  }
  const rows = await query.orderBy('users.id').execute();
  return rows.map((r) => r.id);
}

export async function insertDeliveries(
  db: Db,
  notificationId: number,
  userIds: readonly number[],
  status: string,
  deliveredAt: Date | null,
) {
  if (userIds.length === 0) return;
  // Chunked so a notification to every user never exceeds the parameter limit of one statement.
  for (let i = 0; i < userIds.length; i += 1000) {
    await db
      .insertInto('notificationDeliveries')
      .values(
        userIds
          .slice(i, i + 1000)
          .map((userId) => ({ notificationId, userId, status, deliveredAt })),
      )
      .execute();
  }
}

export async function listNotifications(db: Db, limit: number) {
  return db
    .selectFrom('notifications as n')
    .selectAll('n')
    .select((eb) => [
      eb
        .selectFrom('notificationDeliveries as d')
        .select((e) => e.fn.countAll<string>().as('c'))
        .whereRef('d.notificationId', '=', 'n.id')
        .as('recipientCount'),
      eb
        .selectFrom('notificationDeliveries as d')
        .select((e) => e.fn.countAll<string>().as('c'))
        .whereRef('d.notificationId', '=', 'n.id')
        .where('d.readAt', 'is not', null)
        .as('readCount'),
    ])
    .orderBy('n.createdAt', 'desc')
    .orderBy('n.id', 'desc')
    .limit(limit)
    .execute();
}
