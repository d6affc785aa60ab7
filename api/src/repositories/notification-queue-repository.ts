// The notification job and the web push queue in PostgreSQL (docs/decisions/028). Every
// claim is `FOR UPDATE SKIP LOCKED` plus a lease: several API instances share the work, a row
// is worked on by one of them at a time, and a row whose instance died is taken over when its
// lease runs out. Fan-out is idempotent (unique (notification, user) and (delivery,
// subscription)), so a fan-out repeated after a crash adds nothing.
import { sql, type Kysely, type Transaction } from 'kysely';
import type {
  Database,
  NotificationPriority,
  NotificationType,
  PushState,
} from '@rescuelog/db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/**
 * Takes one due notification: scheduled whose time has come, pending for longer than
 * `pendingGraceSeconds` (the request that created it fans it out itself; the job takes it
 * only if that request failed), or one whose fan-out was claimed by an instance whose lease
 * ran out. It becomes 'sending' under this lease.
 */
export async function claimDueNotification(
  db: Db,
  leaseSeconds: number,
  pendingGraceSeconds = 0,
): Promise<{ id: number } | undefined> {
  const result = await sql<{ id: number }>`
    update notifications n
       set status = 'sending',
           lease_until = now() + ${leaseSeconds} * interval '1 second',
           updated_at = now()
     where n.id = (
       select id from notifications
        where (status = 'scheduled' and scheduled_for <= now())
           or (status = 'pending'
               and created_at <= now() - ${pendingGraceSeconds} * interval '1 second')
           or (status = 'sending' and fanned_out_at is null and lease_until < now())
        order by coalesce(scheduled_for, created_at), id
        limit 1
        for update skip locked)
    returning n.id`.execute(db);
  return result.rows[0];
}

/** Claims this one notification if it is pending now (the request that created it sends it). */
export async function claimPendingNotification(
  db: Db,
  id: number,
  leaseSeconds: number,
): Promise<boolean> {
  const result = await sql<{ id: number }>`
    update notifications n
       set status = 'sending',
           lease_until = now() + ${leaseSeconds} * interval '1 second',
           updated_at = now()
     where n.id = (select id from notifications where id = ${id} and status = 'pending'
                   for update skip locked)
    returning n.id`.execute(db);
  return result.rows.length > 0;
}

/**
 * Writes one delivery per approved recipient and queues one push per recipient device, then
 * marks the notification fanned out ('sent' at once when nothing is left to push). Runs in
 * one transaction; false when another instance finished this fan-out first.
 */
export async function fanOut(db: Kysely<Database>, notificationId: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const n = await trx
      .selectFrom('notifications')
      .select(['targetUserIds', 'targetRoles', 'status', 'fannedOutAt'])
      .where('id', '=', notificationId)
      .forUpdate()
      .executeTakeFirst();
    if (!n || n.status !== 'sending' || n.fannedOutAt !== null) return false;
    const byIds = n.targetUserIds !== null && n.targetUserIds.length > 0;
    const byRoles = n.targetRoles !== null && n.targetRoles.length > 0;
    const ids = n.targetUserIds ?? [];
    const roles = n.targetRoles ?? [];
    await trx
      .insertInto('notificationDeliveries')
      .columns(['notificationId', 'userId'])
      .expression((eb) => {
        let query = eb
          .selectFrom('users')
          .leftJoin('roles', 'roles.id', 'users.roleId')
          .select([sql.lit(notificationId).as('notificationId'), 'users.id'])
          .where('users.status', '=', 'approved');
        if (byIds || byRoles)
          query = query.where((w) =>
            w.or([
              ...(byIds ? [w('users.id', 'in', ids)] : []),
              ...(byRoles
                ? [
                    w('users.role', 'in', roles as Array<'administrator' | 'member'>),
                    w('roles.name', 'in', roles),
                  ]
                : []),
            ]),
          );
        return query;
      })
      .onConflict((oc) => oc.columns(['notificationId', 'userId']).doNothing())
      .execute();
    await queuePushes(trx, notificationId);
    await sql`
      update notifications n
         set fanned_out_at = now(),
             sent_at = now(),
             lease_until = null,
             updated_at = now(),
             status = case when exists (
               select 1 from notification_pushes p
                where p.notification_id = n.id and p.state = 'queued') then 'sending' else 'sent' end
       where n.id = ${notificationId}`.execute(trx);
    return true;
  });
}

