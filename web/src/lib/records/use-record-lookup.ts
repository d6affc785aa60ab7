// One record of any kind, live from the device's database, with the states a record screen
// shows before its form: loading, no local database, not on this device, unreadable. By id,
// or by another indexed column (a case by its case number). The row is parsed with the
// kind's local schema from the registry the session's database carries (IndexedDB is a
// boundary); a row that no longer parses is reported, never silently dropped.
import type { LocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import type { Row } from '@rescuelog/sync-protocol/platform/mutator';
import { useLiveQuery } from 'dexie-react-hooks';
import { localDatabaseAvailable } from '@/lib/sync/sync-session';
import { useSyncSession } from '@/lib/sync/use-sync';

export type RecordLookup<R> =
  | { state: 'loading' }
  /** No local database (signed out, or IndexedDB unavailable). */
  | { state: 'no-device-store' }
  /** Not on this device (never created or pulled here, or deleted). */
  | { state: 'missing' }
  /** On the device but unreadable (written by an incompatible build): shown as an error. */
  | { state: 'unreadable'; message: string }
  | { state: 'ready'; record: LocalRecord<R> };

/**
 * The record of `kind` whose `index` (default its id) equals `key`, as the device holds it.
 * Re-renders when anything changes the row (this tab, another tab, the worker, a pull).
 */
export function useRecordLookup<R extends Row = Row>(
  kind: string,
  key: string | undefined,
  index = 'id',
): RecordLookup<R> {
  const session = useSyncSession();
  const result = useLiveQuery(async (): Promise<RecordLookup<R>> => {
    // The session opens just after the user loads (a moment after the first render): until
    // then the record is loading, not "cannot be stored here".
    if (!session)
      return localDatabaseAvailable() ? { state: 'loading' } : { state: 'no-device-store' };
    if (!key) return { state: 'missing' };
    const table = session.db.records(kind);
    const rows =
      index === 'id' ? [await table.get(key)] : await table.where(index).equals(key).toArray();
    const row = rows.find((r) => r && (r.deletedAt === null || r.deletedAt === undefined));
    if (!row) return { state: 'missing' };
    const parsed = session.db.registry.localSchema(kind).safeParse(row);
    if (!parsed.success)
      return { state: 'unreadable', message: parsed.error.issues[0]?.message ?? 'Invalid data' };
    return { state: 'ready', record: parsed.data as LocalRecord<R> };
  }, [session, kind, key, index]);
  return result ?? { state: 'loading' };
}
