// One document's trip to storage (registration and profile): ask for a one-time URL, then PUT
// the bytes to it with XMLHttpRequest, because fetch cannot report upload progress.
import {
  uploadStoredResponseSchema,
  uploadUrlResponseSchema,
} from '@rescuelog/sync-protocol/accounts/uploads';
import { HttpError, REQUESTED_WITH, sendJson } from '@/lib/api-client';

export type ProgressListener = (loaded: number, total: number) => void;

function putFile(uploadURL: string, file: File, onProgress: ProgressListener): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', uploadURL);
    xhr.withCredentials = true;
    xhr.setRequestHeader('X-Requested-With', REQUESTED_WITH);
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.addEventListener('progress', (e) => {
      if (e.lengthComputable) onProgress(e.loaded, e.total);
    });
    xhr.addEventListener('load', () => {
      if (xhr.status < 200 || xhr.status >= 300) {
        reject(new HttpError(xhr.status, xhr.statusText, xhr.responseText));
        return;
      }
      try {
        const { url } = uploadStoredResponseSchema.parse(JSON.parse(xhr.responseText));
        onProgress(file.size, file.size);
        resolve(url);
      } catch (error) {
        reject(error instanceof Error ? error : new Error('Unexpected upload response'));
      }
    });
    xhr.addEventListener('error', () => reject(new Error('Network error while uploading')));
    xhr.addEventListener('abort', () => reject(new Error('Upload cancelled')));
    xhr.send(file);
  });
}

/** Uploads one file; resolves with the stored object's URL (/api/objects/...). */
export async function uploadFile(file: File, onProgress: ProgressListener): Promise<string> {
  const { uploadURL } = await sendJson('POST', '/api/objects/upload', uploadUrlResponseSchema);
  return putFile(uploadURL, file, onProgress);
}
