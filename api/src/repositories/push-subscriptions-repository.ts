// `push_subscriptions` (spec §3): one row per browser endpoint, owned by the user who last
// subscribed with it (a shared tablet's endpoint moves to whoever subscribes now).
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';

type Db = Kysely<Database> | Transaction<Database>;

/** Devices one account may register; past it the least recently renewed one is dropped. */
export const MAX_SUBSCRIPTIONS_PER_USER = 20;

export interface SubscriptionInput {
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
}

/**
 * Stores the signed-in user's subscription. An endpoint held by another user moves to this
 * one, and the pushes still queued for it are detached first: they were meant for the
 * previous user and must not reach this one's screen.
 */
export async function upsertSubscription(
  db: Kysely<Database>,
  userId: number,
  input: SubscriptionInput,
) {
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('pushSubscriptions')
      .select(['id', 'userId'])
      .where('endpoint', '=', input.endpoint)
      .forUpdate()
      .executeTakeFirst();
    if (existing && existing.userId !== userId)
      await trx
        .updateTable('notificationPushes')
        .set({ subscriptionId: null, updatedAt: sql`now()` })
        .where('subscriptionId', '=', existing.id)
        .where('state', '=', 'queued')
        .execute();
    const row = await trx
      .insertInto('pushSubscriptions')
      .values({ userId, ...input })
      .onConflict((oc) =>
        oc.column('endpoint').doUpdateSet({
          userId,
          p256dh: input.p256dh,
          auth: input.auth,
          userAgent: input.userAgent,
          updatedAt: sql`now()`,
        }),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
    const others = await trx
      .selectFrom('pushSubscriptions')
      .select('id')
      .where('userId', '=', userId)
      .orderBy('updatedAt', 'desc')
      .orderBy('id', 'desc')
      .offset(MAX_SUBSCRIPTIONS_PER_USER)
      .limit(1000)
      .execute();
    if (others.length > 0)
      await trx
        .deleteFrom('pushSubscriptions')
        .where(
          'id',
          'in',
          others.map((o) => o.id),
        )
        .execute();
    return {
      row,
      movedFromUserId: existing && existing.userId !== userId ? existing.userId : null,
    };
  });
}

export async function listSubscriptions(db: Db, userId: number) {
  return db
    .selectFrom('pushSubscriptions')
    .selectAll()
    .where('userId', '=', userId)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function deleteSubscription(db: Db, userId: number, endpoint: string) {
  const result = await db
    .deleteFrom('pushSubscriptions')
    .where('userId', '=', userId)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function deleteSubscriptionById(db: Db, id: number) {
  await db.deleteFrom('pushSubscriptions').where('id', '=', id).execute();
}
