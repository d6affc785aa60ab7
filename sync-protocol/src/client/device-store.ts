// The device side of a mutator (platform/mutator.ts): MutatorTx over the user's IndexedDB
// database, inside the caller's rw transaction over db.writeTables. The device applies a
// change at once so the UI never waits for the network, and again when it rebases pending
// changes on newer server copies, so every write here sets values (never increments).
// It checks what it can know (a locked case, a deleted record, bad values) with the same
// mutator code the server runs; permissions, numbers taken on other devices and conflicts
// are the server's to judge.
//
// Dexie rule (local-db.ts): every awaited method here touches a table.
import { z } from 'zod';
import '../zod-config';
import { sameValue } from '../platform/json';
import type {
  AccessEvent,
  MutationContext,
  MutatorTx,
  Row,
  UpdateResult,
} from '../platform/mutator';
import type { ParsedMutation } from '../platform/registry';
import { Rejection, RejectionCode } from '../platform/rejections';
import type { SyncDatabase } from './local-db';

/** The record is not on this device (never pulled, or gone): the local effect ends; the server decides. */
export class NotHeldHere extends Error {
  constructor() {
    super('The record is not held on this device');
    this.name = 'NotHeldHere';
  }
}

/**
 * syncState row `author`: the signed-in user's name and call sign as this device last knew
 * them, written when they sign an addendum (rememberAuthor). The mutation carries no name
 * (the server stamps the real one from its users, decision 011), so the device's author()
 * reads it here: the pending addendum shows its author's name offline, and again after a
 * rebase rebuilds the row (also in the service worker, which has no user profile of its own).
 */
export const AUTHOR_STATE_KEY = 'author';
export const authorStateSchema = z.object({
  key: z.literal(AUTHOR_STATE_KEY),
  userId: z.number().int(),
  fullName: z.string(),
  callSign: z.string().nullable(),
});
export type AuthorState = z.infer<typeof authorStateSchema>;

/** Records who signs this database's changes; call before saving an addendum. */
export async function rememberAuthor(
  db: SyncDatabase,
  author: { fullName: string; callSign: string | null },
): Promise<void> {
  const row: AuthorState = {
    key: AUTHOR_STATE_KEY,
    userId: db.userId,
    fullName: author.fullName,
    callSign: author.callSign,
  };
  await db.syncState.put(row);
}

function isDeleted(row: Row): boolean {
  return row.deletedAt !== null && row.deletedAt !== undefined;
}

export function deviceTx(db: SyncDatabase, mutation: MutationContext): MutatorTx {
  const registry = db.registry;
  const get = async (kind: string, id: string): Promise<Row | undefined> =>
    db.records(kind).get(id);
  return {
    location: 'device',
    mutation,
    get,
    async require(kind, id) {
      // The device checks no rights (the server does, before any state).
      const row = await get(kind, id);
      if (!row) throw new NotHeldHere();
      if (isDeleted(row))
        throw new Rejection(RejectionCode.DELETED, `The ${registry.get(kind).label} was deleted.`, {
          id,
        });
      return row;
    },
    notFound: () => new NotHeldHere(),
    async list(kind, column, value) {
      return db.records(kind).where(column).equals(value).toArray();
    },
    async insert(kind, values) {
      const id = String(values.id);
      const table = db.records(kind);
      // A rebase replays the create over the server's copy: the server's copy stays.
      if ((await table.get(id)) !== undefined) return;
      await table.put({
        ...registry.get(kind).defaults,
        userId: mutation.actorUserId,
        createdAt: mutation.clientTime,
        deletedAt: null,
        ...values,
        id,
      });
    },
    async update(kind, id, changes): Promise<UpdateResult> {
      const table = db.records(kind);
      const row = await table.get(id);
      if (row === undefined) return { changed: [], conflicts: [] };
      const changed = Object.keys(changes).filter((k) => !sameValue(row[k], changes[k]));
      await table.put({ ...row, ...changes, id });
      return { changed, conflicts: [] };
    },
    async tombstone(kind, id) {
      const table = db.records(kind);
      const row = await table.get(id);
      if (row !== undefined) await table.put({ ...row, deletedAt: mutation.clientTime });
    },
    authorize: () => undefined,
    async author(userId) {
      const parsed = authorStateSchema.safeParse(await db.syncState.get(AUTHOR_STATE_KEY));
      if (!parsed.success || parsed.data.userId !== userId) return null;
      return { fullName: parsed.data.fullName, callSign: parsed.data.callSign };
    },
    note: () => undefined,
    async recordAccess(event: AccessEvent) {
      // An audit record for the server; it changes nothing on the device.
      await db.records(event.kind).get(event.recordId);
    },
  };
}

/**
 * Applies a parsed mutation to the device's tables with its mutator. A record the device
 * does not hold ends the effect quietly; a Rejection (the device already knows the server
 * would refuse it) is thrown to the caller.
 */
export async function runOnDevice(db: SyncDatabase, mutation: ParsedMutation): Promise<void> {
  const mutator = db.registry.mutator(mutation.name);
  if (!mutator)
    throw new Rejection(RejectionCode.VALIDATION_FAILED, `Unknown change ${mutation.name}`);
  try {
    await mutator.apply(deviceTx(db, mutation), mutation.args);
  } catch (error) {
    if (error instanceof NotHeldHere) return;
    throw error;
  }
}
