// A log screen's device source for any kind: its records on this device (useLocalList),
// sorted, narrowed by the screen's filter, and which of them the server has never sent (for
// the online merge, lib/list-merge.ts). Screens with a faster list of their own (cases keep
// a summary store, decision 009) hand the scaffold a DeviceList from that instead.
import type { LocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import type { Row } from '@rescuelog/sync-protocol/platform/mutator';
import { useLiveQuery } from 'dexie-react-hooks';
import { useMemo } from 'react';
import type { FieldOf, LocalListQuery } from '@/lib/sync/local-list';
import { localDatabaseAvailable } from '@/lib/sync/sync-session';
import { useLocalList, type KindDefinition } from '@/lib/sync/use-local-records';
import { useSyncSession } from '@/lib/sync/use-sync';

/** What the scaffold lists from the device: every match in the list's order (it pages them). */
export interface DeviceList<T> {
  items: T[];
  /** Rows that no longer parse: left out, but counted so the screen says so. */
  unreadable: number;
  /** Ids of listed records the server has never sent (made here, not pulled back yet). */
  deviceOnlyIds: ReadonlySet<string>;
}

export interface DeviceListOptions<R> {
  /** The list's order; newest first by default. */
  sortBy: FieldOf<LocalRecord<R>>;
  direction?: 'asc' | 'desc';
  /** An index range to read instead of the whole store (e.g. one parent's rows). */
  range?: Omit<LocalListQuery<LocalRecord<R>>, 'sortBy' | 'direction' | 'offset' | 'limit'>;
  /** The screen's filters, applied on the device (the server applies its own). */
  filter?: (record: LocalRecord<R>) => boolean;
  /** An order of more than one field (e.g. low stock first); ties keep `sortBy`'s order. */
  compare?: (a: LocalRecord<R>, b: LocalRecord<R>) => number;
}

/** Ids of every record the server has sent this device (one read of keys, live). */
function useServerSentIds(): ReadonlySet<string> | undefined {
  const session = useSyncSession();
  return useLiveQuery(async () => {
    if (!session) return new Set<string>();
    const keys = await session.db.serverCopies.toCollection().primaryKeys();
    return new Set(keys);
  }, [session]);
}

/**
 * The kind's records on this device for a list: undefined while loading, null when this
 * browser keeps no local database (then only the server can answer).
 */
export function useDeviceList<R extends Row>(
  kind: KindDefinition<R>,
  { sortBy, direction = 'desc', range, filter, compare }: DeviceListOptions<R>,
): DeviceList<LocalRecord<R>> | null | undefined {
  const session = useSyncSession();
  const list = useLocalList(kind, { ...range, sortBy, direction });
  const sent = useServerSentIds();
  return useMemo(() => {
    if (!session) return localDatabaseAvailable() ? undefined : null;
    if (!list || !sent) return undefined;
    const matched = filter ? list.records.filter(filter) : list.records;
    // Array.prototype.sort is stable: equal rows stay in sortBy's order.
    const items = compare ? [...matched].sort(compare) : matched;
    const deviceOnlyIds = new Set(items.filter((r) => !sent.has(r.id)).map((r) => r.id));
    return { items, unreadable: list.unreadable.length, deviceOnlyIds };
  }, [session, list, sent, filter, compare]);
}
