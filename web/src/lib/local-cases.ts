// Live reads of the cases this device holds, shared by the dashboard's Recent Cases and the
// Cases Logged screen (features never import each other). They re-render when any tab, the
// service worker or a pull changes the cases or the outbox, so a case made offline shows at
// once. Search semantics: sync-protocol/src/cases/search.ts.
import {
  compareCasesNewestFirst,
  type CaseSearchFilters,
} from '@rescuelog/sync-protocol/cases/search';
import { DEFAULT_SERVICE_TIME_ZONE } from '@rescuelog/sync-protocol/time';
import type { CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import {
  recentLocalCases,
  searchLocalCases,
  warmLocalCaseList,
  type LocalCaseSearchResult,
} from '@rescuelog/sync-protocol/cases/device-search';
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect } from 'react';
import { mergeByKey } from './list-merge';
import { useSyncSession } from './sync/use-sync';

/** A device search: its result, plus which of the found cases the server has never sent
 * (made on this device and not pulled back yet, so a server search cannot list them). */
export interface DeviceCaseSearch extends LocalCaseSearchResult {
  deviceOnlyIds: ReadonlySet<string>;
  /** Rows that no longer parse (written by an incompatible build): left out, but counted so
   * the screen can say so instead of hiding them silently. */
  unreadable: number;
}

/**
 * The device's cases matching `filters`, newest first. undefined while loading; null when
 * this browser keeps no local database (then only the server can answer).
 */
export function useDeviceCaseSearch(
  filters: CaseSearchFilters,
): DeviceCaseSearch | null | undefined {
  const session = useSyncSession();
  const key = JSON.stringify(filters);
  const result = useLiveQuery(async (): Promise<DeviceCaseSearch | null> => {
    if (!session) return null;
    const parsed = JSON.parse(key) as CaseSearchFilters;
    let unreadable = 0;
    const found = await searchLocalCases(
      session.db,
      parsed,
      { userId: session.userId, timeZone: DEFAULT_SERVICE_TIME_ZONE },
      { onUnreadable: () => (unreadable += 1) },
    );
    const copies = await session.db.serverCopies.bulkGet(found.cases.map((c) => c.id));
    const deviceOnlyIds = new Set(
      found.cases.filter((_, i) => copies[i] === undefined).map((c) => c.id),
    );
    return { ...found, deviceOnlyIds, unreadable };
  }, [session, key]);
  // Without a session there is nothing to wait for (a live query there may never answer).
  return session ? result : null;
}

/** The newest `n` cases on this device; undefined while loading, null without a local database.
 * Also reads the whole case list once the page is idle, so Cases Logged opens fast. */
export function useRecentDeviceCases(n: number): CaseSummary[] | null | undefined {
  const session = useSyncSession();
  useEffect(() => {
    if (!session) return;
    const warm = () => void warmLocalCaseList(session.db).catch(() => undefined);
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(warm, { timeout: 5000 });
      return () => cancelIdleCallback(handle);
    }
    const timer = setTimeout(warm, 1000);
    return () => clearTimeout(timer);
  }, [session]);
  const result = useLiveQuery(
    async () => (session ? recentLocalCases(session.db, n) : null),
    [session, n],
  );
  return session ? result : null;
}

/**
 * Device and server lists as one, newest first, one entry per case number. The device's copy
 * wins: it is the server's last copy plus this device's unsynced changes.
 */
export function mergeCaseLists(
  device: readonly CaseSummary[],
  server: readonly CaseSummary[],
): CaseSummary[] {
  return mergeByKey(device, server, { keyOf: (c) => c.caseId, compare: compareCasesNewestFirst });
}
