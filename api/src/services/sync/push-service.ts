// POST /api/sync/push: one transaction per batch. In seq order: seq <= the device's last
// applied seq is a duplicate (acknowledged, no effect); a gap stops the batch; every other
// mutation is applied or, if it can never apply, rejected (recorded, acknowledged and
// returned so it cannot block the queue). The device's last applied seq advances in the
// same transaction as the effects, so a response lost after commit only causes duplicates.
import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import type { Database, JsonValue, NewAuditEntry } from '@rescuelog/db/schema';
import { databaseError } from '@rescuelog/db/errors';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  mutationResultSchema,
  type MutationResult,
  type PushResponse,
} from '@rescuelog/sync-protocol/platform/push-pull';
import type { Actor } from '@rescuelog/sync-protocol/platform/access';
import type { RawMutation } from '@rescuelog/sync-protocol/platform/envelope';
import type { ParsedMutation, Registry } from '@rescuelog/sync-protocol/platform/registry';
import {
  Rejection,
  REJECTION_MESSAGES,
  RejectionCode,
} from '@rescuelog/sync-protocol/platform/rejections';
import {
  SERVER_FAILED_MESSAGE,
  SET_ASIDE_MUTATION,
  setAsideArgsSchema,
  type PushFailure,
} from '@rescuelog/sync-protocol/platform/set-aside';
import { uuidSchema } from '@rescuelog/sync-protocol/platform/values';
import { ApiError } from '../../lib/api-error';
import { boundedJsonValue, toJsonValue } from '../../lib/json-value';
import { BatchRecords, RetryWithSavepoints, serverFault } from './batch-records';
import { readVisibleRecords } from './pull-service';
import { registryShapes, type WireShape } from './wire-sql';
import { runOnServer, type AuditWrite } from './server-store';
import { beginSyncWriteReserving } from './sync-tables';
import {
  closePush,
  insertAuditRows,
  openPush,
  pushDeviceReads,
  replayKey,
  type StoredRejections,
} from './push-bookkeeping';

/** A stored rejection keeps at most this much of the refused args (the device keeps all of it). */
export const REJECTION_ARGS_LIMIT_BYTES = 64 * 1024;
/**
 * What one user's stored rejections may hold in all. Past it, a new rejection is still
 * recorded (code, message, mutation id: what the audit and the device need) but without its
 * args: a device that keeps sending refused data cannot fill the server's disk.
 */
export const REJECTION_QUOTA_BYTES_PER_USER = 8 * 1024 * 1024;

/**
 * The bytes the user's stored rejections hold (all their devices): read once per push, at
 * its first rejection, then counted up as the push stores more.
 */
class RejectionQuota {
  private bytes: number | null = null;

  constructor(
    private readonly tx: Transaction<Database>,
    private readonly userId: number,
  ) {}

  async full(): Promise<boolean> {
    if (this.bytes === null) {
      const { rows } = await sql<{ bytes: string | number | null }>`
        select coalesce(sum(pg_column_size(r.details)), 0) as bytes
        from sync_rejections r join devices d on d.device_id = r.device_id
        where d.user_id = ${this.userId}`.execute(this.tx);
      this.bytes = Number(rows[0]?.bytes ?? 0);
    }
    return this.bytes >= REJECTION_QUOTA_BYTES_PER_USER;
  }

  add(details: JsonValue): void {
    this.bytes = (this.bytes ?? 0) + Buffer.byteLength(JSON.stringify(details));
  }
}

export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
}

export interface PushBatch {
  deviceId: string;
  mutations: RawMutation[];
}

export const DEVICE_USER_MISMATCH_MESSAGE =
  'This device is registered to another user; sign in as that user or reinstall the app.';
export const ACTOR_MISMATCH_MESSAGE =
  'These changes were made by another user; sign in as that user to send them.';

/**
 * A push's audit entries, inserted together before it commits: one statement for the batch
 * instead of one per mutation. Entries of a mutation that is rolled back to its savepoint are
 * dropped with it. An access event's entry waits here too: the batch's records answer
 * whether one was recorded (batch-records.ts accessSeen).
 */
interface AuditBuffer {
  rows: NewAuditEntry[];
}
const auditBuffers = new WeakMap<Transaction<Database>, AuditBuffer>();

