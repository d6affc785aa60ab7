// The drainer: pushes the outbox to POST /api/sync/push in batches, in seq order, and acts
// on the answer. It never sleeps and never gives up on its own — it reports what happened
// and the caller (sync-engine.ts in a page, the service worker's sync event) decides when
// to try again. It never removes an entry the server did not acknowledge.
import type { z } from 'zod';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '../platform/versions';
import { pushResponseSchema, type PushResponse } from '../platform/push-pull';
import type { SyncDatabase } from './local-db';
import {
  outboxEntrySchema,
  readOrCreateDevice,
  readOutbox,
  rejectionSchema,
  type OutboxEntry,
  type PushState,
  type Rejection,
} from './outbox';
import { putServerCopy, restoreFromServer } from './server-copies';
import { isSetAsideMarker, SERVER_TRIES_BEFORE_SET_ASIDE, setAside } from './set-aside';
import {
  classifyResponse,
  describeNetworkError,
  SYNC_PUSH_PATH,
  type RetryReason,
  type SyncTransport,
} from './transport';

/** The server accepts 1..200 mutations per push. */
export const MAX_BATCH_SIZE = 200;
export const DEFAULT_BATCH_SIZE = 100;

export type DrainOutcome =
  | { kind: 'drained'; acknowledged: number; rejected: number }
  | { kind: 'auth-required'; status: number; message: string; acknowledged: number }
  | { kind: 'update-required'; message: string; acknowledged: number }
  | {
      kind: 'retry';
      reason: RetryReason | 'not-acknowledged';
      status: number | null;
      message: string;
      retryAfterMs: number | null;
      acknowledged: number;
    };

export interface DrainOptions {
  db: SyncDatabase;
  transport: SyncTransport;
  batchSize?: number;
  now?: () => Date;
}

/** The bookkeeping fields the drain changes; the rest of a row (the mutation, parsed when
 * the batch was read) is written back as stored. */
const bookkeepingSchema = outboxEntrySchema.pick({
  seq: true,
  attempts: true,
  serverFailures: true,
});
type Bookkeeping = Pick<
  OutboxEntry,
  'state' | 'attempts' | 'serverFailures' | 'lastError' | 'lastAttemptAt'
>;

/** Rewrites the bookkeeping of the outbox rows of `seqs` that still exist (re-read: the row
 * is the truth, a batch is a snapshot). Bulk reads and writes, and no second parse of each
 * mutation: one request each per batch. Call it inside a rw transaction on the outbox. */
async function updateEntries(
  db: SyncDatabase,
  seqs: number[],
  change: (entry: z.infer<typeof bookkeepingSchema>) => Partial<Bookkeeping>,
): Promise<void> {
  const rows = await db.outbox.bulkGet(seqs);
  const updated = rows.flatMap((raw) =>
    raw === undefined ? [] : [{ ...raw, ...change(bookkeepingSchema.parse(raw)) }],
  );
  await db.outbox.bulkPut(updated);
}

async function markInflight(db: SyncDatabase, batch: OutboxEntry[], at: string): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    await updateEntries(
      db,
      batch.map((entry) => entry.seq),
      (current) => ({ state: 'inflight', attempts: current.attempts + 1, lastAttemptAt: at }),
    );
  });
}

async function markPending(db: SyncDatabase, seqs: number[], lastError: string): Promise<void> {
  await db.transaction('rw', db.outbox, async () => {
    await updateEntries(db, seqs, () => ({ state: 'pending', lastError }));
  });
}

interface Applied {
  acknowledged: number;
  rejected: number;
  /** The server failed to store one (set-aside.ts): tried again later, or set aside now. */
  failure: { message: string; tries: number; setAside: boolean } | null;
}

