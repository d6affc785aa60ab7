// Uploads (issue 2, spec §7): a one-time, expiring upload URL bound to the signed-in user;
// the PUT to it stores the bytes under a server-generated name; stored objects are served
// only to their owner and to administrators.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES } from '@rescuelog/sync-protocol/accounts/uploads';
import { ApiError } from '../lib/api-error';
import {
  claimUploadToken,
  deleteLapsedTokens,
  deleteUnreferencedObjects,
  findStoredObject,
  insertUploadToken,
  openUploadTokens,
  recordClaim,
  recordStoredObject,
  releaseReservation,
} from '../repositories/uploads-repository';
import type { ObjectStorage, StoredObject } from './object-storage';
import { checkUpload, payloadTooLarge } from './upload-stream';
import {
  lockQuota,
  readUsage,
  roomFor,
  type Uploader,
  type UploadQuotaLimits,
} from './upload-quota';

export const UPLOAD_URL_TTL_MS = 15 * 60 * 1000;
/**
 * Open (unused, unexpired) upload URLs one user may hold. Registration needs at most six
 * (1 ID document, 5 certifications); the rest is room for retries. Stops a signed-in client
 * from filling the table with tokens.
 */
export const MAX_OPEN_UPLOAD_URLS = 20;
export const UPLOAD_URL_PREFIX = '/api/objects/upload/';
export const OBJECT_URL_PREFIX = '/api/objects/';

/** 32 random bytes in base64url: 43 characters. Anything else cannot be one of ours. */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
/** Stored object names: 24 random bytes in base64url plus the extension. */
const OBJECT_NAME_PATTERN = /^[A-Za-z0-9_-]{32}\.(pdf|jpg|png|webp)$/;

export const uploadUrlInvalid = () =>
  new ApiError(404, ErrorCode.UPLOAD_URL_INVALID, UPLOAD_MESSAGES.urlInvalid);
const objectNotFound = () => new ApiError(404, ErrorCode.NOT_FOUND, 'File not found');

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export async function createUploadUrl(
  db: Kysely<Database>,
  userId: number,
  now = new Date(),
): Promise<{ uploadURL: string; expiresAt: string }> {
  const open = await openUploadTokens(db, userId, now);
  if (open.count >= MAX_OPEN_UPLOAD_URLS) {
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil(
        ((open.firstExpiry?.getTime() ?? now.getTime() + UPLOAD_URL_TTL_MS) - now.getTime()) / 1000,
      ),
    );
    throw new ApiError(
      429,
      ErrorCode.RATE_LIMITED,
      'Too many unused upload links. Use them or wait for them to expire.',
      { retryAfterSeconds },
      { 'retry-after': String(retryAfterSeconds) },
    );
  }
  const token = randomBytes(32).toString('base64url');
  const row = await insertUploadToken(db, {
    tokenHash: hashToken(token),
    ownerUserId: userId,
    expiresAt: new Date(now.getTime() + UPLOAD_URL_TTL_MS),
  });
  return {
    uploadURL: `${UPLOAD_URL_PREFIX}${token}`,
    expiresAt: new Date(row.expiresAt).toISOString(),
  };
}

/**
 * Spends the token on any attempt by its owner (a URL is good for one PUT, refused or not),
 * reserves the bytes the PUT may write against the quotas, checks the bytes, writes them and
 * records the object. Throws 404 for an unknown, used, expired or someone else's token, 413
 * past the size limit or the account's quota, 429 past the address or pending-accounts
 * quota, 415 for a disallowed type; after a refusal nothing stays on disk.
 */