/**
 * Queues a push to every device of the notification's recipients (or of the given
 * deliveries only) that has none queued or made yet.
 */
export async function queuePushes(
  db: Db,
  notificationId: number,
  deliveryIds?: readonly number[],
): Promise<void> {
  if (deliveryIds !== undefined && deliveryIds.length === 0) return;
  await sql`
    insert into notification_pushes (notification_id, delivery_id, subscription_id)
    select d.notification_id, d.id, s.id
      from notification_deliveries d
      join push_subscriptions s on s.user_id = d.user_id
     where d.notification_id = ${notificationId}
       ${deliveryIds !== undefined ? sql`and d.id in (${sql.join(deliveryIds)})` : sql``}
    on conflict (delivery_id, subscription_id) do nothing`.execute(db);
}

/** What a push shows: its notification's content, as a claimed push carries it. */
export interface PushContent {
  notificationId: number;
  title: string;
  message: string;
  type: NotificationType;
  priority: NotificationPriority;
  url: string | null;
  icon: string;
  badge: string;
  sound: string | null;
  createdAt: Date;
}

export interface PushJob extends PushContent {
  id: number;
  deliveryId: number;
  subscriptionId: number | null;
  attempts: number;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
}

/** Claims up to `limit` queued pushes that are due, counting the attempt, under a lease. */
export async function claimPushes(db: Db, limit: number, leaseSeconds: number): Promise<PushJob[]> {
  const result = await sql<PushJob>`
    with claimed as (
      update notification_pushes p
         set lease_until = now() + ${leaseSeconds} * interval '1 second',
             attempts = p.attempts + 1,
             updated_at = now()
        from (select id from notification_pushes
               where state = 'queued' and next_attempt_at <= now()
                 and (lease_until is null or lease_until < now())
               order by next_attempt_at, id
               limit ${limit}
               for update skip locked) c
       where p.id = c.id
      returning p.id, p.notification_id, p.delivery_id, p.subscription_id, p.attempts
    )
    select c.id, c.notification_id as "notificationId", c.delivery_id as "deliveryId",
           c.subscription_id as "subscriptionId", c.attempts,
           s.endpoint, s.p256dh, s.auth,
           n.title, n.message, n.type, n.priority, n.url, n.icon, n.badge, n.sound,
           n.created_at as "createdAt"
      from claimed c
      join notifications n on n.id = c.notification_id
      left join push_subscriptions s on s.id = c.subscription_id
     order by c.id`.execute(db);
  return result.rows;
}

export type PushOutcome =
  | { jobId: number; deliveryId: number; state: 'sent'; statusCode: number }
  | {
      jobId: number;
      deliveryId: number;
      state: Exclude<PushState, 'sent' | 'queued'>;
      statusCode: number | null;
      error: string;
      /** For 'gone': the subscription to delete. */
      subscriptionId?: number | null;
    }
  | {
      jobId: number;
      deliveryId: number;
      state: 'queued';
      statusCode: number | null;
      error: string;
      retryInMs: number;
    };

const MAX_ERROR = 500;

/**
 * Writes the outcome of a batch of pushes in one transaction: pushes sent, gone (and their
 * subscriptions deleted), to be retried, or failed; the deliveries they move (sent, or failed
 * when none of the user's devices is left to try); and the notifications whose queue is
 * now empty ('sent').
 */
