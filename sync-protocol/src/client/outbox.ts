// The outbox: every local change as a mutation envelope plus local bookkeeping, written in
// the same IndexedDB transaction as the domain rows it changes (saveMutation). Entries
// leave the outbox only when the server acknowledged them (applied, duplicate, or rejected —
// and a rejection moves to the rejections store, never into nothing). Nothing expires.
import { z } from 'zod';
import '../zod-config';
import { mutationEnvelopeSchema } from '../platform/envelope';
import type { ParsedMutation } from '../platform/registry';
import { SCHEMA_VERSION } from '../platform/versions';
import { runOnDevice } from './device-store';
import type { SyncDatabase } from './local-db';

export const OUTBOX_STATES = ['pending', 'inflight'] as const;

export const outboxEntrySchema = z.object({
  seq: z.number().int().min(1),
  mutationId: z.uuid(),
  /** Copy of mutation.entityIds for the multi-entry index ("is this record synced?"). */
  entityIds: z.array(z.string()),
  /** The envelope; its args are parsed by the mutator's schema where they are applied. */
  mutation: mutationEnvelopeSchema,
  /** 'inflight' while a push carrying it is in the air; a drainer that finds 'inflight'
   * under the lock knows the previous one died and treats it as pending. */
  state: z.enum(OUTBOX_STATES),
  attempts: z.number().int().min(0),
  /** Times the server answered that storing it failed (set-aside.ts): set aside at 3. */
  serverFailures: z.number().int().min(0).default(0),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
});
export type OutboxEntry = z.infer<typeof outboxEntrySchema>;

export const rejectionSchema = z.object({
  mutationId: z.uuid(),
  seq: z.number().int().min(1),
  /** Stable reason code from the server (e.g. VALIDATION_FAILED, CASE_LOCKED). */
  code: z.string(),
  message: z.string().nullable(),
  conflicts: z
    .array(z.object({ field: z.string(), serverValue: z.unknown(), clientValue: z.unknown() }))
    .default([]),
  /** The whole mutation as it was sent: the data the user typed is never lost. */
  mutation: mutationEnvelopeSchema,
  rejectedAt: z.string(),
  /** Set when the user has read it and chose to dismiss it; the row stays. */
  dismissedAt: z.string().nullable(),
  /** A set-aside change (SET_ASIDE, HELD_BACK): the id of the change its group formed
   * behind; "Try again" saves the group again (client/set-aside.ts). */
  setAsideWith: z.uuid().nullable().default(null),
});
export type Rejection = z.infer<typeof rejectionSchema>;

// syncState rows, one per key.
export const deviceStateSchema = z.object({
  key: z.literal('device'),
  /** Per user and per browser profile: a new database (after a wipe) is a new device. */
  deviceId: z.uuid(),
  /** The seq the next local mutation gets. */
  nextSeq: z.number().int().min(1),
});
export type DeviceState = z.infer<typeof deviceStateSchema>;

export const pullStateSchema = z.object({
  key: z.literal('pull'),
  cursor: z.string().nullable(),
  lastPullAt: z.string().nullable(),
  /** What the user could see when the cursor was taken (pull.ts accessKeyOf); absent on a
   * device that pulled before it was kept. */
  accessKey: z.string().max(20_000).nullable().optional(),
  /** The app's SCHEMA_VERSION when the cursor was taken: the kinds the server sent it. Absent
   * on a device that pulled before it was kept. */
  schemaVersion: z.number().int().min(0).optional(),
});
export type PullState = z.infer<typeof pullStateSchema>;

export const pushStateSchema = z.object({
  key: z.literal('push'),
  /** Last time a drain emptied the outbox (or found it empty) with the server answering. */
  lastSuccessAt: z.string().nullable(),
});
export type PushState = z.infer<typeof pushStateSchema>;

export const persistStateSchema = z.object({
  key: z.literal('persist'),
  requestedAt: z.string(),
  granted: z.boolean(),
});

function randomUuid(): string {
  return globalThis.crypto.randomUUID();
}

/** Reads (creating on first use) the device row. Call inside a rw transaction on syncState. */
export async function readOrCreateDevice(db: SyncDatabase): Promise<DeviceState> {
  const raw = await db.syncState.get('device');
  if (raw !== undefined) return deviceStateSchema.parse(raw);
  const device: DeviceState = { key: 'device', deviceId: randomUuid(), nextSeq: 1 };
  await db.syncState.put(device);
  return device;
}

/** This database's device id (created on first use). */
export async function getDeviceId(db: SyncDatabase): Promise<string> {
  return db.transaction('rw', db.syncState, async () => (await readOrCreateDevice(db)).deviceId);
}

/** What a screen hands to saveMutation; the envelope's bookkeeping is filled in here. */
export interface MutationInput {
  name: string;
  args: unknown;
  baseVersion: string | null;
  actorUserId: number;
}

