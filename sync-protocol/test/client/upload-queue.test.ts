import { describe, expect, it } from 'vitest';
import {
  UPLOAD_BACKOFF_MAX_MS,
  bytesWaiting,
  dueUploads,
  newUpload,
  uploadBackoffMs,
  uploadStep,
  type UploadEntry,
  type UploadEvent,
} from '../../src/client/upload-queue';

const MiB = 1024 * 1024;
const run = (entry: UploadEntry, ...events: UploadEvent[]) => events.reduce(uploadStep, entry);

describe('the upload queue state machine', () => {
  it('pending, uploading with progress, done; done is final and never sends again', () => {
    let e = newUpload('video', 20 * MiB);
    expect(e.status).toBe('pending');
    e = run(e, { type: 'start' }, { type: 'progress', sent: 5 * MiB });
    expect(e).toMatchObject({ status: 'uploading', sent: 5 * MiB });
    e = run(e, { type: 'succeeded' });
    expect(e).toMatchObject({ status: 'done', sent: 20 * MiB });
    expect(run(e, { type: 'start' }, { type: 'succeeded' }, { type: 'offline' })).toBe(e);
    expect(dueUploads([e], Date.now())).toEqual([]);
  });

  it('pauses offline keeping the bytes sent, and resumes from them when online', () => {
    const e = run(
      newUpload('video', 20 * MiB),
      { type: 'start' },
      { type: 'progress', sent: 10 * MiB },
      { type: 'offline' },
    );
    expect(e).toMatchObject({ status: 'paused', sent: 10 * MiB });
    expect(dueUploads([e], 0)).toEqual([]);
    const back = run(e, { type: 'online' });
    expect(back).toMatchObject({ status: 'pending', sent: 10 * MiB });
    // Progress never goes backwards (a stale report after the resume).
    const resumed = run(back, { type: 'start' }, { type: 'progress', sent: 2 * MiB });
    expect(resumed.sent).toBe(10 * MiB);
    expect(bytesWaiting([resumed])).toBe(10 * MiB);
  });

  it('retries a failure with exponential backoff on a fake clock, up to five minutes', () => {
    let now = 1_000_000;
    let e = run(newUpload('photo', MiB), { type: 'start' });
    e = uploadStep(e, { type: 'failed', message: 'Network error', final: false, now });
    expect(e).toMatchObject({ status: 'failed', attempts: 1, nextAttemptAt: now + 1000 });
    expect(dueUploads([e], now + 999)).toEqual([]);
    expect(dueUploads([e], now + 1000).map((d) => d.status)).toEqual(['pending']);
    now += 1000;
    e = run(e, { type: 'retry' }, { type: 'start' });
    e = uploadStep(e, { type: 'failed', message: 'Network error', final: false, now });
    expect(e.nextAttemptAt).toBe(now + 2000);
    expect([1, 2, 3, 4, 20].map(uploadBackoffMs)).toEqual([
      1000,
      2000,
      4000,
      8000,
      UPLOAD_BACKOFF_MAX_MS,
    ]);
    // Progress resets the count: a slow link that moves is not a failing one.
    e = run(e, { type: 'retry' }, { type: 'start' }, { type: 'progress', sent: 100 });
    expect(e.attempts).toBe(0);
  });

  it('a refusal is final: it waits for the user, says why, and is never dropped', () => {
    const e = uploadStep(run(newUpload('big', 300 * MiB), { type: 'start' }), {
      type: 'failed',
      message: 'A video may be at most 200 MiB.',
      final: true,
      now: 0,
    });
    expect(e).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
      error: { message: 'A video may be at most 200 MiB.', final: true },
    });
    expect(dueUploads([e], Number.MAX_SAFE_INTEGER)).toEqual([]);
    expect(bytesWaiting([e])).toBe(300 * MiB);
    expect(uploadStep(e, { type: 'retry' }).status).toBe('pending');
  });
});
