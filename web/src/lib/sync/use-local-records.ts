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
import type { LocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import type { Row } from '@rescuelog/sync-protocol/platform/mutator';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import { assertIndex, readLocalList, type LocalList, type LocalListQuery } from './local-list';
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

export type { LocalList, LocalListQuery, UnreadableRow } from './local-list';

/** A kind as a screen names it when the app's types do not (a test's throwaway kind): its
 * definition, whose record schema types the rows. */
export type KindDefinition<R extends Row> = Pick<RecordDefinition<R>, 'kind' | 'record'>;

/**
 * Records of a kind, live: the whole store (`{}`) or the rows an index matches (`where` with
 * `equals`, `between`, `above` or `below`), sorted (`sortBy`, `direction`) and paged (`offset`,
 * `limit`); local-list.ts and decision 058 say how. `kind` is an app kind's name, or any
 * kind's definition (a kind the session's registry holds but the app's types do not name,
 * as a test's). undefined while loading; an empty list without a query or a session.
 * A `where` that is not one of the kind's device indexes throws (at render) with its name.
 */
export function useLocalList<K extends SyncEntity>(
  kind: K,
  query: LocalListQuery<AppLocalRecord<K>> | undefined,
): LocalList<AppLocalRecord<K>> | undefined;
export function useLocalList<R extends Row>(
  kind: KindDefinition<R>,
  query: LocalListQuery<LocalRecord<R>> | undefined,
): LocalList<LocalRecord<R>> | undefined;
export function useLocalList(
  kind: string | { kind: string },
  query: LocalListQuery<never> | undefined,
): LocalList<unknown> | undefined {
  const session = useSyncSession();
  const name = typeof kind === 'string' ? kind : kind.kind;
  // Checked here, not inside the live query, so a wrong index fails the render that asked.
  if (session && query?.where !== undefined) assertIndex(session.db.registry, name, query.where);
  const key = query === undefined ? null : JSON.stringify(query);
  return useLiveQuery(async () => {
    if (!session || key === null) return EMPTY;
    const list = await readLocalList(session.db, name, JSON.parse(key) as LocalListQuery);
    for (const row of list.unreadable)
      console.error(`Unreadable ${name} row ${row.id}: ${row.message}`);
    return list;
  }, [session, name, key]);
}

const EMPTY: LocalList<LocalRecord<Row>> = { records: [], total: 0, unreadable: [] };

/**
 * The open conflicts this device holds that involve the signed-in user (one of the two
 * authors), newest first: for the sync inbox. IndexedDB cannot index a null resolvedAt, so
 * the (few) conflict rows are filtered here.
 */
export function useOpenConflicts(): AppLocalRecord<'syncConflict'>[] | undefined {
  const session = useSyncSession();
  const list = useLocalList('syncConflict', {
    sortBy: 'createdAt',
    direction: 'desc',
    includeDeleted: true,
  });
  const me = session?.userId;
  return useMemo(
    () =>
      list?.records.filter(
        (c) => (c.resolvedAt ?? null) === null && (c.serverAuthor === me || c.clientAuthor === me),
      ),
    [list, me],
  );
}