/**
 * Saves one local change: allocates the next seq, runs the mutation's mutator on the
 * device's tables and appends the outbox entry, all in ONE transaction: either both are
 * stored or neither. A change the device can already tell the server would refuse (bad
 * values, a locked or deleted record, text PostgreSQL cannot store) is refused here with
 * the same Rejection the server would give, and nothing is stored.
 */
export async function saveMutation(
  db: SyncDatabase,
  input: MutationInput,
  now: () => Date = () => new Date(),
): Promise<OutboxEntry> {
  return db.transaction('rw', db.writeTables, async () => {
    const device = await readOrCreateDevice(db);
    const seq = device.nextSeq;
    const clientTime = now().toISOString();
    const parsed: ParsedMutation = db.registry.parseMutation({
      mutationId: randomUuid(),
      deviceId: device.deviceId,
      seq,
      actorUserId: input.actorUserId,
      name: input.name,
      args: input.args,
      entityIds: [],
      baseVersion: input.baseVersion,
      clientTime,
      schemaVersion: SCHEMA_VERSION,
    });
    // The records it touches, from its mutator (the outbox index: "is this record synced?").
    const entityIds = db.registry.mutator(parsed.name)?.entityIds(parsed.args) ?? [];
    const mutation: ParsedMutation = { ...parsed, entityIds };
    await db.syncState.put({ ...device, nextSeq: seq + 1 } satisfies DeviceState);
    await runOnDevice(db, mutation);
    const entry: OutboxEntry = {
      seq,
      mutationId: mutation.mutationId,
      entityIds: mutation.entityIds,
      mutation,
      state: 'pending',
      attempts: 0,
      serverFailures: 0,
      lastError: null,
      createdAt: clientTime,
      lastAttemptAt: null,
    };
    await db.outbox.add(entry);
    return entry;
  });
}

/** Outbox entries in seq order, parsed. */
export async function readOutbox(db: SyncDatabase, limit?: number): Promise<OutboxEntry[]> {
  const collection = db.outbox.orderBy('seq');
  const rows = await (limit === undefined ? collection : collection.limit(limit)).toArray();
  return rows.map((row) => outboxEntrySchema.parse(row));
}

/** Ids of records with changes the server has not acknowledged yet (one read for a whole list,
 * any kind: a row is "not yet synced" when its id is in the set). */
export async function pendingRecordIds(db: SyncDatabase): Promise<Set<string>> {
  const keys = await db.outbox.orderBy('entityIds').uniqueKeys();
  return new Set(keys.filter((k): k is string => typeof k === 'string'));
}

/** Every entry waiting (changes and access records): what ending a session must not lose. */
export async function pendingCount(db: SyncDatabase): Promise<number> {
  return db.outbox.count();
}

/**
 * The changes waiting to sync, as the app counts and names them to people (issue 37): every
 * outbox entry except access records (a case was viewed, printed or exported, mutator.ts
 * accessRecord), which wait to reach the audit log but change nothing. Opening a case twice
 * and editing one field is one change, not three. An entry this build cannot read counts.
 */
export async function pendingChangeCount(db: SyncDatabase): Promise<number> {
  return db.outbox
    .filter((row) => {
      const mutation = row.mutation;
      const name =
        typeof mutation === 'object' && mutation !== null
          ? (mutation as { name?: unknown }).name
          : undefined;
      return typeof name !== 'string' || db.registry.mutator(name)?.accessRecord !== true;
    })
    .count();
}

/** Whether a record still has changes the server has not acknowledged. */
export async function hasPendingChanges(db: SyncDatabase, entityId: string): Promise<boolean> {
  return (await db.outbox.where('entityIds').equals(entityId).count()) > 0;
}

export async function readRejections(db: SyncDatabase): Promise<Rejection[]> {
  const rows = await db.rejections.orderBy('seq').toArray();
  return rows.map((row) => rejectionSchema.parse(row));
}

export async function dismissRejection(
  db: SyncDatabase,
  mutationId: string,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction('rw', db.rejections, async () => {
    const raw = await db.rejections.get(mutationId);
    if (raw === undefined) return;
    const rejection = rejectionSchema.parse(raw);
    await db.rejections.put({ ...rejection, dismissedAt: now.toISOString() });
  });
}

export async function readPushState(db: SyncDatabase): Promise<PushState> {
  const raw = await db.syncState.get('push');
  return raw === undefined ? { key: 'push', lastSuccessAt: null } : pushStateSchema.parse(raw);
}

export async function readPullState(db: SyncDatabase): Promise<PullState> {
  const raw = await db.syncState.get('pull');
  return raw === undefined
    ? { key: 'pull', cursor: null, lastPullAt: null }
    : pullStateSchema.parse(raw);
}
