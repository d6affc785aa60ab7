// Live reads of one case (by its case number, on the kit's useRecordLookup) and its child
// rows from the device's database. They re-render when anything changes the rows (this tab,
// another tab, the service worker, a pull), so screens never wait for the network.
import { parseHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { CaseRecord } from '@rescuelog/sync-protocol/cases/case-schema';
import type { AppLocalRecord } from '@rescuelog/sync-protocol/records/registry';
import { useRecordLookup } from '@/lib/records/use-record-lookup';
import { useLocalList } from '@/lib/sync/use-local-records';

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
  const caseId = rawCaseId ? normaliseCaseId(rawCaseId) : '';
  const lookup = useRecordLookup<CaseRecord>('case', caseId || undefined, 'caseId');
  switch (lookup.state) {
    case 'loading':
    case 'no-device-store':
      return lookup;
    case 'missing':
      return { state: 'missing', caseId };
    case 'unreadable':
      return { state: 'unreadable', caseId, message: lookup.message };
    case 'ready':
      return { state: 'ready', record: { ...lookup.record, caseId } };
  }
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
