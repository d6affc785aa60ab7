// Uploads (issue 2, spec §7): a one-time, expiring upload URL bound to the signed-in user;
// the PUT to it stores the bytes under a server-generated name; stored objects are served
// only to their owner and to administrators.
import { createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { UPLOAD_MESSAGES } from '@rescuelog/sync-protocol/uploads';
import { ApiError } from '../lib/api-error';
import {
  claimUploadToken,
  deleteLapsedTokens,
  deleteUpload,
  findStoredObject,
  findUnreferencedObjects,
  insertUploadToken,
  openUploadTokens,
  recordStoredObject,
} from '../repositories/uploads-repository';
import type { ObjectStorage, StoredObject } from './object-storage';
import { checkUpload } from './upload-stream';

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
 * Consumes the token (even when the upload then fails: a URL is good for one PUT), checks
 * the bytes, writes them and records the object. Throws 404 for an unknown, used, expired
 * or someone else's token, 415 for a disallowed type and 413 past the size limit; in the
 * last two cases nothing stays on disk.
 */
export async function storeUpload(
  db: Kysely<Database>,
  storage: ObjectStorage,
  input: {
    token: string;
    userId: number;
    body: AsyncIterable<Uint8Array>;
    /** The largest file System Settings allow (at most the spec's 10 MiB). */
    maxBytes?: number;
  },
): Promise<{ url: string; name: string; contentType: string; size: number }> {
  if (!TOKEN_PATTERN.test(input.token)) throw uploadUrlInvalid();
  const now = new Date();
  const claimed = await claimUploadToken(db, hashToken(input.token), input.userId, now);
  if (claimed === undefined) throw uploadUrlInvalid();

  const checked = await checkUpload(input.body, input.maxBytes);
  const name = `${randomBytes(24).toString('base64url')}.${checked.extension}`;
  const size = await storage.put(name, checked.body);
  try {
    await recordStoredObject(db, claimed.id, {
      storageKey: name,
      contentType: checked.contentType,
      sizeBytes: size,
      storedAt: new Date(),
    });
  } catch (error) {
    await storage.remove(name);
    throw error;
  }
  return { url: `${OBJECT_URL_PREFIX}${name}`, name, contentType: checked.contentType, size };
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

/** How long an upload nobody's account refers to is kept (the user may still retry recording it). */
export const UNREFERENCED_OBJECT_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/** Spent or lapsed upload URLs are kept a day for the record, then deleted. */
export const LAPSED_TOKEN_GRACE_MS = 24 * 60 * 60 * 1000;

/**
 * Deletes lapsed upload URLs and the files (and rows) of stored objects no account has
 * referred to for UNREFERENCED_OBJECT_GRACE_MS. The row goes only after its file, so a failed
 * delete is retried on the next run.
 */
export async function cleanupUploads(
  db: Kysely<Database>,
  storage: ObjectStorage,
  now = new Date(),
): Promise<{ tokens: number; objects: number }> {
  const tokens = await deleteLapsedTokens(db, new Date(now.getTime() - LAPSED_TOKEN_GRACE_MS));
  let objects = 0;
  for (const object of await findUnreferencedObjects(
    db,
    new Date(now.getTime() - UNREFERENCED_OBJECT_GRACE_MS),
    500,
  )) {
    if (object.storageKey !== null) await storage.remove(object.storageKey);
    await deleteUpload(db, object.id);
    objects += 1;
  }
  return { tokens, objects };
}

/** `/api/objects/<name>` -> `<name>`, or undefined for anything that is not one of our URLs. */
export function objectNameFromUrl(url: string): string | undefined {
  if (!url.startsWith(OBJECT_URL_PREFIX)) return undefined;
  const name = url.slice(OBJECT_URL_PREFIX.length);
  return OBJECT_NAME_PATTERN.test(name) ? name : undefined;
}
