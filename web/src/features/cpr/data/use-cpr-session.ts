// Live reads of one CPR session (by its session number) and its events from the device's
// database; they re-render when a tap, another tab or a pull changes the rows.
import { parseHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { CprSessionRecord } from '@rescuelog/sync-protocol/cpr/cpr-session';
import type { AppLocalRecord } from '@rescuelog/sync-protocol/records/registry';
import { useRecordLookup, type RecordLookup } from '@/lib/records/use-record-lookup';
import { useLocalList } from '@/lib/sync/use-local-records';

export type LocalCprSession = AppLocalRecord<'cprSession'>;
export type LocalCprEvent = AppLocalRecord<'cprEvent'>;

/** Normalises a session number typed from a radio call (lower case, I for 1, O for 0). */
export function normaliseSessionId(raw: string): string {
  return parseHumanId(raw, 'S') ?? raw.trim().toUpperCase();
}

export function useCprSessionBySessionId(
  rawSessionId: string | undefined,
): RecordLookup<CprSessionRecord> {
  const sessionId = rawSessionId ? normaliseSessionId(rawSessionId) : '';
  return useRecordLookup<CprSessionRecord>('cprSession', sessionId || undefined, 'sessionId');
}

/** Every event of the session (voids included), in no particular order. */
export function useCprEvents(sessionUuid: string | undefined): LocalCprEvent[] | undefined {
  const rows = useLocalList(
    'cprEvent',
    sessionUuid ? { where: 'cprSessionId', equals: sessionUuid } : undefined,
  );
  return rows?.records;
}