export async function recordPushOutcomes(
  db: Kysely<Database>,
  outcomes: readonly PushOutcome[],
): Promise<void> {
  if (outcomes.length === 0) return;
  await db.transaction().execute(async (trx) => {
    const sent = outcomes.filter((o) => o.state === 'sent');
    if (sent.length > 0) {
      await trx
        .updateTable('notificationPushes')
        .set({
          state: 'sent',
          sentAt: sql`now()`,
          statusCode: sent[0]?.statusCode ?? 201,
          leaseUntil: null,
          lastError: null,
          updatedAt: sql`now()`,
        })
        .where(
          'id',
          'in',
          sent.map((o) => o.jobId),
        )
        .execute();
      await sql`
        update notification_deliveries
           set pushed_at = coalesce(pushed_at, now()),
               status = case when status in ('pending', 'failed') then 'sent' else status end,
               error_message = case when status = 'failed' then null else error_message end,
               updated_at = now()
         where id in (${sql.join(sent.map((o) => o.deliveryId))})`.execute(trx);
    }
    const rest = outcomes.filter((o) => o.state !== 'sent');
    if (rest.length > 0) {
      const rows = rest.map(
        (o) =>
          sql`(${o.jobId}::int, ${o.state}::text, ${o.statusCode}::int, ${o.error.slice(0, MAX_ERROR)}::text, ${o.state === 'queued' ? Math.round(o.retryInMs) : 0}::int)`,
      );
      await sql`
        update notification_pushes p
           set state = v.state,
               status_code = v.status_code,
               last_error = v.error,
               next_attempt_at = case when v.state = 'queued'
                 then now() + v.retry_ms * interval '1 millisecond' else p.next_attempt_at end,
               lease_until = null,
               updated_at = now()
          from (values ${sql.join(rows)}) as v(id, state, status_code, error, retry_ms)
         where p.id = v.id`.execute(trx);
      const gone = rest
        .map((o) => (o.state === 'gone' ? o.subscriptionId : undefined))
        .filter((id): id is number => typeof id === 'number');
      if (gone.length > 0)
        await trx.deleteFrom('pushSubscriptions').where('id', 'in', gone).execute();
      const ended = rest.filter((o) => o.state !== 'queued').map((o) => o.deliveryId);
      if (ended.length > 0) await settleFailedDeliveries(trx, ended);
    }
    await finishDrainedNotifications(trx, [
      ...new Set(
        (
          await trx
            .selectFrom('notificationPushes')
            .select('notificationId')
            .where(
              'id',
              'in',
              outcomes.map((o) => o.jobId),
            )
            .execute()
        ).map((r) => r.notificationId),
      ),
    ]);
  });
}

/**
 * Deliveries still pending whose every push has ended without a push service accepting it
 * become 'failed', with what each device's push service said (docs/decisions/028).
 */
async function settleFailedDeliveries(db: Db, deliveryIds: readonly number[]): Promise<void> {
  await sql`
    update notification_deliveries d
       set status = 'failed',
           error_message = left(case when f.n > 1 then f.n || ' devices: ' || f.message
                                     else f.message end, ${MAX_ERROR}),
           updated_at = now()
      from (select p.delivery_id,
                   count(*) as n,
                   string_agg(coalesce(p.last_error, 'Push failed')
                     || case when p.attempts > 1 then ' (after ' || p.attempts || ' attempts)' else '' end,
                     '; ' order by p.id) as message
              from notification_pushes p
             where p.delivery_id in (${sql.join([...new Set(deliveryIds)])})
             group by p.delivery_id
            having bool_and(p.state in ('failed', 'gone'))) f
     where d.id = f.delivery_id and d.status = 'pending'`.execute(db);
}

/**
 * Notifications fanned out whose push queue is empty become 'sent'. With `ids`, only those;
 * without, every one (the job's periodic sweep after an instance died between the last push
 * and this step).
 */
export async function finishDrainedNotifications(db: Db, ids?: readonly number[]): Promise<void> {
  if (ids !== undefined && ids.length === 0) return;
  await sql`
    update notifications n set status = 'sent', updated_at = now()
     where n.status = 'sending' and n.fanned_out_at is not null
       ${ids !== undefined ? sql`and n.id in (${sql.join(ids)})` : sql``}
       and not exists (select 1 from notification_pushes p
                        where p.notification_id = n.id and p.state = 'queued')`.execute(db);
}