/** Applies the server's acknowledgements in one transaction; returns what was acked. */
async function applyResults(
  db: SyncDatabase,
  batch: OutboxEntry[],
  response: PushResponse,
  at: string,
): Promise<Applied> {
  const bySeq = new Map(batch.map((entry) => [entry.seq, entry]));
  let acknowledged = 0;
  let rejected = 0;
  let failure: Applied['failure'] = null;
  const resetIds: string[] = [];
  const done: number[] = [];
  await db.transaction('rw', [...db.writeTables, db.rejections], async () => {
    for (const result of response.results) {
      const entry = bySeq.get(result.seq);
      // An answer about something we did not send in this batch is ignored, not trusted.
      if (entry === undefined || entry.mutationId !== result.mutationId) continue;
      bySeq.delete(result.seq);
      // A marker's change is in the inbox already (set-aside.ts); its answer only frees it.
      if (isSetAsideMarker(entry)) {
        done.push(entry.seq);
        acknowledged += 1;
        continue;
      }
      if (result.status === 'rejected') {
        const rejection: Rejection = rejectionSchema.parse({
          mutationId: entry.mutationId,
          seq: entry.seq,
          code: result.code ?? 'REJECTED',
          message: result.message ?? null,
          conflicts: result.conflicts ?? [],
          mutation: entry.mutation,
          rejectedAt: at,
          dismissedAt: null,
        });
        await db.rejections.put(rejection);
        rejected += 1;
      }
      // A rejected change must leave the device. A duplicate was applied by an earlier push
      // whose answer was lost; a pull since then may have rebased it over a newer server
      // version (another person's later write), so its records are rebuilt too.
      if (result.status !== 'applied') resetIds.push(...entry.entityIds);
      done.push(entry.seq);
      acknowledged += 1;
    }
    if (done.length > 0) await db.outbox.bulkDelete(done);
    // The server failed to store this one: count it; at the limit it is set aside, and the
    // later changes to its records with it (they keep their order).
    const failed = response.failed === undefined ? undefined : bySeq.get(response.failed.seq);
    if (response.failed && failed?.mutationId === response.failed.mutationId) {
      bySeq.delete(failed.seq);
      const tries = failed.serverFailures + 1;
      const message = response.failed.message;
      if (tries >= SERVER_TRIES_BEFORE_SET_ASIDE) {
        rejected += await setAside(db, failed, message, at);
        failure = { message, tries, setAside: true };
      } else {
        await updateEntries(db, [failed.seq], () => ({
          state: 'pending',
          serverFailures: tries,
          lastError: message,
        }));
        failure = { message, tries, setAside: false };
      }
    }
    // Sent but not acknowledged (the server stopped at a gap): back to pending, unchanged.
    // (Awaited only with work: see local-db.ts on awaiting helpers inside a transaction.)
    if (bySeq.size > 0) {
      await updateEntries(db, [...bySeq.keys()], () => ({
        state: 'pending',
        lastError: 'Not acknowledged by the server yet',
      }));
    }
    // Rebuild those rows from the server's copy plus what is still pending (after the
    // acknowledged entries left the outbox above). The server sends its current state of
    // those records with the answer: a record this device created, that no pull has brought
    // yet, then shows what the server accepted instead of vanishing until the next pull.
    if (resetIds.length > 0) {
      for (const change of response.records ?? []) await putServerCopy(db, change);
      await restoreFromServer(db, resetIds);
    }
  });
  return { acknowledged, rejected, failure };
}

/** Pushes until the outbox is empty or something stops it. Call it under the drain lock. */
export async function drainOutbox(options: DrainOptions): Promise<DrainOutcome> {
  const { db, transport } = options;
  const batchSize = Math.min(Math.max(options.batchSize ?? DEFAULT_BATCH_SIZE, 1), MAX_BATCH_SIZE);
  const now = options.now ?? (() => new Date());
  let acknowledged = 0;
  let rejected = 0;

  const deviceId = (await db.transaction('rw', db.syncState, async () => readOrCreateDevice(db)))
    .deviceId;

  for (;;) {
    const batch = await readOutbox(db, batchSize);
    if (batch.length === 0) {
      await db.syncState.put({
        key: 'push',
        lastSuccessAt: now().toISOString(),
      } satisfies PushState);
      return { kind: 'drained', acknowledged, rejected };
    }
    const attemptAt = now().toISOString();
    await markInflight(db, batch, attemptAt);
    const seqs = batch.map((entry) => entry.seq);
    const body = {
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId,
      mutations: batch.map((entry) => entry.mutation),
    };

    let response;
    try {
      response = await transport.post(SYNC_PUSH_PATH, body);
    } catch (error) {
      const message = describeNetworkError(error);
      await markPending(db, seqs, message);
      return {
        kind: 'retry',
        reason: 'network',
        status: null,
        message,
        retryAfterMs: null,
        acknowledged,
      };
    }

    const classified = classifyResponse(response, pushResponseSchema);
    if (classified.kind !== 'ok') {
      await markPending(db, seqs, classified.message);
      if (classified.kind === 'retry') return { ...classified, acknowledged };
      return { ...classified, acknowledged };
    }

    const result = await applyResults(db, batch, classified.data, now().toISOString());
    acknowledged += result.acknowledged;
    rejected += result.rejected;
    if (result.failure && !result.failure.setAside) {
      // Sent again after the backoff; set aside when it fails again (set-aside.ts).
      return {
        kind: 'retry',
        reason: 'server-error',
        status: 200,
        message: `${result.failure.message} (try ${String(result.failure.tries)} of ${String(SERVER_TRIES_BEFORE_SET_ASIDE)})`,
        retryAfterMs: null,
        acknowledged,
      };
    }
    if (result.acknowledged === 0 && !result.failure) {
      // The server took nothing from the head of the queue (a seq gap after a server-side
      // restore, say). Looping would spin; report it and let backoff retry.
      return {
        kind: 'retry',
        reason: 'not-acknowledged',
        status: 200,
        message: `The server acknowledged none of the changes (it has seq ${String(classified.data.lastAppliedSeq)}, the next is ${String(seqs[0])})`,
        retryAfterMs: null,
        acknowledged,
      };
    }
  }
}
