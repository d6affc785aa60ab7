// A push's bookkeeping statements (push-service.ts), each one round trip (decision 037):
// - openPush, the first statement: the device's row locked, which of the batch's mutations
//   it has had handled before, and the rejections stored under the batch's seqs (a device not
//   seen before, or one another push got in ahead of, takes pushDeviceReads instead);
// - closePush, the last before commit: the audit entries, the handled mutations and the
//   device's last applied seq, as one statement of data-modifying CTEs.
// Every statement is a round trip the push holds a connection through (on PostgreSQL under
// load, each waits for a busy event loop) and a fixed cost on the embedded database.
import { sql, type Insertable, type Transaction } from 'kysely';
import type { Database, JsonValue, NewAuditEntry } from '@rescuelog/db/schema';
import type { RawMutation } from '@rescuelog/sync-protocol/platform/envelope';

export interface DeviceRow {
  userId: number;
  lastAppliedSeq: number;
}

/** Rejections recorded for replayed mutations, by replayKey. */
export type StoredRejections = Map<string, { reason: string; details: Record<string, JsonValue> }>;

export function replayKey(raw: { seq: number | string; mutationId: string }): string {
  return `${String(raw.seq)}:${raw.mutationId}`;
}

/** What a push knows of its device before its mutations run. */
export interface PushOpening {
  device: DeviceRow;
  /** The batch's mutation ids this device has had handled before (applied or rejected). */
  handled: Set<string>;
  /** Stored rejections of the batch's seqs (a replayed mutation answers with its own). */
  rejections: StoredRejections;
}

interface OpeningRow {
  owner: number | null;
  last: string | null;
  /** The locked row is not the one the statement's snapshot holds (see openPush). */
  stale: boolean;
  handled: string;
  rejections: string;
}

/**
 * The device's row, locked until the push commits, with the batch's handled mutation ids and
 * the rejections stored under its seqs: one statement where there were three.
 *
 * The reads of a statement use the snapshot it started with, while its `for update` waits for
 * and returns the row's newest version. When another push of this device committed in
 * between (it held the row: every push updates it last, in the transaction that writes its
 * handled mutations and rejections), the locked row is a newer version than the snapshot's,
 * and what the statement read of applied_mutations and sync_rejections may predate that push.
 * Then, and when the row is not there (a device not seen before: once in its life), the
 * answer is `undefined`: the caller inserts the row if need be, locks it and reads again in
 * statements that start after the lock is held (pushDeviceReads).
 */
export async function openPush(
  tx: Transaction<Database>,
  deviceId: string,
  batch: readonly RawMutation[],
): Promise<PushOpening | undefined> {
  const { rows } = await sql<OpeningRow>`
    with locked as (
      select user_id, last_applied_seq, xmin from devices where device_id = ${deviceId} for update
    ),
    seen as (select xmin from devices where device_id = ${deviceId})
    select l.user_id as owner, l.last_applied_seq::text as last,
      l.xmin::text is distinct from s.xmin::text as stale,
      (${handledJson(deviceId, batch)}) as handled,
      (${rejectionsJson(deviceId, batch)}) as rejections
    from (select) one
      left join locked l on true
      left join seen s on true`.execute(tx);
  const row = rows[0];
  if (!row) throw new Error('The push opening returned no row');
  if (row.owner === null || row.last === null || row.stale) return undefined;
  return { device: { userId: row.owner, lastAppliedSeq: Number(row.last) }, ...parseReads(row) };
}

/**
 * The slow path of openPush (a new device, or a concurrent push of this device got in
 * between): the row locked (inserted if missing), then the reads in a statement of their own, which starts with
 * the lock held and so sees everything the pushes before it committed.
 */
export async function pushDeviceReads(
  tx: Transaction<Database>,
  deviceId: string,
  userId: number,
  userAgent: string | null,
  batch: readonly RawMutation[],
): Promise<PushOpening> {
  let device = await lockDevice(tx, deviceId);
  if (!device) {
    await tx
      .insertInto('devices')
      .values({ deviceId, userId, userAgent })
      .onConflict((oc) => oc.column('deviceId').doNothing())
      .execute();
    device = await lockDevice(tx, deviceId);
    if (!device) throw new Error('The device row was neither found nor inserted');
  }
  const { rows } = await sql<Pick<OpeningRow, 'handled' | 'rejections'>>`
    select (${handledJson(deviceId, batch)}) as handled,
      (${rejectionsJson(deviceId, batch)}) as rejections`.execute(tx);
  const row = rows[0];
  if (!row) throw new Error('The push reads returned no row');
  return {
    device: { userId: device.userId, lastAppliedSeq: Number(device.lastAppliedSeq) },
    ...parseReads(row),
  };
}

