// Setting aside a change the server keeps failing to store, and trying it again (decision
// 017, platform/set-aside.ts). Set aside: the change, and every later change to the same
// records (their order is kept: they wait with it), move to the inbox whole; in their
// places the outbox sends markers with the same seqs, so the server's record of this
// device's seqs has no gap and the device's other records keep syncing. The records are
// rebuilt from the server's copy plus what is still pending, so the screen shows what the
// server holds. Try again: the group is saved again, in its order, as new changes.
import { mutationEnvelopeSchema } from '../platform/envelope';
import {
  SERVER_TRIES_BEFORE_SET_ASIDE,
  SET_ASIDE_MUTATION,
  type SetAsideArgs,
} from '../platform/set-aside';
import { SCHEMA_VERSION } from '../platform/versions';
import type { SyncDatabase } from './local-db';
import {
  readOutbox,
  rejectionSchema,
  saveMutation,
  type OutboxEntry,
  type Rejection,
} from './outbox';
import { restoreFromServer } from './server-copies';

export { SERVER_TRIES_BEFORE_SET_ASIDE };

export function isSetAsideMarker(entry: OutboxEntry): boolean {
  return entry.mutation.name === SET_ASIDE_MUTATION;
}

/** Whether a rejection is a set-aside change (or one held back with it): it can be tried again. */
export function isSetAside(rejection: Rejection): boolean {
  return rejection.code === 'SET_ASIDE' || rejection.code === 'HELD_BACK';
}

/**
 * Moves `head` and the later changes to its records into the inbox and queues markers in
 * their places. Call inside a rw transaction on the write tables and the rejections.
 * Returns how many changes were set aside.
 */
export async function setAside(
  db: SyncDatabase,
  head: OutboxEntry,
  reason: string | null,
  at: string,
): Promise<number> {
  const records = new Set(head.entityIds);
  const group: OutboxEntry[] = [head];
  for (const entry of await readOutbox(db)) {
    if (entry.seq <= head.seq || isSetAsideMarker(entry)) continue;
    if (!entry.entityIds.some((id) => records.has(id))) continue;
    group.push(entry);
    for (const id of entry.entityIds) records.add(id);
  }
  for (const entry of group) {
    const code = entry === head ? 'SET_ASIDE' : 'HELD_BACK';
    const rejection: Rejection = rejectionSchema.parse({
      mutationId: entry.mutationId,
      seq: entry.seq,
      code,
      // The code's own message says it (the server's last words are in the marker).
      message: null,
      conflicts: [],
      mutation: entry.mutation,
      rejectedAt: at,
      dismissedAt: null,
      setAsideWith: head.mutationId,
    });
    await db.rejections.put(rejection);
    const carried: SetAsideArgs = {
      mutationId: entry.mutationId,
      name: entry.mutation.name,
      code,
      reason: entry === head ? reason : null,
      heldBehind: entry === head ? null : head.mutationId,
      entityIds: entry.entityIds,
      baseVersion: entry.mutation.baseVersion,
      clientTime: entry.mutation.clientTime,
      args: entry.mutation.args as SetAsideArgs['args'],
    };
    const markerId = globalThis.crypto.randomUUID();
    const marker: OutboxEntry = {
      ...entry,
      mutationId: markerId,
      entityIds: [],
      mutation: mutationEnvelopeSchema.parse({
        mutationId: markerId,
        deviceId: entry.mutation.deviceId,
        seq: entry.seq,
        actorUserId: entry.mutation.actorUserId,
        name: SET_ASIDE_MUTATION,
        args: carried,
        entityIds: [],
        baseVersion: null,
        clientTime: at,
        schemaVersion: SCHEMA_VERSION,
      }),
      state: 'pending',
      attempts: 0,
      serverFailures: 0,
      lastError: null,
    };
    await db.outbox.put(marker);
  }
  await restoreFromServer(db, [...records]);
  return group.length;
}

/**
 * Saves a set-aside group again, in its order, as new changes (each runs its mutator on
 * the device again, so one the device can now tell the server would refuse is refused here
 * and nothing of the group is saved). The group leaves the inbox only when all are saved.
 */
export async function trySetAsideAgain(
  db: SyncDatabase,
  headMutationId: string,
  now: () => Date = () => new Date(),
): Promise<number> {
  return db.transaction('rw', [...db.writeTables, db.rejections], async () => {
    const rows = await db.rejections.toArray();
    const group = rows
      .map((row) => rejectionSchema.parse(row))
      .filter((r) => isSetAside(r) && r.setAsideWith === headMutationId)
      .sort((a, b) => a.seq - b.seq);
    for (const rejection of group) {
      const { mutation } = rejection;
      await saveMutation(
        db,
        {
          name: mutation.name,
          args: mutation.args,
          baseVersion: mutation.baseVersion,
          actorUserId: mutation.actorUserId,
        },
        now,
      );
    }
    await db.rejections.bulkDelete(group.map((r) => r.mutationId));
    return group.length;
  });
}
