// Live reads of records of any kind from the device's database, for every record screen
// (cases today; CPR, MCI and incident reports next). They re-render when anything changes
// the rows (this tab, another tab, the service worker, a pull), so screens never wait for
// the network. Rows are parsed by the kind's local schema (IndexedDB is a boundary); a row
// that no longer parses is reported, never silently dropped.
import {
  parseAppRecords,
  type AppLocalRecord,
  type SyncEntity,
} from '@rescuelog/sync-protocol/records/registry';
import { useLiveQuery } from 'dexie-react-hooks';
import { useSyncSession } from './use-sync';

function reportUnreadable(kind: string) {
  return (error: unknown) => {
    console.error(`Unreadable ${kind} row`, error);
  };
}

/**
 * One record by id: undefined while loading, null when this device does not hold it (or it
 * is deleted).
 */
export function useLocalRecord<K extends SyncEntity>(
  kind: K,
  id: string | undefined,
): AppLocalRecord<K> | null | undefined {
  const session = useSyncSession();
  return useLiveQuery(async () => {
    if (!session || !id) return null;
    const row = await session.db.records(kind).get(id);
    if (!row || (row.deletedAt !== null && row.deletedAt !== undefined)) return null;
    return parseAppRecords(kind, [row], reportUnreadable(kind))[0] ?? null;
  }, [session, kind, id]);
}

export interface LocalListQuery {
  /** An indexed column of the kind's store (its definition's device indexes). */
  where: string;
  equals: string;
  /** Keep tombstoned rows (default: left out). */
  includeDeleted?: boolean;
}

/** Records of a kind matching an indexed column, in store order (sort on the screen). */
export function useLocalList<K extends SyncEntity>(
  kind: K,
  query: LocalListQuery | undefined,
): AppLocalRecord<K>[] | undefined {
  const session = useSyncSession();
  const where = query?.where;
  const equals = query?.equals;
  const includeDeleted = query?.includeDeleted === true;
  return useLiveQuery(async () => {
    if (!session || where === undefined || equals === undefined) return [];
    const rows = await session.db.records(kind).where(where).equals(equals).toArray();
    const live = includeDeleted
      ? rows
      : rows.filter((row) => row.deletedAt === null || row.deletedAt === undefined);
    return parseAppRecords(kind, live, reportUnreadable(kind));
  }, [session, kind, where, equals, includeDeleted]);
}

/**
 * The open conflicts this device holds that involve the signed-in user (one of the two
 * authors), newest first: for the sync inbox. IndexedDB cannot index a null resolvedAt, so
 * the (few) conflict rows are filtered here.
 */
export function useOpenConflicts(): AppLocalRecord<'syncConflict'>[] | undefined {
  const session = useSyncSession();
  return useLiveQuery(async () => {
    if (!session) return [];
    const rows = await session.db.records('syncConflict').toArray();
    return parseAppRecords('syncConflict', rows, reportUnreadable('syncConflict'))
      .filter(
        (c) =>
          (c.resolvedAt ?? null) === null &&
          (c.serverAuthor === session.userId || c.clientAuthor === session.userId),
      )
      .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  }, [session]);
}
