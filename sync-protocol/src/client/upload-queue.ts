// The upload queue's state machine (issue 41, media; not wired to a transport or a screen
// yet): one entry per file stored on the device, its bytes sent so far, and what happens on
// each event. Pure (the caller passes the time), so the device's worker, the screens' progress
// bars and the tests share one set of rules:
// - pending -> uploading (start) -> done (succeeded): done is final; a late "succeeded" or a
//   second start never sends a file again.
// - uploading -> paused (offline) -> pending (online): the bytes the server confirmed are
//   kept; the next attempt resumes from `sent`, never from zero.
// - uploading -> failed (failure): retryable failures wait with exponential backoff (1 s, 2 s,
//   4 s … up to 5 min) and are due again at `nextAttemptAt`; a refusal (too large, wrong type)
//   is final and says why. Nothing is dropped: a failed entry stays until the user removes it.
// Kinds never appear here: an entry names its file and its owner record by id only.

export type UploadStatus = 'pending' | 'uploading' | 'paused' | 'done' | 'failed';

export interface UploadEntry {
  id: string;
  size: number;
  status: UploadStatus;
  /** Bytes the server has confirmed. */
  sent: number;
  /** Failed attempts in a row (reset by progress). */
  attempts: number;
  /** When a retryable failure may be tried again (ms); null when not waiting. */
  nextAttemptAt: number | null;
  /** Why the last attempt failed; `final` when retrying cannot help. */
  error: { message: string; final: boolean } | null;
}

export type UploadEvent =
  | { type: 'start' }
  | { type: 'progress'; sent: number }
  | { type: 'offline' }
  | { type: 'online' }
  | { type: 'succeeded' }
  | { type: 'failed'; message: string; final: boolean; now: number }
  | { type: 'retry' };

export const UPLOAD_BACKOFF_BASE_MS = 1000;
export const UPLOAD_BACKOFF_MAX_MS = 5 * 60_000;

export function newUpload(id: string, size: number): UploadEntry {
  return { id, size, status: 'pending', sent: 0, attempts: 0, nextAttemptAt: null, error: null };
}

/** The wait after `attempts` failures in a row. */
export function uploadBackoffMs(attempts: number): number {
  return Math.min(UPLOAD_BACKOFF_MAX_MS, UPLOAD_BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
}

/** The entry after `event` (the same object when the event does not apply). */
export function uploadStep(entry: UploadEntry, event: UploadEvent): UploadEntry {
  switch (event.type) {
    case 'start':
      return entry.status === 'pending'
        ? { ...entry, status: 'uploading', nextAttemptAt: null, error: null }
        : entry;
    case 'progress':
      // Bytes only ever grow, and never past the file.
      return entry.status === 'uploading' && event.sent > entry.sent
        ? { ...entry, sent: Math.min(entry.size, event.sent), attempts: 0 }
        : entry;
    case 'offline':
      return entry.status === 'uploading' || entry.status === 'pending'
        ? { ...entry, status: 'paused' }
        : entry;
    case 'online':
      return entry.status === 'paused' ? { ...entry, status: 'pending' } : entry;
    case 'succeeded':
      return entry.status === 'uploading'
        ? { ...entry, status: 'done', sent: entry.size, nextAttemptAt: null, error: null }
        : entry;
    case 'failed': {
      if (entry.status !== 'uploading') return entry;
      const attempts = entry.attempts + 1;
      return {
        ...entry,
        status: 'failed',
        attempts,
        nextAttemptAt: event.final ? null : event.now + uploadBackoffMs(attempts),
        error: { message: event.message, final: event.final },
      };
    }
    case 'retry':
      // The user's "Try again", also after a final refusal (e.g. the limit was raised).
      return entry.status === 'failed'
        ? { ...entry, status: 'pending', nextAttemptAt: null, error: null }
        : entry;
  }
}

/** Entries to start now: pending ones, and failed ones whose backoff has passed. */
export function dueUploads(entries: readonly UploadEntry[], now: number): UploadEntry[] {
  return entries
    .map((e) =>
      e.status === 'failed' && e.nextAttemptAt !== null && e.nextAttemptAt <= now
        ? { ...e, status: 'pending' as const, nextAttemptAt: null }
        : e,
    )
    .filter((e) => e.status === 'pending');
}

/** Bytes still to send (what the device's storage holds for uploads not done). */
export function bytesWaiting(entries: readonly UploadEntry[]): number {
  return entries.reduce((sum, e) => (e.status === 'done' ? sum : sum + (e.size - e.sent)), 0);
}
