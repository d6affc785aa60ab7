// Documents picked on the Register tab (or the pending screen). They are only uploaded once
// the account exists; entries that failed stay here so the pending screen can retry them
// without the user picking the files again.
import {
  ALLOWED_UPLOAD_TYPES,
  MAX_CERTIFICATIONS,
  MAX_ID_DOCUMENTS,
  MAX_UPLOAD_BYTES,
  UPLOAD_MESSAGES,
} from '@rescuelog/sync-protocol/accounts/uploads';
import { create } from 'zustand';

export type DocumentKind = 'id' | 'certification';
export type UploadStatus = 'selected' | 'uploading' | 'uploaded' | 'failed';

export interface DocumentEntry {
  id: string;
  kind: DocumentKind;
  file: File;
  status: UploadStatus;
  loaded: number;
  url?: string;
  error?: string;
}

interface DocumentUploadsState {
  entries: DocumentEntry[];
  /** Adds files of one kind; returns the messages for files that were refused. */
  addFiles: (kind: DocumentKind, files: readonly File[]) => string[];
  removeEntry: (id: string) => void;
  patchEntry: (id: string, patch: Partial<DocumentEntry>) => void;
  reset: () => void;
}

export const DOCUMENT_LIMITS: Record<DocumentKind, number> = {
  id: MAX_ID_DOCUMENTS,
  certification: MAX_CERTIFICATIONS,
};

let nextId = 0;

function isAllowedType(type: string): boolean {
  return Object.prototype.hasOwnProperty.call(ALLOWED_UPLOAD_TYPES, type);
}

export const useDocumentUploads = create<DocumentUploadsState>()((set, get) => ({
  entries: [],
  addFiles: (kind, files) => {
    const errors: string[] = [];
    const current = get().entries.filter((e) => e.kind === kind).length;
    const accepted: DocumentEntry[] = [];
    for (const file of files) {
      if (file.size > MAX_UPLOAD_BYTES) {
        errors.push(`${file.name}: ${UPLOAD_MESSAGES.tooLarge}`);
      } else if (!isAllowedType(file.type)) {
        errors.push(`${file.name}: ${UPLOAD_MESSAGES.typeNotAllowed}`);
      } else if (current + accepted.length >= DOCUMENT_LIMITS[kind]) {
        errors.push(
          kind === 'id'
            ? UPLOAD_MESSAGES.tooManyIdDocuments
            : UPLOAD_MESSAGES.tooManyCertifications,
        );
      } else {
        nextId += 1;
        accepted.push({ id: `doc-${nextId}`, kind, file, status: 'selected', loaded: 0 });
      }
    }
    set((s) => ({ entries: [...s.entries, ...accepted] }));
    return [...new Set(errors)];
  },
  removeEntry: (id) => set((s) => ({ entries: s.entries.filter((e) => e.id !== id) })),
  patchEntry: (id, patch) =>
    set((s) => ({ entries: s.entries.map((e) => (e.id === id ? { ...e, ...patch } : e)) })),
  reset: () => set({ entries: [] }),
}));