export async function storeUpload(
  db: Kysely<Database>,
  storage: ObjectStorage,
  input: {
    token: string;
    uploader: Uploader;
    body: AsyncIterable<Uint8Array>;
    /** The request's Content-Length, when it declared one. */
    declaredBytes?: number | undefined;
    /** The largest file System Settings allow (at most the spec's 10 MiB). */
    maxBytes?: number;
    quota: UploadQuotaLimits;
  },
): Promise<{ url: string; name: string; contentType: string; size: number }> {
  if (!TOKEN_PATTERN.test(input.token)) throw uploadUrlInvalid();
  const maxBytes = input.maxBytes ?? MAX_UPLOAD_BYTES;
  const declared = input.declaredBytes;
  const now = new Date();
  // One transaction: the claim, the quota reading and the reservation are one decision, and
  // the advisory lock makes parallel PUTs (on any instance) take their turn.
  const claim = await db.transaction().execute(async (trx) => {
    await lockQuota(trx);
    const claimed = await claimUploadToken(trx, hashToken(input.token), input.uploader.userId, now);
    if (claimed === undefined) return undefined;
    let refusal: ApiError | undefined;
    let reserve = 0;
    // What a body longer than the reservation gets: the file limit's 413, or the quota's
    // refusal when a quota left less room than the file limit.
    let overflow: ApiError = payloadTooLarge(maxBytes);
    if (declared !== undefined && declared > maxBytes) {
      refusal = payloadTooLarge(maxBytes);
    } else {
      const usage = await readUsage(trx, input.uploader, input.quota, now);
      const room = roomFor(usage, input.uploader, input.quota, declared ?? 1, now);
      refusal = room.refusal;
      if (!refusal) reserve = declared ?? Math.min(maxBytes, room.room);
      const full = roomFor(usage, input.uploader, input.quota, maxBytes, now).refusal;
      if (reserve < maxBytes && full) overflow = full;
    }
    await recordClaim(trx, claimed.id, {
      clientIp: input.uploader.ip,
      claimedAt: now,
      reservedBytes: reserve,
    });
    return { id: claimed.id, refusal, reserve, overflow };
  });
  if (claim === undefined) throw uploadUrlInvalid();
  if (claim.refusal) throw claim.refusal;

  let name: string | undefined;
  try {
    const checked = await checkUpload(input.body, claim.reserve, () => claim.overflow);
    name = `${randomBytes(24).toString('base64url')}.${checked.extension}`;
    const size = await storage.put(name, checked.body);
    await recordStoredObject(db, claim.id, {
      storageKey: name,
      contentType: checked.contentType,
      sizeBytes: size,
      storedAt: new Date(),
    });
    return { url: `${OBJECT_URL_PREFIX}${name}`, name, contentType: checked.contentType, size };
  } catch (error) {
    if (name !== undefined) await storage.remove(name);
    await releaseReservation(db, claim.id);
    throw error;
  }
}

export interface ObjectReader {
  id: number;
  role: 'administrator' | 'member';
}

export interface OpenedObject extends StoredObject {
  name: string;
  contentType: string;
  ownerId: number;
}

/**
 * Opens a stored object for `reader`: its owner or an administrator. 'forbidden' lets the
 * route audit the denial; an unknown name is a 404 whoever asks.
 */
export async function openObject(
  db: Kysely<Database>,
  storage: ObjectStorage,
  name: string,
  reader: ObjectReader,
): Promise<{ allowed: true; object: OpenedObject } | { allowed: false; ownerId: number }> {
  if (!OBJECT_NAME_PATTERN.test(name)) throw objectNotFound();
  const record = await findStoredObject(db, name);
  if (record === undefined || record.contentType === null) throw objectNotFound();
  if (record.ownerUserId !== reader.id && reader.role !== 'administrator')
    return { allowed: false, ownerId: record.ownerUserId };
  const stored = await storage.get(name);
  if (stored === undefined) throw objectNotFound();
  return {
    allowed: true,
    object: { ...stored, name, contentType: record.contentType, ownerId: record.ownerUserId },
  };
}

/** How long an upload nobody's account refers to is kept by default (UPLOAD_ORPHAN_HOURS). */
export const UNREFERENCED_OBJECT_GRACE_MS = 24 * 60 * 60 * 1000;
/** Spent or lapsed upload URLs are kept a day for the record, then deleted. */
export const LAPSED_TOKEN_GRACE_MS = 24 * 60 * 60 * 1000;
const CLEANUP_BATCH = 500;

/**
 * Deletes lapsed upload URLs, and the rows and then the files of stored objects no account
 * has referred to for `orphanGraceMs`. Safe to run on several instances at once: each row is
 * deleted by exactly one of them (deleteUnreferencedObjects), which then removes its file.
 * A file whose removal fails is left without a row and logged by the caller's error handler.
 */
export async function cleanupUploads(
  db: Kysely<Database>,
  storage: ObjectStorage,
  options: { now?: Date; orphanGraceMs?: number } = {},
): Promise<{ tokens: number; objects: number }> {
  const now = options.now ?? new Date();
  const grace = options.orphanGraceMs ?? UNREFERENCED_OBJECT_GRACE_MS;
  const tokens = await deleteLapsedTokens(db, new Date(now.getTime() - LAPSED_TOKEN_GRACE_MS));
  let objects = 0;
  for (;;) {
    const keys = await deleteUnreferencedObjects(
      db,
      new Date(now.getTime() - grace),
      CLEANUP_BATCH,
    );
    for (const key of keys) await storage.remove(key);
    objects += keys.length;
    if (keys.length < CLEANUP_BATCH) break;
  }
  return { tokens, objects };
}

/** `/api/objects/<name>` -> `<name>`, or undefined for anything that is not one of our URLs. */
export function objectNameFromUrl(url: string): string | undefined {
  if (!url.startsWith(OBJECT_URL_PREFIX)) return undefined;
  const name = url.slice(OBJECT_URL_PREFIX.length);
  return OBJECT_NAME_PATTERN.test(name) ? name : undefined;
}
