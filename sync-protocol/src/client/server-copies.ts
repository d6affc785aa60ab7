// Server copies ("shadows"): the last version of each record a pull brought, kept next to
// the local row. The local row is always server copy + still-pending outbox mutations, and
// this module is where that is recomputed:
// - after a pull page (rebasePending), and
// - after the server rejected a mutation (restoreFromServer): the rejected change must not
//   stay on the device, and if the server's record never changes again no pull would ever
//   correct it. The rejected mutation itself stays in the rejections inbox with its data.
// A tombstone is kept as a copy with data null, so replaying a pending partial update of a
// record another device deleted never brings a half record back (the server rejects that
// update as DELETED and the inbox shows it).
// Every function here runs inside the caller's rw transaction over db.writeTables.
import { z } from 'zod';
import '../zod-config';
import { parseChange, type SyncChange } from '../platform/push-pull';
import { Rejection } from '../platform/rejections';
import { versionSchema } from '../platform/values';
import { runOnDevice } from './device-store';
import type { SyncDatabase } from './local-db';
import { outboxEntrySchema } from './outbox';

export const serverCopySchema = z.object({
  id: z.string().max(64),
  /** The kind's store (its definition's table). */
  table: z.string().max(100),
  /** The record as the server sent it; null when the server sent a tombstone. */
  data: z.record(z.string(), z.unknown()).nullable(),
  /** The server's version of it (absent on copies stored before it was kept). */
  version: versionSchema.optional(),
});
export type ServerCopy = z.infer<typeof serverCopySchema>;

/** The server copy a pulled (or push-answered) change becomes. */
export function serverCopyOf(db: SyncDatabase, change: SyncChange): ServerCopy {
  const table = db.registry.get(change.entity).table;
  return {
    id: change.id,
    table,
    data: change.data === null ? null : { ...change.data, id: change.id },
    version: change.version,
  };
}

/**
 * Stores what a push answer says the server holds now (push-pull.ts `records`) as the
 * record's server copy, unless the copy already holds a newer version. The local row is
 * rebuilt from it by restoreFromServer.
 */
export async function putServerCopy(db: SyncDatabase, received: SyncChange): Promise<void> {
  const change = parseChange(db.registry, received);
  const raw = await db.serverCopies.get(received.id);
  if (change === null) return;
  const existing = raw === undefined ? undefined : serverCopySchema.parse(raw);
  if (existing?.version !== undefined && BigInt(existing.version) > BigInt(change.version)) return;
  await db.serverCopies.put(serverCopyOf(db, change));
}

/**
 * A pending mutation applied again over newer server copies. One the device now refuses (its
 * record was completed or deleted elsewhere meanwhile) leaves the server's copy as it is: the
 * server will refuse it too, and the inbox shows it with its data.
 */
async function replay(db: SyncDatabase, raw: unknown): Promise<void> {
  let mutation;
  try {
    mutation = db.registry.parseMutation(raw);
    await runOnDevice(db, mutation);
  } catch (error) {
    if (!(error instanceof Rejection)) throw error;
    // Touch a table so the awaited helper keeps Dexie's transaction zone (local-db.ts).
    await db.syncState.get('device');
  }
}

/**
 * Re-applies pending mutations touching `ids`, in seq order, then removes every touched row
 * whose server copy is a tombstone (a pending edit never resurrects a deleted record).
 */
export async function rebasePending(db: SyncDatabase, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await db.outbox
    .where('entityIds')
    .anyOf([...ids])
    .toArray();
  const entries = [...new Map(rows.map((row) => [row.seq, row])).values()]
    .map((row) => outboxEntrySchema.parse(row))
    .sort((a, b) => a.seq - b.seq);
  for (const entry of entries) await replay(db, entry.mutation);
  const touched = [...new Set([...ids, ...entries.flatMap((entry) => entry.entityIds)])];
  const copies = await db.serverCopies.bulkGet(touched);
  for (const raw of copies) {
    if (raw === undefined) continue;
    const copy = serverCopySchema.parse(raw);
    if (copy.data === null) await db.store(copy.table).delete(copy.id);
  }
  return entries.length;
}

/**
 * Resets the local rows of `ids` to the server's copy (or removes them when the server has
 * none or deleted it) and replays what is still pending. The drain stores the server's
 * current state of those records first (the push answer carries it), so a record this
 * device created and no pull has brought yet keeps what the server accepted.
 */
export async function restoreFromServer(db: SyncDatabase, ids: readonly string[]): Promise<void> {
  for (const id of new Set(ids)) {
    const raw = await db.serverCopies.get(id);
    const copy = raw === undefined ? undefined : serverCopySchema.parse(raw);
    if (copy?.data) {
      await db.store(copy.table).put({ ...copy.data, id });
    } else {
      for (const def of db.registry.definitions) await db.store(def.table).delete(id);
    }
  }
  await rebasePending(db, ids);
}
