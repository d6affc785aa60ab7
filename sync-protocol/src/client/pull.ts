// Pull: fetch server changes and tombstones since the stored cursor, write them into the
// domain tables (and as server copies, server-copies.ts), then re-apply every still-pending outbox mutation that touches those
// records (rebase), so the user's unacknowledged edits stay visible on top of the server's
// copy until the server acknowledges them. Each page is applied in one transaction together
// with the cursor, so a crash never skips or half-applies a page.
import { canonicalJson } from '../platform/json';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '../platform/versions';
import {
  parseChange,
  pullAnswerSchema,
  PULL_DEFAULT_LIMIT,
  type SyncChange,
} from '../platform/push-pull';
import type { StoredRecord, SyncDatabase } from './local-db';
import { readOrCreateDevice, readPullState, type PullState } from './outbox';
import { rebasePending, serverCopyOf } from './server-copies';
import {
  classifyResponse,
  describeNetworkError,
  SYNC_PULL_PATH,
  type RetryReason,
  type SyncTransport,
} from './transport';

export type PullOutcome =
  | { kind: 'pulled'; changes: number }
  | { kind: 'auth-required'; status: number; message: string; changes: number }
  | { kind: 'update-required'; message: string; changes: number }
  | {
      kind: 'retry';
      reason: RetryReason;
      status: number | null;
      message: string;
      retryAfterMs: number | null;
      changes: number;
    };

export interface PullOptions {
  db: SyncDatabase;
  transport: SyncTransport;
  limit?: number;
  now?: () => Date;
  /**
   * What the user may see now (accessKeyOf of the signed-in user). When it differs from the
   * key the cursor was taken under, the pull starts over from the beginning: the server sends
   * only changes after the cursor, so records the user may see since a grant, older than the
   * cursor, would otherwise never reach the device.
   */
  accessKey?: string | null;
}

/**
 * The part of a user that decides what a pull sends them (the server's visibility rules read
 * the role and the effective permissions), as one comparable string.
 */
export function accessKeyOf(user: { role: string; permissions: unknown }): string {
  return canonicalJson({ role: user.role, permissions: user.permissions });
}

/**
 * Moves the cursor back to the beginning when what the server sends this device changed since
 * the cursor was taken: the user's access (a known key that differs, see PullOptions), or the
 * kinds this app knows (SCHEMA_VERSION: the server sends a kind only to apps of its
 * `sinceSchemaVersion` and later, so after an update that adds one, its records older than
 * the cursor would otherwise never arrive).
 */
async function startOverIfChanged(db: SyncDatabase, accessKey: string | null): Promise<void> {
  await db.transaction('rw', db.syncState, async () => {
    const state = await readPullState(db);
    const accessChanged = accessKey !== null && state.accessKey !== accessKey;
    if (!accessChanged && state.schemaVersion === SCHEMA_VERSION) return;
    await db.syncState.put({
      ...state,
      cursor: null,
      schemaVersion: SCHEMA_VERSION,
      ...(accessKey === null ? {} : { accessKey }),
    } satisfies PullState);
  });
}

/**
 * Writes a page's changes: each record's row (or its removal, for a tombstone) and its server
 * copy. In bulk, one request per kind's table and one for the copies, not two awaited
 * requests a record: on a phone that was most of a first sync (decision 051's addendum). A
 * record appears once on a page; were it there twice, the later change wins, as applied one
 * by one.
 */
async function applyPage(db: SyncDatabase, changes: readonly SyncChange[]): Promise<void> {
  const latest = new Map<string, SyncChange>();
  for (const change of changes) {
    latest.delete(change.id);
    latest.set(change.id, change);
  }
  const copies = [...latest.values()].map((change) => serverCopyOf(db, change));
  const byKind = new Map<string, { puts: StoredRecord[]; deletes: string[] }>();
  for (const [index, change] of [...latest.values()].entries()) {
    const data = copies[index]?.data ?? null;
    const writes = byKind.get(change.entity) ?? { puts: [], deletes: [] };
    byKind.set(change.entity, writes);
    // A tombstone without data: the record is gone for this user (deleted, or no longer
    // visible). Its tombstone copy keeps the rebase from recreating it out of pending partial
    // updates; the server rejects those and the inbox shows them.
    if (data === null) writes.deletes.push(change.id);
    else writes.puts.push({ ...data, id: change.id });
  }
  for (const [kind, writes] of byKind) {
    const table = db.records(kind);
    if (writes.deletes.length > 0) await table.bulkDelete(writes.deletes);
    if (writes.puts.length > 0) await table.bulkPut(writes.puts);
  }
  await db.serverCopies.bulkPut(copies);
}

export async function pullChanges(options: PullOptions): Promise<PullOutcome> {
  const { db, transport } = options;
  const now = options.now ?? (() => new Date());
  const limit = options.limit ?? PULL_DEFAULT_LIMIT;
  const deviceId = (await db.transaction('rw', db.syncState, async () => readOrCreateDevice(db)))
    .deviceId;
  await startOverIfChanged(db, options.accessKey ?? null);
  let total = 0;

  for (;;) {
    const { cursor } = await readPullState(db);
    let response;
    try {
      response = await transport.post(SYNC_PULL_PATH, {
        protocolVersion: PROTOCOL_VERSION,
        schemaVersion: SCHEMA_VERSION,
        deviceId,
        cursor,
        limit,
      });
    } catch (error) {
      return {
        kind: 'retry',
        reason: 'network',
        status: null,
        message: describeNetworkError(error),
        retryAfterMs: null,
        changes: total,
      };
    }
    const classified = classifyResponse(response, pullAnswerSchema);
    if (classified.kind !== 'ok') return { ...classified, changes: total };
    const page = classified.data;
    // Kinds this app version does not know (a newer server) are skipped, not an error.
    const known = page.changes
      .map((change) => parseChange(db.registry, change))
      .filter((change): change is SyncChange => change !== null);

    await db.transaction('rw', db.writeTables, async () => {
      // Another pull (another tab) may have moved the cursor meanwhile: then this page is
      // stale and applying it could roll rows back. Drop it and let the loop re-read.
      const current = await readPullState(db);
      if (current.cursor !== cursor) return;
      if (known.length > 0) await applyPage(db, known);
      // Only awaited when it has work: an awaited async helper that touches no table can
      // end Dexie's transaction zone early in real browsers (see local-db.ts).
      if (known.length > 0)
        await rebasePending(
          db,
          known.map((c) => c.id),
        );
      await db.syncState.put({
        ...current,
        cursor: page.cursor,
        lastPullAt: now().toISOString(),
      } satisfies PullState);
    });
    total += page.changes.length;
    if (!page.hasMore || page.changes.length === 0) return { kind: 'pulled', changes: total };
  }
}
