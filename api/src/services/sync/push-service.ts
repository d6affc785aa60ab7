// POST /api/sync/push: one transaction per batch. In seq order: seq <= the device's last
// applied seq is a duplicate (acknowledged, no effect); a gap stops the batch; every other
// mutation is applied or, if it can never apply, rejected (recorded, acknowledged and
// returned so it cannot block the queue). The device's last applied seq advances in the
// same transaction as the effects, so a response lost after commit only causes duplicates.
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { databaseError } from '@rescuelog/db/errors';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import type { MutationResult, PushResponse } from '@rescuelog/sync-protocol/platform/push-pull';
import type { Actor } from '@rescuelog/sync-protocol/platform/access';
import type { RawMutation } from '@rescuelog/sync-protocol/platform/envelope';
import type { ParsedMutation, Registry } from '@rescuelog/sync-protocol/platform/registry';
import { Rejection } from '@rescuelog/sync-protocol/platform/rejections';
import {
  SERVER_FAILED_MESSAGE,
  SET_ASIDE_MUTATION,
  type PushFailure,
} from '@rescuelog/sync-protocol/platform/set-aside';
import { uuidSchema } from '@rescuelog/sync-protocol/platform/values';
import type { ConflictReport } from '@rescuelog/sync-protocol/platform/mutator';
import { ApiError } from '../../lib/api-error';
import { BatchRecords, RetryWithSavepoints, serverFault } from './batch-records';
import { closePush, openPush, pushDeviceReads, type PushOpening } from './push-bookkeeping';
import {
  permanentDatabaseRefusal,
  recordRejection,
  recordSetAside,
  RejectionQuota,
  replayedResult,
  type RejectionScope,
} from './push-rejections';
import { runOnServer } from './server-store';
import {
  auditRow,
  endAuditBuffer,
  flushAudit,
  startAuditBuffer,
  writeAudit,
  type AuditBuffer,
  type RequestOrigin,
} from './sync-audit';
import { beginSyncWriteReserving } from './sync-tables';
import { readVisibleRecords } from './visible-records';
import { registryShapes, type WireShape } from './wire-sql';

export interface PushBatch {
  deviceId: string;
  mutations: RawMutation[];
}

export const DEVICE_USER_MISMATCH_MESSAGE =
  'This device is registered to another user; sign in as that user or reinstall the app.';
export const ACTOR_MISMATCH_MESSAGE =
  'These changes were made by another user; sign in as that user to send them.';

/** Called when storing one mutation failed on the server (for the log: it is a server fault). */
export type PushFailureReport = (
  error: unknown,
  mutation: { seq: number; mutationId: string; name: string },
) => void;

/** Checks one mutation with the registry: a Rejection of its own, or the parsed mutation. */
function validateMutation(
  registry: Registry,
  raw: RawMutation,
): Rejection | { mutation: ParsedMutation } {
  try {
    return { mutation: registry.parseMutation(raw) };
  } catch (error) {
    if (error instanceof Rejection) return error;
    throw error;
  }
}

/** A mutation's check; a check that threw something other than a rejection keeps its error. */
type Check = ReturnType<typeof validateMutation> | { error: unknown };

type NewAppliedMutation = Insertable<Database['appliedMutations']>;

/** A raw mutation's entity ids that are uuids (it may be malformed: it was read loosely). */
function entityIdsOf(raw: RawMutation | undefined): string[] {
  if (!raw || !Array.isArray(raw.entityIds)) return [];
  return raw.entityIds.filter((x): x is string => uuidSchema.safeParse(x).success);
}

/**
 * Concurrent pushes that lock the same records in different orders (a record read after the
 * batch's first read) can deadlock; the database then refuses one of them. Its transaction
 * rolled back whole, so it runs again, a few times, before the device is told to retry.
 */
const PUSH_ATTEMPTS = 4;

function mustRunAgain(error: unknown): boolean {
  const code = databaseError(error)?.code;
  return code === '40P01' || code === '40001';
}