/** Writes what the push's buffer holds, in order (before commit, or before a savepoint). */
async function flushAudit(tx: Transaction<Database>): Promise<void> {
  const buffer = auditBuffers.get(tx);
  if (buffer && buffer.rows.length > 0) await insertAuditRows(tx, buffer.rows.splice(0));
}

function auditRow(
  actor: Actor,
  origin: RequestOrigin,
  entry: AuditWrite,
  outcome: 'success' | 'denied' | 'failure',
): NewAuditEntry {
  return {
    actorUserId: actor.id,
    action: entry.action,
    outcome,
    entityType: entry.entityType,
    entityId: entry.entityId,
    ip: origin.ip,
    userAgent: origin.userAgent,
    details: entry.details,
  };
}

async function writeAudit(
  tx: Transaction<Database>,
  actor: Actor,
  origin: RequestOrigin,
  entry: AuditWrite,
  outcome: 'success' | 'denied' | 'failure',
): Promise<void> {
  const row = auditRow(actor, origin, entry, outcome);
  const buffer = auditBuffers.get(tx);
  if (buffer) buffer.rows.push(row);
  else await insertAuditRows(tx, [row]);
}

/** Database refusals that no retry can fix (bad data, missing parent): the mutation is rejected. */
function permanentDatabaseRefusal(error: unknown): Rejection | undefined {
  const info = databaseError(error);
  if (!info) return undefined;
  if (info.code === '23503')
    return new Rejection(
      RejectionCode.NOT_FOUND,
      'A record it refers to does not exist on the server.',
      { constraint: info.constraint ?? null },
    );
  if (info.code === '23505')
    return new Rejection(RejectionCode.HUMAN_ID_COLLISION, REJECTION_MESSAGES.HUMAN_ID_COLLISION, {
      constraint: info.constraint ?? null,
    });
  if (info.code.startsWith('22') || info.code.startsWith('23')) {
    return new Rejection(RejectionCode.VALIDATION_FAILED, REJECTION_MESSAGES.VALIDATION_FAILED, {
      sqlstate: info.code,
      constraint: info.constraint ?? null,
    });
  }
  return undefined;
}

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

type NewAppliedMutation = Insertable<Database['appliedMutations']>;

/** A raw mutation's entity ids that are uuids (it may be malformed: it was read loosely). */
function entityIdsOf(raw: RawMutation | undefined): string[] {
  if (!raw || !Array.isArray(raw.entityIds)) return [];
  return raw.entityIds.filter((x): x is string => uuidSchema.safeParse(x).success);
}

const PERMISSION_CODES = new Set<string>([RejectionCode.FORBIDDEN, RejectionCode.NOT_OWNER]);

/**
 * The root record a refused mutation is about, as `{ <rootKind>Id: id }`: a refused change
 * to a case or its children (vital sign, addendum, access record) belongs in that case's
 * access history, which finds entries by details.caseId.
 */
function rootRecordOf(registry: Registry, raw: RawMutation): Record<string, string> {
  const mutator = registry.mutator(raw.name);
  const args: unknown = raw.args;
  if (!mutator || args === null || typeof args !== 'object') return {};
  const def = registry.get(mutator.kind);
  const root = def.parent ? registry.get(def.parent.kind) : def;
  const key = def.parent?.column ?? `${root.kind}Id`;
  const value =
    key in args
      ? (args as Record<string, unknown>)[key]
      : def.parent
        ? undefined
        : 'id' in args
          ? args.id
          : undefined;
  const id = uuidSchema.safeParse(value);
  return id.success ? { [`${root.kind}Id`]: id.data } : {};
}

