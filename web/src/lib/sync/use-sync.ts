// React hooks over the sync session: engine status, online state, and live queries on the
// user's local database (they re-render when any tab or the worker changes the data, so
// screens never wait for the network). Every row read is parsed (IndexedDB is a boundary).
import {
  pendingChangeCount,
  readPushState,
  rejectionSchema,
  type Rejection,
} from '@rescuelog/sync-protocol/client/outbox';
import type { SyncStatus } from '@rescuelog/sync-protocol/client/sync-engine';
import { useLiveQuery } from 'dexie-react-hooks';
import { useCallback, useSyncExternalStore } from 'react';
import { getSyncSession, subscribeSyncSession, type SyncSession } from './sync-session';

export function useSyncSession(): SyncSession | null {
  return useSyncExternalStore(subscribeSyncSession, getSyncSession, () => null);
}

const IDLE: SyncStatus = {
  phase: 'idle',
  lastError: null,
  failures: 0,
  nextRetryAt: null,
  lastSyncAt: null,
  unreachable: false,
};

export function useSyncStatus(): SyncStatus {
  const session = useSyncSession();
  const subscribe = useCallback(
    (onChange: () => void) => (session ? session.engine.subscribe(onChange) : () => undefined),
    [session],
  );
  const get = useCallback(() => (session ? session.engine.getStatus() : IDLE), [session]);
  return useSyncExternalStore(subscribe, get, () => IDLE);
}

export { useOnline } from '@/hooks/use-online';

/**
 * Changes saved on this device that the server has not acknowledged, counted by the one rule
 * (outbox.ts pendingChangeCount: records of who viewed a case are not changes); undefined
 * while loading.
 */
export function usePendingCount(): number | undefined {
  const session = useSyncSession();
  return useLiveQuery(async () => (session ? pendingChangeCount(session.db) : 0), [session]);
}

/** Last time the outbox was found empty by a drain the server answered (any tab or the worker). */
export function useLastSuccessfulSync(): string | null | undefined {
  const session = useSyncSession();
  return useLiveQuery(
    async () => (session ? (await readPushState(session.db)).lastSuccessAt : null),
    [session],
  );
}

/** Whether this record has changes the server has not acknowledged yet. */
export function useHasPendingChanges(recordId: string): boolean | undefined {
  const session = useSyncSession();
  return useLiveQuery(
    async () =>
      session ? (await session.db.outbox.where('entityIds').equals(recordId).count()) > 0 : false,
    [session, recordId],
  );
}

export interface RejectionList {
  rejections: Rejection[];
  /** Rows that no longer parse (written by an incompatible build); shown, never hidden. */
  unreadable: number;
}

/** Changes the server refused, newest first. */
export function useRejections(): RejectionList | undefined {
  const session = useSyncSession();
  return useLiveQuery(async () => {
    if (!session) return { rejections: [], unreadable: 0 };
    const rows = await session.db.rejections.toArray();
    const rejections: Rejection[] = [];
    let unreadable = 0;
    for (const row of rows) {
      const parsed = rejectionSchema.safeParse(row);
      if (parsed.success) rejections.push(parsed.data);
      else unreadable += 1;
    }
    rejections.sort((a, b) => b.seq - a.seq);
    return { rejections, unreadable };
  }, [session]);
}