export async function pushBatch(
  db: Kysely<Database>,
  registry: Registry,
  actor: Actor,
  origin: RequestOrigin,
  batch: PushBatch,
  onFailure: PushFailureReport = () => undefined,
): Promise<PushResponse> {
  for (const m of batch.mutations) {
    if (m.deviceId !== batch.deviceId) {
      throw new ApiError(
        400,
        ErrorCode.VALIDATION_FAILED,
        'Every mutation must come from the device that pushes it',
      );
    }
    // Acknowledging nothing keeps another user's changes safe in the outbox until they sign in.
    if (m.actorUserId !== actor.id)
      throw new ApiError(403, ErrorCode.ACTOR_MISMATCH, ACTOR_MISMATCH_MESSAGE);
  }
  const ordered = [...batch.mutations].sort((a, b) => a.seq - b.seq);

  // Most batches apply whole: first without a savepoint per mutation (two statements fewer
  // each). The first mutation that fails to apply rolls that attempt back entirely, and the
  // batch runs again from the start, each mutation in its own savepoint, so that only the
  // failing one is undone. Either way one transaction commits, in seq order.
  // Read before the transaction opens (the embedded database has one connection).
  const shapes = await registryShapes(db, registry);
  const attempt = async (savepoints: boolean): Promise<PushResponse> => {
    for (let i = 1; ; i++) {
      try {
        return await applyBatch(
          db,
          shapes,
          registry,
          actor,
          origin,
          batch.deviceId,
          ordered,
          savepoints,
          onFailure,
        );
      } catch (error) {
        if (i >= PUSH_ATTEMPTS || !mustRunAgain(error)) throw error;
      }
    }
  };
  try {
    return await attempt(false);
  } catch (error) {
    if (!(error instanceof RetryWithSavepoints)) throw error;
    return attempt(true);
  }
}

/** What every step of one attempt at a batch shares. */
interface BatchScope extends RejectionScope {
  shapes: Map<string, WireShape>;
  /** Each mutation in its own savepoint (the second attempt: pushBatch). */
  savepoints: boolean;
  onFailure: PushFailureReport;
  /** What the batch knows of the records it touches (batch-records.ts). */
  records: BatchRecords;
  audit: AuditBuffer;
}

/** A new mutation's end: its result, or a failure that ends the batch before it. */
type Handled = { result: MutationResult } | { failed: PushFailure };