/** Kept in sync_rejections with the data, audited (a permission refusal as a denial). */
async function recordRejection(
  tx: Transaction<Database>,
  quota: RejectionQuota,
  registry: Registry,
  actor: Actor,
  origin: RequestOrigin,
  deviceId: string,
  raw: RawMutation,
  rejection: Rejection,
): Promise<void> {
  const details: Record<string, JsonValue> = {
    name: raw.name,
    message: rejection.message,
    ...(toJsonValue(rejection.details) as Record<string, JsonValue>),
    args: (await quota.full())
      ? { omitted: 'quota', quotaBytes: REJECTION_QUOTA_BYTES_PER_USER }
      : boundedJsonValue(raw.args, REJECTION_ARGS_LIMIT_BYTES),
  };
  await tx
    .insertInto('syncRejections')
    .values({ deviceId, seq: raw.seq, mutationId: raw.mutationId, reason: rejection.code, details })
    .execute();
  quota.add(details);
  const entityIds = Array.isArray(raw.entityIds)
    ? raw.entityIds.filter((x): x is string => typeof x === 'string')
    : [];
  await writeAudit(
    tx,
    actor,
    origin,
    {
      action: 'sync.rejected',
      entityType: raw.name,
      entityId: entityIds[0] ?? raw.mutationId,
      details: {
        mutationId: raw.mutationId,
        deviceId,
        seq: raw.seq,
        code: rejection.code,
        ...rootRecordOf(registry, raw),
        ...(toJsonValue(rejection.details) as Record<string, JsonValue>),
      },
    },
    PERMISSION_CODES.has(rejection.code) ? 'denied' : 'failure',
  );
}

/**
 * A set-aside marker: the change it carries is kept in sync_rejections under the marker's
 * seq and id (the quota applies), with its own id and what it waited behind, and audited.
 */
async function recordSetAside(
  tx: Transaction<Database>,
  quota: RejectionQuota,
  registry: Registry,
  actor: Actor,
  origin: RequestOrigin,
  deviceId: string,
  marker: ParsedMutation,
): Promise<void> {
  const carried = setAsideArgsSchema.parse(marker.args);
  const change: RawMutation = {
    ...marker,
    name: carried.name,
    args: carried.args,
    entityIds: carried.entityIds.slice(0, 20),
  };
  const rejection = new Rejection(carried.code, carried.reason ?? undefined, {
    setAsideMutationId: carried.mutationId,
    heldBehind: carried.heldBehind,
    baseVersion: carried.baseVersion,
    savedAt: carried.clientTime,
  });
  await recordRejection(tx, quota, registry, actor, origin, deviceId, change, rejection);
}

/**
 * The answer for a mutation the server has already handled. A rejection is answered again as
 * a rejection: when the first answer was lost, the device would otherwise drop the entry as a
 * duplicate, never show the rejection in its inbox and keep the rejected value on screen.
 */
