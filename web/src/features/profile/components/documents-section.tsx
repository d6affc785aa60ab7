import {
  ALLOWED_UPLOAD_ACCEPT,
  MAX_CERTIFICATIONS,
  MAX_UPLOAD_BYTES,
  parseCertificationUrls,
} from '@rescuelog/sync-protocol/accounts/uploads';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { useId, useState } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useServiceSettings } from '@/lib/service-settings';
import { toast } from '@/lib/toast-store';
import { uploadFile } from '@/lib/upload-file';
import { useSaveDocuments } from '../api/profile';

type Slot = 'id' | 'certification';
interface Upload {
  slot: Slot;
  file: File;
  progress: number;
  error: string | null;
}

/**
 * The ID document and certifications (spec §5: 1 ID file, up to 5 certificates, 10 MiB each,
 * or the lower limits in System Settings). A failed upload keeps the chosen file and offers
 * Try again, so a lost signal costs a tap, not a new search for the file.
 */
export function DocumentsSection({ user }: { user: User }) {
  const settings = useServiceSettings();
  const maxBytes = Math.min(MAX_UPLOAD_BYTES, (settings.data?.uploadMaxFileMiB ?? 10) * 1_048_576);
  const maxCertifications = Math.min(
    MAX_CERTIFICATIONS,
    settings.data?.uploadMaxCertifications ?? MAX_CERTIFICATIONS,
  );
  const certifications = parseCertificationUrls(user.certificationsUrl);
  const [upload, setUpload] = useState<Upload | null>(null);
  const save = useSaveDocuments();
  const idInput = useId();
  const certInput = useId();

  async function send(slot: Slot, file: File) {
    if (file.size > maxBytes) {
      setUpload({
        slot,
        file,
        progress: 0,
        error: `File is larger than ${String(Math.round(maxBytes / 1_048_576))} MiB`,
      });
      return;
    }
    setUpload({ slot, file, progress: 0, error: null });
    try {
      const url = await uploadFile(file, (loaded, total) =>
        setUpload((u) => (u ? { ...u, progress: total > 0 ? loaded / total : 0 } : u)),
      );
      await save.mutateAsync(
        slot === 'id' ? { idDocumentUrl: url } : { certificationsUrl: [...certifications, url] },
      );
      setUpload(null);
      toast({ title: 'Documents uploaded' });
    } catch (error) {
      setUpload({
        slot,
        file,
        progress: 0,
        error: errorMessage(error) || 'Failed to upload documents',
      });
    }
  }

  function removeCertification(url: string) {
    save.mutate(
      { certificationsUrl: certifications.filter((c) => c !== url) },
      { onSuccess: () => toast({ title: 'Certification removed' }) },
    );
  }

  const busy = upload !== null && upload.error === null;
  return (
    <section className="card settings-section" aria-labelledby="documents-title">
      <h2 id="documents-title" className="card__title">
        Documents
      </h2>
      <div className="field">
        <p className="field__label">ID document</p>
        {user.idDocumentUrl ? (
          <a
            href={user.idDocumentUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="text-link"
          >
            Open your ID document<span className="sr-only"> (opens in a new tab)</span>
          </a>
        ) : (
          <p className="text-muted">No ID document uploaded</p>
        )}
        <label className="field__label" htmlFor={idInput}>
          {user.idDocumentUrl ? 'Replace ID document' : 'Upload ID document'}
        </label>
        <input
          id={idInput}
          type="file"
          className="file-input"
          accept={ALLOWED_UPLOAD_ACCEPT}
          disabled={busy}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0];
            e.currentTarget.value = '';
            if (file) void send('id', file);
          }}
        />
      </div>
      <div className="field">
        <p className="field__label">
          Certifications ({certifications.length} of {maxCertifications})
        </p>
        {certifications.length === 0 ? (
          <p className="text-muted">No certifications uploaded</p>
        ) : null}
        <ul className="doc-links">
          {certifications.map((url, i) => (
            <li key={url}>
              <a href={url} target="_blank" rel="noopener noreferrer" className="text-link">
                Certification {i + 1}
                <span className="sr-only"> (opens in a new tab)</span>
              </a>{' '}
              <button
                type="button"
                className="button button--secondary"
                disabled={busy || save.isPending}
                onClick={() => removeCertification(url)}
              >
                Remove<span className="sr-only"> certification {i + 1}</span>
              </button>
            </li>
          ))}
        </ul>
        {certifications.length < maxCertifications ? (
          <>
            <label className="field__label" htmlFor={certInput}>
              Add a certification
            </label>
            <input
              id={certInput}
              type="file"
              className="file-input"
              accept={ALLOWED_UPLOAD_ACCEPT}
              disabled={busy}
              onChange={(e) => {
                const file = e.currentTarget.files?.[0];
                e.currentTarget.value = '';
                if (file) void send('certification', file);
              }}
            />
          </>
        ) : null}
      </div>
      {upload ? (
        <div className={`file-row${upload.error ? ' file-row--failed' : ''}`}>
          <div className="file-row__main">
            <span className="file-row__name">{upload.file.name}</span>
            {upload.error ? (
              <span className="field__error" role="alert">
                Upload failed: {upload.error}
              </span>
            ) : (
              <progress
                className="file-row__progress"
                value={upload.progress}
                max={1}
                aria-label={`Uploading ${upload.file.name}`}
              />
            )}
          </div>
          {upload.error ? (
            <button
              type="button"
              className="button button--primary"
              onClick={() => void send(upload.slot, upload.file)}
            >
              Try again
            </button>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