async function applyBatch(
  db: Kysely<Database>,
  shapes: Map<string, WireShape>,
  registry: Registry,
  actor: Actor,
  origin: RequestOrigin,
  deviceId: string,
  ordered: RawMutation[],
  savepoints: boolean,
  onFailure: PushFailureReport,
): Promise<PushResponse> {
  return db.transaction().execute(async (tx) => {
    const { device, handled, rejections } = await openBatch(tx, actor, origin, deviceId, ordered);
    let last = device.lastAppliedSeq;
    const fresh = ordered.filter((raw) => raw.seq > last);
    const checks = checkMutations(registry, fresh, handled);
    // Without savepoints, new rows wait and go in together (batch-records.ts). The records
    // read are locked until commit: a concurrent push that touches them waits its turn.
    const records = await BatchRecords.read(
      tx,
      shapes,
      registry,
      [...checks.values()].flatMap((c) => ('mutation' in c ? [c.mutation] : [])),
      { deferInserts: !savepoints },
    );
    // The ticket comes before the first version this push takes (sync-tables.ts): pulls hold
    // their cursor below it until this push commits or rolls back. The field versions the
    // batch will need (about one per mutation) are taken in the same statement, above the
    // ticket: for a push of one mutation too, since they no longer cost a statement of their own.
    await beginSyncWriteReserving(tx, fresh.length);
    const scope: BatchScope = {
      tx,
      registry,
      actor,
      origin,
      deviceId,
      quota: new RejectionQuota(tx, actor.id),
      shapes,
      savepoints,
      onFailure,
      records,
      audit: startAuditBuffer(tx),
    };
    const handledNow: NewAppliedMutation[] = [];
    const results: MutationResult[] = [];
    let failed: PushFailure | undefined;
    for (const raw of ordered) {
      if (raw.seq <= last) {
        results.push(replayedResult(rejections, raw));
        continue;
      }
      if (raw.seq > last + 1) break;
      if (handled.has(raw.mutationId)) {
        // The same mutation under a new seq (a client that renumbered its queue): no second effect.
        results.push(replayedResult(rejections, raw));
        last = raw.seq;
        continue;
      }
      const outcome = await handleMutation(
        scope,
        raw,
        checks.get(raw) ?? validateMutation(registry, raw),
      );
      if ('failed' in outcome) {
        failed = outcome.failed;
        break;
      }
      handledNow.push({ mutationId: raw.mutationId, deviceId: deviceId, seq: raw.seq });
      handled.add(raw.mutationId);
      results.push(outcome.result);
      last = raw.seq;
    }
    await records.flush();
    // The audit entries still buffered, the handled mutations and the device's seq: one
    // statement (push-bookkeeping.ts).
    await closePush(tx, deviceId, last, endAuditBuffer(tx, scope.audit), handledNow);
    const answer = await undoRecords(scope, ordered, results);
    return {
      lastAppliedSeq: last,
      results,
      ...(answer.length > 0 ? { records: answer } : {}),
      ...(failed ? { failed } : {}),
    };
  });
}

/**
 * Locks the device's row and reads, in the same statement, what each mutation would
 * otherwise look up on its own: which ones were handled before (under their seq, or
 * renumbered) and their rejections (push-bookkeeping.ts). Pushes run concurrently (decision
 * 033): two pushes of one device take their turns on its row, so what this one reads of the
 * device stays true until it commits.
 */
async function openBatch(
  tx: Transaction<Database>,
  actor: Actor,
  origin: RequestOrigin,
  deviceId: string,
  ordered: RawMutation[],
): Promise<PushOpening> {
  const opening =
    (await openPush(tx, deviceId, ordered)) ??
    (await pushDeviceReads(tx, deviceId, actor.id, origin.userAgent, ordered));
  if (opening.device.userId !== actor.id)
    throw new ApiError(409, ErrorCode.DEVICE_USER_MISMATCH, DEVICE_USER_MISMATCH_MESSAGE);
  return opening;
}

/**
 * Each new mutation checked once (a pure function of the registry), so that every record the
 * valid ones name is read at once (batch-records.ts) instead of one read per mutation. A check
 * that throws something other than a rejection throws when its mutation's turn comes: not
 * for a mutation after a gap.
 */
function checkMutations(
  registry: Registry,
  fresh: readonly RawMutation[],
  handled: ReadonlySet<string>,
): Map<RawMutation, Check> {
  const checks = new Map<RawMutation, Check>();
  for (const raw of fresh) {
    if (handled.has(raw.mutationId)) continue;
    try {
      checks.set(raw, validateMutation(registry, raw));
    } catch (error) {
      checks.set(raw, { error });
    }
  }
  return checks;
}

/** A new mutation in its turn: set aside, applied, or rejected (kept and audited). */
async function handleMutation(scope: BatchScope, raw: RawMutation, check: Check): Promise<Handled> {
  if ('error' in check) throw check.error;
  const answer = { seq: raw.seq, mutationId: raw.mutationId };
  let rejection: Rejection;
  if (check instanceof Rejection) rejection = check;
  else if (check.mutation.name === SET_ASIDE_MUTATION) {
    await scope.records.flush();
    // A change the device set aside (set-aside.ts): kept with the refused ones, for an
    // administrator, and its seq consumed so the device's other changes go on.
    await recordSetAside(scope, check.mutation);
    return { result: { ...answer, status: 'applied' } };
  } else {
    const run = await runMutation(scope, raw, check.mutation);
    if ('failed' in run) return run;
    if (!('rejection' in run)) {
      const conflicts = run.conflicts.length > 0 ? { conflicts: run.conflicts } : {};
      return { result: { ...answer, status: 'applied', ...conflicts } };
    }
    rejection = run.rejection;
  }
  await scope.records.flush();
  await recordRejection(scope, raw, rejection);
  return {
    result: { ...answer, status: 'rejected', code: rejection.code, message: rejection.message },
  };
}