function lockDevice(tx: Transaction<Database>, deviceId: string) {
  return tx
    .selectFrom('devices')
    .select(['userId', 'lastAppliedSeq'])
    .where('deviceId', '=', deviceId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * The batch's mutation ids the device has had handled before, under any seq, as a JSON array.
 * Scoped to the device, and so to its user: another user's mutation that happens to carry the
 * same id is not this one. (Ids of mutations at or below the device's last seq come back too:
 * the push only asks about the others.)
 */
function handledJson(deviceId: string, batch: readonly RawMutation[]) {
  if (batch.length === 0) return sql`select '[]'`;
  const ids = [...new Set(batch.map((raw) => raw.mutationId))];
  return sql`select coalesce(json_agg(a.mutation_id), '[]')::text from applied_mutations a
    where a.device_id = ${deviceId} and a.mutation_id in (${sql.join(ids)})`;
}

/** The rejections stored under the batch's seqs ((device_id, seq) is indexed), as JSON. */
function rejectionsJson(deviceId: string, batch: readonly RawMutation[]) {
  if (batch.length === 0) return sql`select '[]'`;
  const seqs = [...new Set(batch.map((raw) => String(raw.seq)))];
  return sql`select coalesce(json_agg(json_build_object('seq', r.seq::text,
      'mutationId', r.mutation_id, 'reason', r.reason, 'details', r.details)), '[]')::text
    from sync_rejections r where r.device_id = ${deviceId} and r.seq in (${sql.join(seqs)})`;
}

function parseReads(row: Pick<OpeningRow, 'handled' | 'rejections'>): {
  handled: Set<string>;
  rejections: StoredRejections;
} {
  const handled = new Set(JSON.parse(row.handled) as string[]);
  const rejections: StoredRejections = new Map();
  const stored = JSON.parse(row.rejections) as {
    seq: string;
    mutationId: string;
    reason: string;
    details: Record<string, JsonValue>;
  }[];
  for (const r of stored) rejections.set(replayKey(r), { reason: r.reason, details: r.details });
  return { handled, rejections };
}

type NewAppliedMutation = Insertable<Database['appliedMutations']>;

/** 500 rows of 8 values stay far below PostgreSQL's 65,535 parameters per statement. */
export const INSERT_CHUNK = 500;

/** Inserts audit rows, in order, a chunk per statement. */
export async function insertAuditRows(
  tx: Transaction<Database>,
  rows: NewAuditEntry[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await tx
      .insertInto('auditLog')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
  }
}

/**
 * The push's last writes before commit, in one statement where they fit: its audit entries
 * (in order), the mutations it handled, and the device's last applied seq. Rows past a chunk
 * go in first, a chunk per statement, as before.
 */
export async function closePush(
  tx: Transaction<Database>,
  deviceId: string,
  lastAppliedSeq: number,
  audit: NewAuditEntry[],
  handled: NewAppliedMutation[],
): Promise<void> {
  const auditHead = Math.max(0, audit.length - INSERT_CHUNK);
  await insertAuditRows(tx, audit.slice(0, auditHead));
  const handledHead = Math.max(0, handled.length - INSERT_CHUNK);
  for (let i = 0; i < handledHead; i += INSERT_CHUNK) {
    await tx
      .insertInto('appliedMutations')
      .values(handled.slice(i, Math.min(i + INSERT_CHUNK, handledHead)))
      .execute();
  }
  const auditTail = audit.slice(auditHead);
  const handledTail = handled.slice(handledHead);
  const update = tx
    .updateTable('devices')
    .set({ lastAppliedSeq, lastSeenAt: new Date() })
    .where('deviceId', '=', deviceId);
  // Data-modifying CTEs all run, referenced or not; the audit's ids follow its rows' order.
  const inserts = [
    ...(auditTail.length > 0
      ? [sql`audit as (${tx.insertInto('auditLog').values(auditTail)})`]
      : []),
    ...(handledTail.length > 0
      ? [sql`handled as (${tx.insertInto('appliedMutations').values(handledTail)})`]
      : []),
  ];
  if (inserts.length === 0) await update.execute();
  else await sql`with ${sql.join(inserts)} ${update}`.execute(tx);
}
