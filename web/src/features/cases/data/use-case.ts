// Live reads of one case and its child rows from the device's database. They re-render when
// anything changes the rows (this tab, another tab, the service worker, a pull), so screens
// never wait for the network. Rows are parsed (IndexedDB is a boundary); a row that no
// longer parses is reported, never silently dropped.
import { parseHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { appRegistry, type AppLocalRecord } from '@rescuelog/sync-protocol/records/registry';
import { useLiveQuery } from 'dexie-react-hooks';
import { localDatabaseAvailable } from '@/lib/sync/sync-session';
import { useLocalList } from '@/lib/sync/use-local-records';
import { useSyncSession } from '@/lib/sync/use-sync';

export type LocalCase = AppLocalRecord<'case'>;
export type LocalVitalSign = AppLocalRecord<'vitalSign'>;
export type LocalAddendum = AppLocalRecord<'caseAddendum'>;

export type CaseLookup =
  | { state: 'loading' }
  /** No local database (signed out, or IndexedDB unavailable). */
  | { state: 'no-device-store' }
  /** Not on this device (never created or pulled here, or deleted). */
  | { state: 'missing'; caseId: string }
  /** On the device but unreadable (written by an incompatible build): shown as an error. */
  | { state: 'unreadable'; caseId: string; message: string }
  | { state: 'ready'; record: LocalCase & { caseId: string } };

/** Normalises what the URL carries (typed from a radio call: lower case, I for 1, O for 0). */
export function normaliseCaseId(raw: string): string {
  return parseHumanId(raw, 'C') ?? raw.trim().toUpperCase();
}

/** The case with this human case number, as the device holds it. */
export function useCaseByCaseId(rawCaseId: string | undefined): CaseLookup {
  const session = useSyncSession();
  const caseId = rawCaseId ? normaliseCaseId(rawCaseId) : '';
  const result = useLiveQuery(async (): Promise<CaseLookup> => {
    // The session opens just after the user loads (a moment after the first render): until
    // then the case is loading, not "cannot be stored here".
    if (!session)
      return localDatabaseAvailable() ? { state: 'loading' } : { state: 'no-device-store' };
    if (!caseId) return { state: 'missing', caseId };
    const rows = await session.db.records('case').where('caseId').equals(caseId).toArray();
    const live = rows.filter((r) => r.deletedAt === null || r.deletedAt === undefined);
    const row = live[0];
    if (!row) return { state: 'missing', caseId };
    const parsed = appRegistry.localSchema('case').safeParse(row);
    if (!parsed.success)
      return {
        state: 'unreadable',
        caseId,
        message: parsed.error.issues[0]?.message ?? 'Invalid data',
      };
    return { state: 'ready', record: { ...(parsed.data as LocalCase), caseId } };
  }, [session, caseId]);
  return result ?? { state: 'loading' };
}

function byTimestamp(
  a: { timestamp?: string | undefined },
  b: { timestamp?: string | undefined },
): number {
  return (a.timestamp ?? '').localeCompare(b.timestamp ?? '');
}

/** Every reading of the case (voided ones too, marked), oldest first. */
export function useCaseVitalSigns(caseUuid: string | undefined): LocalVitalSign[] | undefined {
  const rows = useLocalList(
    'vitalSign',
    caseUuid ? { where: 'caseId', equals: caseUuid, includeDeleted: true } : undefined,
  );
  return rows && [...rows.records].sort(byTimestamp);
}

/** Corrections of the completed case, oldest first. */
export function useCaseAddenda(caseUuid: string | undefined): LocalAddendum[] | undefined {
  const rows = useLocalList(
    'caseAddendum',
    caseUuid ? { where: 'caseId', equals: caseUuid, includeDeleted: true } : undefined,
  );
  return rows && [...rows.records].sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''));
}
