import { ALLOWED_UPLOAD_ACCEPT } from '@rescuelog/sync-protocol/accounts/uploads';
import { FileText, Trash2 } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import {
  DOCUMENT_LIMITS,
  useDocumentUploads,
  type DocumentEntry,
  type DocumentKind,
} from '../stores/document-uploads';
import styles from './document-picker.module.css';
import { cx } from '@/lib/cx';

const STATUS_TEXT: Record<DocumentEntry['status'], string> = {
  selected: 'Ready to upload',
  uploading: 'Uploading',
  uploaded: 'Uploaded',
  failed: 'Upload failed',
};

function formatSize(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function FileRow({ entry, disabled }: { entry: DocumentEntry; disabled: boolean }) {
  const removeEntry = useDocumentUploads((s) => s.removeEntry);
  const percent =
    entry.file.size === 0
      ? entry.status === 'uploaded'
        ? 100
        : 0
      : Math.round((entry.loaded / entry.file.size) * 100);
  return (
    <li className={cx(styles.row, styles[entry.status])}>
      <FileText aria-hidden="true" size={20} className={styles.icon} />
      <div className={styles.main}>
        <span className={styles.name}>{entry.file.name}</span>
        <span className={styles.meta}>
          {formatSize(entry.file.size)} · {STATUS_TEXT[entry.status]}
          {entry.error ? `: ${entry.error}` : ''}
        </span>
        <progress
          className={styles.progress}
          max={100}
          value={percent}
          aria-label={`Upload progress for ${entry.file.name}`}
        >
          {percent}%
        </progress>
      </div>
      {entry.status !== 'uploaded' && entry.status !== 'uploading' ? (
        <button
          type="button"
          className="icon-button"
          onClick={() => removeEntry(entry.id)}
          disabled={disabled}
          aria-label={`Remove ${entry.file.name}`}
        >
          <Trash2 aria-hidden="true" size={20} />
        </button>
      ) : null}
    </li>
  );
}

interface DocumentInputProps {
  kind: DocumentKind;
  label: string;
  disabled: boolean;
}

/** One document slot (ID or certifications): picks files, checks the limits, lists them. */
function DocumentInput({ kind, label, disabled }: DocumentInputProps) {
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const entries = useDocumentUploads((s) => s.entries).filter((e) => e.kind === kind);
  const addFiles = useDocumentUploads((s) => s.addFiles);
  const [errors, setErrors] = useState<string[]>([]);
  const limit = DOCUMENT_LIMITS[kind];
  const full = entries.length >= limit;
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <p className="field__hint" id={`${id}-hint`}>
        {kind === 'id' ? '1 file' : `Up to ${limit} files`}, PDF, JPEG, PNG or WebP, at most 10 MB
        each.
      </p>
      <input
        ref={inputRef}
        id={id}
        type="file"
        className={styles.fileInput}
        accept={ALLOWED_UPLOAD_ACCEPT}
        multiple={limit > 1}
        disabled={disabled || full}
        aria-describedby={`${id}-hint${errors.length > 0 ? ` ${id}-error` : ''}`}
        onChange={(e) => {
          const files = Array.from(e.currentTarget.files ?? []);
          setErrors(addFiles(kind, files));
          // Clear the input so the same file can be picked again after removing it.
          if (inputRef.current) inputRef.current.value = '';
        }}
      />
      {errors.length > 0 ? (
        <div className="field__error" id={`${id}-error`} role="alert">
          {errors.map((m) => (
            <p key={m}>{m}</p>
          ))}
        </div>
      ) : null}
      {entries.length > 0 ? (
        <ul className={styles.fileList} aria-label={`${label} files`}>
          {entries.map((entry) => (
            <FileRow key={entry.id} entry={entry} disabled={disabled} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

interface DocumentPickerProps {
  disabled?: boolean;
  legend?: string;
  note?: string;
}

export function DocumentPicker({
  disabled = false,
  legend = 'Documents (optional)',
  note = 'Files are uploaded after your account is created.',
}: DocumentPickerProps) {
  return (
    <fieldset className="fieldset">
      <legend className="fieldset__legend">{legend}</legend>
      <p className="field__hint">{note}</p>
      <DocumentInput kind="id" label="ID document" disabled={disabled} />
      <DocumentInput kind="certification" label="Certifications" disabled={disabled} />
    </fieldset>
  );
}
