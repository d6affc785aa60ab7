// The `uploads` table: one row per upload URL handed out. The token itself is never stored,
// only its SHA-256. Status: 'pending' while the URL can be used; 'expired' once it cannot
// (its one PUT has started, or failed); 'stored' when the PUT stored an object, whose
// server-generated name is `storageKey`.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertUploadToken(
  db: Db,
  values: { tokenHash: string; ownerUserId: number; expiresAt: Date },
) {
  return db
    .insertInto('uploads')
    .values(values)
    .returning(['id', 'expiresAt'])
    .executeTakeFirstOrThrow();
}

/** The user's upload URLs that can still be used: how many, and when the first one lapses. */
export async function openUploadTokens(
  db: Db,
  ownerUserId: number,
  now: Date,
): Promise<{ count: number; firstExpiry: Date | null }> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => [
      eb.fn.countAll<string>().as('count'),
      eb.fn.min('expiresAt').as('firstExpiry'),
    ])
    .where('ownerUserId', '=', ownerUserId)
    .where('status', '=', 'pending')
    .where('expiresAt', '>', now)
    .executeTakeFirstOrThrow();
  return {
    count: Number(row.count),
    firstExpiry: row.firstExpiry ? new Date(row.firstExpiry) : null,
  };
}

/**
 * Spends a pending, unexpired token of this user and returns its row. One UPDATE, so two
 * concurrent PUTs to the same URL cannot both win.
 */
export async function claimUploadToken(db: Db, tokenHash: string, ownerUserId: number, now: Date) {
  return db
    .updateTable('uploads')
    .set({ status: 'expired' })
    .where('tokenHash', '=', tokenHash)
    .where('ownerUserId', '=', ownerUserId)
    .where('status', '=', 'pending')
    .where('expiresAt', '>', now)
    .returning(['id'])
    .executeTakeFirst();
}

/** Records who spent the URL and the bytes its PUT may write meanwhile (the quota reservation). */
export async function recordClaim(
  db: Db,
  id: string,
  values: { clientIp: string; claimedAt: Date; reservedBytes: number },
): Promise<void> {
  await db.updateTable('uploads').set(values).where('id', '=', id).execute();
}

/** The PUT ended without storing: its reservation no longer counts. */
export async function releaseReservation(db: Db, id: string): Promise<void> {
  await db.updateTable('uploads').set({ reservedBytes: 0 }).where('id', '=', id).execute();
}

export async function recordStoredObject(
  db: Db,
  id: string,
  values: { storageKey: string; contentType: string; sizeBytes: number; storedAt: Date },
) {
  await db
    .updateTable('uploads')
    .set({ ...values, status: 'stored', reservedBytes: 0 })
    .where('id', '=', id)
    .execute();
}

export async function findStoredObject(db: Db, storageKey: string) {
  return db
    .selectFrom('uploads')
    .select(['id', 'ownerUserId', 'storageKey', 'contentType', 'sizeBytes', 'storedAt'])
    .where('storageKey', '=', storageKey)
    .where('status', '=', 'stored')
    .executeTakeFirst();
}

/** Deletes upload rows whose URL lapsed unused (or whose PUT failed) before `before`. */
export async function deleteLapsedTokens(db: Db, before: Date): Promise<number> {
  const result = await db
    .deleteFrom('uploads')
    .where('status', 'in', ['pending', 'expired'])
    .where('expiresAt', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Deletes, in one statement, up to `limit` stored objects older than `storedBefore` that no
 * account refers to (not its ID document, not among its certifications: uploads never
 * recorded, or replaced by newer ones), and returns their storage keys so the caller can
 * remove the files. Rows another transaction holds are skipped, so instances sweeping at the
 * same time take disjoint rows; the reference check and the delete are one decision.
 */
export async function deleteUnreferencedObjects(
  db: Db,
  storedBefore: Date,
  limit: number,
): Promise<string[]> {
  const result = await sql<{ storageKey: string | null }>`
    delete from uploads
    where id in (
      select u.id from uploads u
      where u.status = 'stored' and u.stored_at < ${storedBefore}
        and not exists (
          select 1 from users
          where users.id_document_url = '/api/objects/' || u.storage_key
             or strpos(coalesce(users.certifications_url, ''), '/api/objects/' || u.storage_key) > 0
        )
      order by u.stored_at
      limit ${limit}
      for update skip locked
    )
    returning storage_key as "storageKey"
  `.execute(db);
  return result.rows.flatMap((row) => (row.storageKey === null ? [] : [row.storageKey]));
}

/** Stored objects by name, optionally only those of `ownerUserId`. */
export async function findStoredObjects(
  db: Db,
  storageKeys: readonly string[],
  ownerUserId?: number,
) {
  if (storageKeys.length === 0) return [];
  let query = db
    .selectFrom('uploads')
    .select(['ownerUserId', 'storageKey', 'contentType', 'sizeBytes', 'storedAt'])
    .where('storageKey', 'in', storageKeys)
    .where('status', '=', 'stored');
  if (ownerUserId !== undefined) query = query.where('ownerUserId', '=', ownerUserId);
  return query.execute();
}