function replayedResult(
  rejections: StoredRejections,
  raw: { seq: number; mutationId: string },
): MutationResult {
  const rejected = rejections.get(replayKey(raw));
  if (!rejected) return { seq: raw.seq, mutationId: raw.mutationId, status: 'duplicate' };
  const code = mutationResultSchema.shape.code.safeParse(rejected.reason);
  const message = rejected.details.message;
  return {
    seq: raw.seq,
    mutationId: raw.mutationId,
    status: 'rejected',
    ...(code.success && code.data !== undefined ? { code: code.data } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
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
    // Pushes run concurrently (decision 033). Two pushes of one device take their turns on
    // its row, so what this one reads of the device (its seq, handled mutations, rejections)
    // stays true until it commits.
    // Read once for the whole batch, in the statement that locks the device's row, what each
    // mutation would otherwise look up on its own: which ones were handled before (under
    // their seq, or renumbered) and their rejections (push-bookkeeping.ts).
    const opening =
      (await openPush(tx, deviceId, ordered)) ??
      (await pushDeviceReads(tx, deviceId, actor.id, origin.userAgent, ordered));
    const { device, handled, rejections } = opening;
    if (device.userId !== actor.id)
      throw new ApiError(409, ErrorCode.DEVICE_USER_MISMATCH, DEVICE_USER_MISMATCH_MESSAGE);

    let last = device.lastAppliedSeq;
    const fresh = ordered.filter((raw) => raw.seq > last);
    // Each new mutation checked once (a pure function of the registry), and every record the
    // valid ones name read at once (batch-records.ts) instead of one read per mutation.
    // (A check that throws something other than a rejection throws when its mutation's turn
    // comes, as before: not for a mutation after a gap.)
    const checks = new Map<RawMutation, ReturnType<typeof validateMutation> | { error: unknown }>();
    for (const raw of fresh) {
      if (handled.has(raw.mutationId)) continue;
      try {
        checks.set(raw, validateMutation(registry, raw));
      } catch (error) {
        checks.set(raw, { error });
      }
    }
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
    const audit: AuditBuffer = { rows: [] };
    auditBuffers.set(tx, audit);
    const quota = new RejectionQuota(tx, actor.id);
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

      const check = checks.get(raw) ?? validateMutation(registry, raw);
      if ('error' in check) throw check.error;
      const checked = check;
      let rejection: Rejection | undefined = checked instanceof Rejection ? checked : undefined;
      let result: MutationResult | undefined;
      if (!(checked instanceof Rejection) && checked.mutation.name === SET_ASIDE_MUTATION) {
        await records.flush();
        // A change the device set aside (set-aside.ts): kept with the refused ones, for an
        // administrator, and its seq consumed so the device's other changes go on.
        await recordSetAside(tx, quota, registry, actor, origin, deviceId, checked.mutation);
        result = { seq: raw.seq, mutationId: raw.mutationId, status: 'applied' };
      } else if (!(checked instanceof Rejection)) {
        // With savepoints, entries already buffered go in first, outside the savepoint, so a
        // rollback of this mutation cannot take them along.
        if (savepoints) await flushAudit(tx);
        const mark = audit.rows.length;
        records.begin(checked.mutation);
        if (savepoints) await sql`savepoint sync_mutation`.execute(tx);
        try {
          const applied = await runOnServer({
            tx,
            registry,
            actor,
            mutation: checked.mutation,
            records,
            audit: (entry) => audit.rows.push(auditRow(actor, origin, entry, 'success')),
          });
          if (applied.audit) await writeAudit(tx, actor, origin, applied.audit, 'success');
          if (savepoints) await sql`release savepoint sync_mutation`.execute(tx);
          result = {
            seq: raw.seq,
            mutationId: raw.mutationId,
            status: 'applied',
            ...(applied.conflicts.length > 0 ? { conflicts: applied.conflicts } : {}),
          };
        } catch (error) {
          rejection = error instanceof Rejection ? error : permanentDatabaseRefusal(error);
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
          if (!rejection) {
            // Neither refused nor a fault of the whole server: storing this one failed (a
            // fault in the server's code for this data). What came before commits; the
            // device tries again, and after a few tries sets it aside (set-aside.ts).
            onFailure(error, { seq: raw.seq, mutationId: raw.mutationId, name: raw.name });
            failed = { seq: raw.seq, mutationId: raw.mutationId, message: SERVER_FAILED_MESSAGE };
            break;
          }
        }
      }
      if (rejection) {
        await records.flush();
        await recordRejection(tx, quota, registry, actor, origin, deviceId, raw, rejection);
        result = {
          seq: raw.seq,
          mutationId: raw.mutationId,
          status: 'rejected',
          code: rejection.code,
          message: rejection.message,
        };
      }
      if (!result) throw new Error('A mutation ended neither applied nor rejected');
      handledNow.push({ mutationId: raw.mutationId, deviceId: deviceId, seq: raw.seq });
      handled.add(raw.mutationId);
      results.push(result);
      last = raw.seq;
    }
    await records.flush();
    auditBuffers.delete(tx);
    // The audit entries still buffered, the handled mutations and the device's seq: one
    // statement (push-bookkeeping.ts).
    await closePush(tx, deviceId, last, audit.rows.splice(0), handledNow);
    // The device undoes a rejected change (and rebuilds a duplicate's records) from these,
    // without waiting for a pull (push-pull.ts `records`).
    const undoIds = new Set<string>();
    for (const result of results) {
      if (result.status === 'applied') continue;
      const raw = ordered.find((m) => m.seq === result.seq && m.mutationId === result.mutationId);
      for (const id of entityIdsOf(raw)) undoIds.add(id);
    }
    const answer = await readVisibleRecords(tx, shapes, registry, actor, [...undoIds]);
    return {
      lastAppliedSeq: last,
      results,
      ...(answer.length > 0 ? { records: answer } : {}),
      ...(failed ? { failed } : {}),
    };
  });
}