/**
 * Runs a mutation's mutator (server-store.ts), in its own savepoint when the batch uses them.
 * A refusal (a rejection, or a database refusal no retry fixes) comes back to be recorded;
 * without savepoints its writes so far cannot be undone alone, so the whole attempt rolls
 * back and the batch runs again with savepoints (pushBatch).
 */
async function runMutation(
  scope: BatchScope,
  raw: RawMutation,
  mutation: ParsedMutation,
): Promise<{ conflicts: ConflictReport[] } | { rejection: Rejection } | { failed: PushFailure }> {
  const { tx, savepoints, audit, records, actor, origin } = scope;
  // With savepoints, entries already buffered go in first, outside the savepoint, so a
  // rollback of this mutation cannot take them along.
  if (savepoints) await flushAudit(tx);
  const mark = audit.rows.length;
  records.begin(mutation);
  if (savepoints) await sql`savepoint sync_mutation`.execute(tx);
  try {
    const applied = await runOnServer({
      tx,
      registry: scope.registry,
      actor,
      mutation,
      records,
      audit: (entry) => audit.rows.push(auditRow(actor, origin, entry, 'success')),
    });
    if (applied.audit) await writeAudit(tx, actor, origin, applied.audit, 'success');
    if (savepoints) await sql`release savepoint sync_mutation`.execute(tx);
    return { conflicts: applied.conflicts };
  } catch (error) {
    const rejection = error instanceof Rejection ? error : permanentDatabaseRefusal(error);
    if (!rejection && serverFault(error)) throw error;
    // Its writes so far cannot be undone alone (a database error has even aborted the
    // transaction): roll this attempt back and run the batch with savepoints.
    if (!savepoints) throw new RetryWithSavepoints();
    try {
      await sql`rollback to savepoint sync_mutation`.execute(tx);
      await sql`release savepoint sync_mutation`.execute(tx);
    } catch {
      // The transaction itself is gone: a fault of the server, not of this mutation.
      throw error;
    }
    // Its audit entries were never written (or were rolled back with it), and what it
    // read or wrote may no longer be what the database holds.
    audit.rows.length = mark;
    records.rollback();
    if (rejection) return { rejection };
    // Neither refused nor a fault of the whole server: storing this one failed (a fault in
    // the server's code for this data). What came before commits; the device tries again,
    // and after a few tries sets it aside (set-aside.ts).
    scope.onFailure(error, { seq: raw.seq, mutationId: raw.mutationId, name: raw.name });
    return { failed: { seq: raw.seq, mutationId: raw.mutationId, message: SERVER_FAILED_MESSAGE } };
  }
}

/**
 * The current records of every mutation not applied (rejected, duplicate), as the actor may
 * see them: the device undoes a rejected change (and rebuilds a duplicate's records) from
 * these without waiting for a pull (push-pull.ts `records`).
 */
async function undoRecords(
  scope: BatchScope,
  ordered: readonly RawMutation[],
  results: readonly MutationResult[],
) {
  const undoIds = new Set<string>();
  for (const result of results) {
    if (result.status === 'applied') continue;
    const raw = ordered.find((m) => m.seq === result.seq && m.mutationId === result.mutationId);
    for (const id of entityIdsOf(raw)) undoIds.add(id);
  }
  return readVisibleRecords(scope.tx, scope.shapes, scope.registry, scope.actor, [...undoIds]);
}
