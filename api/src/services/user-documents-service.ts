// PUT /api/user/documents and the administrator's view of a user's documents. Only URLs of
// objects the user uploaded (and that were stored) can be recorded on their account.
import type { Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  parseCertificationUrls,
  serializeCertificationUrls,
  type UserDocument,
} from '@rescuelog/sync-protocol/accounts/uploads';
import { ApiError } from '../lib/api-error';
import { findStoredObjects } from '../repositories/uploads-repository';
import { objectNameFromUrl } from './uploads-service';

export interface DocumentsChange {
  idDocumentUrl?: string | null | undefined;
  certificationsUrl?: string[] | null | undefined;
}

/** Writes the change on the user's row. Returns the stored values before and after, for the audit log. */
export async function updateUserDocuments(
  db: Kysely<Database>,
  userId: number,
  change: DocumentsChange,
) {
  const urls = [
    ...(change.idDocumentUrl ? [change.idDocumentUrl] : []),
    ...(change.certificationsUrl ?? []),
  ];
  const names = urls.map((url) => objectNameFromUrl(url));
  const owned = new Set(
    (
      await findStoredObjects(
        db,
        names.filter((n): n is string => n !== undefined),
        userId,
      )
    ).map((o) => o.storageKey),
  );
  const fieldErrors: Record<string, string[]> = {};
  urls.forEach((url, i) => {
    const name = names[i];
    if (name === undefined || !owned.has(name)) {
      const field = url === change.idDocumentUrl ? 'idDocumentUrl' : 'certificationsUrl';
      (fieldErrors[field] ??= []).push('Document not found among your uploads');
    }
  });
  if (Object.keys(fieldErrors).length > 0) {
    const first = Object.values(fieldErrors)[0]?.[0] ?? 'Document not found among your uploads';
    throw new ApiError(400, ErrorCode.VALIDATION_FAILED, first, { fieldErrors });
  }

  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('users')
      .select(['idDocumentUrl', 'certificationsUrl'])
      .where('id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (before === undefined) throw new ApiError(404, ErrorCode.NOT_FOUND, 'User not found');
    const set: {
      idDocumentUrl?: string | null;
      certificationsUrl?: string | null;
      updatedAt: Date;
    } = { updatedAt: new Date() };
    if (change.idDocumentUrl !== undefined) set.idDocumentUrl = change.idDocumentUrl;
    if (change.certificationsUrl !== undefined)
      set.certificationsUrl = serializeCertificationUrls(change.certificationsUrl);
    const after = await trx
      .updateTable('users')
      .set(set)
      .where('id', '=', userId)
      .returning(['idDocumentUrl', 'certificationsUrl'])
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}

/** The documents recorded on a user's account, with what the upload records know about each. */
export async function listUserDocuments(
  db: Kysely<Database>,
  userId: number,
): Promise<UserDocument[] | undefined> {
  const user = await db
    .selectFrom('users')
    .select(['idDocumentUrl', 'certificationsUrl'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (user === undefined) return undefined;
  const entries: Array<{ kind: UserDocument['kind']; url: string }> = [
    ...(user.idDocumentUrl ? [{ kind: 'idDocument' as const, url: user.idDocumentUrl }] : []),
    ...parseCertificationUrls(user.certificationsUrl).map((url) => ({
      kind: 'certification' as const,
      url,
    })),
  ];
  const names = entries
    .map((e) => objectNameFromUrl(e.url))
    .filter((n): n is string => n !== undefined);
  const objects = new Map(
    (await findStoredObjects(db, names, userId)).map((o) => [o.storageKey, o]),
  );
  return entries.map((entry) => {
    const name = objectNameFromUrl(entry.url);
    const object = name === undefined ? undefined : objects.get(name);
    return {
      kind: entry.kind,
      url: entry.url,
      contentType: object?.contentType ?? null,
      sizeBytes:
        object?.sizeBytes === undefined || object.sizeBytes === null
          ? null
          : Number(object.sizeBytes),
      uploadedAt: object?.storedAt ? new Date(object.storedAt).toISOString() : null,
    };
  });
}
