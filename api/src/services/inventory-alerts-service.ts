// The daily stock notice (issue 38): once a day, in the service's time zone, the people who
// manage stock (Medical Inventory create or edit) get one notification naming the items below
// their minimum, the expired stock and the stock expiring within the window of System
// Settings (30 days by default), delivered to the inbox and by web push like every other
// notification. Nothing to say: nothing sent. Already sent today: not sent again (its link
// carries the day, so one row says so on every instance).
import { sql, type Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { expiryState } from '@rescuelog/sync-protocol/inventory/stock';
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import { zonedDay } from '@rescuelog/sync-protocol/time';
import * as repo from '../repositories/notifications-repository';
import { toPublicUser } from './users-service';

export interface StockAlert {
  low: string[];
  expired: string[];
  expiring: string[];
}

/** Items below their minimum, and items with stock in batches expired or expiring soon. */
export async function stockAlerts(
  db: Kysely<Database>,
  today: string,
  windowDays: number,
): Promise<StockAlert> {
  const low = await sql<{ description: string }>`
    select i.description from inventory_items i
    left join (select item_id, sum(quantity) as stock from inventory_movements group by item_id) m
      on m.item_id = i.id
    where i.deleted_at is null and coalesce(m.stock, 0) < i.minimum_qty
    order by i.description`.execute(db);
  const batches = await sql<{ description: string; expiryDate: string }>`
    select distinct i.description, b.expiry_date::text as expiry_date
    from inventory_batches b
    join inventory_items i on i.id = b.item_id and i.deleted_at is null
    join (select batch_id, sum(quantity) as stock from inventory_movements
          where batch_id is not null group by batch_id) m on m.batch_id = b.id
    where b.deleted_at is null and m.stock > 0
      and b.expiry_date <= ${today}::date + ${windowDays}::int
    order by b.expiry_date::text, i.description`.execute(db);
  const expired = new Set<string>();
  const expiring = new Set<string>();
  for (const b of batches.rows)
    (expiryState(b.expiryDate, today, windowDays) === 'expired' ? expired : expiring).add(
      b.description,
    );
  return {
    low: low.rows.map((r) => r.description),
    expired: [...expired],
    expiring: [...expiring].filter((d) => !expired.has(d)),
  };
}

function alertMessage(alert: StockAlert, windowDays: number): string {
  const parts = [
    alert.low.length > 0 ? `Low stock: ${alert.low.join(', ')}.` : '',
    alert.expired.length > 0 ? `Expired: ${alert.expired.join(', ')}.` : '',
    alert.expiring.length > 0
      ? `Expiring within ${String(windowDays)} days: ${alert.expiring.join(', ')}.`
      : '',
  ].filter(Boolean);
  const text = parts.join(' ');
  return text.length <= 500 ? text : `${text.slice(0, 499)}…`;
}

/** Sends today's notice if it is due; the number of people it went to (0: not sent). */
export async function sendDailyStockAlert(
  db: Kysely<Database>,
  now: Date,
  settings: { serviceTimeZone: string; inventoryExpiryWindowDays: number },
): Promise<number> {
  const today = zonedDay(now, settings.serviceTimeZone);
  if (!today) return 0;
  const url = `/medical-inventory?alert=${today}`;
  const sent = await db
    .selectFrom('notifications')
    .select('id')
    .where('url', '=', url)
    .executeTakeFirst();
  if (sent) return 0;
  const alert = await stockAlerts(db, today, settings.inventoryExpiryWindowDays);
  if (alert.low.length + alert.expired.length + alert.expiring.length === 0) return 0;
  const people = await db
    .selectFrom('users')
    .leftJoin('roles', 'roles.id', 'users.roleId')
    .selectAll('users')
    .select(['roles.permissions as rolePermissions', 'roles.name as roleName'])
    .where('users.status', '=', 'approved')
    .execute();
  const ids = people
    .map(({ rolePermissions, roleName, ...row }) => toPublicUser(row, rolePermissions, roleName))
    .filter(
      (u) =>
        hasPermission(u, 'medicalInventory', 'create') ||
        hasPermission(u, 'medicalInventory', 'edit'),
    )
    .map((u) => u.id);
  if (ids.length === 0) return 0;
  await db.transaction().execute(async (trx) => {
    const row = await repo.insertNotification(trx, {
      title: 'Stock to check',
      message: alertMessage(alert, settings.inventoryExpiryWindowDays),
      type: 'system',
      priority: 'high',
      targetUserIds: ids,
      targetRoles: null,
      status: 'sending',
      sentAt: now,
      fannedOutAt: now,
      scheduledFor: null,
      url,
      sound: null,
      createdBy: null,
    });
    await repo.insertDeliveriesWithPushes(trx, row.id, ids);
  });
  return ids.length;
}
