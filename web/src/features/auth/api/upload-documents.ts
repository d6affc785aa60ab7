import { currentUserResponseSchema, type User } from '@rescuelog/sync-protocol/accounts/users';
import type { DocumentsInput } from '@rescuelog/sync-protocol/accounts/uploads';
import { errorMessage, sendJson } from '@/lib/api-client';
import { useDocumentUploads } from '../stores/document-uploads';
import { uploadFile } from '@/lib/upload-file';

export class DocumentUploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DocumentUploadError';
  }
}

/**
 * Uploads every picked document that is not stored yet, one at a time, then records all
 * stored URLs on the account with PUT /api/user/documents. Throws DocumentUploadError if any
 * file failed (the others stay uploaded, so a retry only resends the failed ones).
 */
export async function uploadPickedDocuments(): Promise<User | null> {
  const store = useDocumentUploads.getState;
  const pending = store().entries.filter((e) => e.status !== 'uploaded');
  if (store().entries.length === 0) return null;
  const failures: string[] = [];
  for (const entry of pending) {
    store().patchEntry(entry.id, { status: 'uploading', loaded: 0, error: undefined });
    try {
      const url = await uploadFile(entry.file, (loaded) =>
        store().patchEntry(entry.id, { loaded }),
      );
      store().patchEntry(entry.id, { status: 'uploaded', url, loaded: entry.file.size });
    } catch (error) {
      const message = errorMessage(error);
      failures.push(`${entry.file.name}: ${message}`);
      store().patchEntry(entry.id, { status: 'failed', error: message });
    }
  }
  const stored = store().entries.filter((e) => e.status === 'uploaded' && e.url);
  const body: DocumentsInput = {};
  const idUrl = stored.find((e) => e.kind === 'id')?.url;
  const certUrls = stored.filter((e) => e.kind === 'certification').map((e) => e.url ?? '');
  if (idUrl) body.idDocumentUrl = idUrl;
  if (certUrls.length > 0) body.certificationsUrl = certUrls;
  let user: User | null = null;
  if (idUrl || certUrls.length > 0) {
    try {
      ({ user } = await sendJson('PUT', '/api/user/documents', currentUserResponseSchema, body));
    } catch (error) {
      throw new DocumentUploadError(errorMessage(error));
    }
  }
  if (failures.length > 0) throw new DocumentUploadError(failures.join('; '));
  return user;
}
