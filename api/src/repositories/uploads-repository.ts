// The `uploads` table: one row per upload URL handed out. The token itself is never stored,
// only its SHA-256. Status: 'pending' while the URL can be used; 'expired' once it cannot
// (its one PUT has started, or failed); 'stored' when the PUT stored an object, whose
// server-generated name is `storageKey`.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';

type Db = Kysely<Database> | Transaction<Database>;

export async function insertUploadToken(db: Db, values: { tokenHash: string; ownerUserId: number; expiresAt: Date }) {
  return db.insertInto('uploads').values(values).returning(['id', 'expiresAt']).executeTakeFirstOrThrow();
}

/** The user's upload URLs that can still be used: how many, and when the first one lapses. */
export async function openUploadTokens(db: Db, ownerUserId: number, now: Date): Promise<{ count: number; firstExpiry: Date | null }> {
  const row = await db
    .selectFrom('uploads')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.min('expiresAt').as('firstExpiry')])
    .where('ownerUserId', '=', ownerUserId)
    .where('status', '=', 'pending')
    .where('expiresAt', '>', now)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), firstExpiry: row.firstExpiry ? new Date(row.firstExpiry) : null };
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

export async function recordStoredObject(db: Db, id: string, values: { storageKey: string; contentType: string; sizeBytes: number; storedAt: Date }) {
  await db
    .updateTable('uploads')
    .set({ ...values, status: 'stored' })
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

/** Stored objects by name, optionally only those of `ownerUserId`. */
export async function findStoredObjects(db: Db, storageKeys: readonly string[], ownerUserId?: number) {
  if (storageKeys.length === 0) return [];
  let query = db
    .selectFrom('uploads')
    .select(['ownerUserId', 'storageKey', 'contentType', 'sizeBytes', 'storedAt'])
    .where('storageKey', 'in', storageKeys)
    .where('status', '=', 'stored');
  if (ownerUserId !== undefined) query = query.where('ownerUserId', '=', ownerUserId);
  return query.execute();
}
