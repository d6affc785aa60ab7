// The app's record kinds, in one list: the registry the device, the service worker and the
// server are built with. Adding a kind: one definition file here, its migration, and one
// line in APP_RECORDS (README "Adding a record kind").
import type { z } from 'zod';
import { parseLocalRecords, type LocalRecord } from '../client/local-records';
import type { ConflictRecord } from '../platform/conflict-record';
import { createRegistry } from '../platform/registry';
import { caseRecord } from '../cases/case';
import { type CaseRecord } from '../cases/case-schema';
import { caseAddendumRecord, type CaseAddendumRecord } from '../cases/case-addendum';
import { cprEventRecord, type CprEventRecord } from '../cpr/cpr-event';
import { cprSessionRecord, type CprSessionRecord } from '../cpr/cpr-session';
import { incidentReportRecord, type IncidentReportRecord } from '../incidents/incident-report';
import { mciCasualtyRecord, type MciCasualtyRecord } from '../mci/mci-casualty';
import { mciIncidentRecord, type MciIncidentRecord } from '../mci/mci-incident';
import { vitalSignRecord, type VitalSignRecord } from '../cases/vital-sign';

export const APP_RECORDS = [
  caseRecord,
  vitalSignRecord,
  cprSessionRecord,
  cprEventRecord,
  incidentReportRecord,
  mciIncidentRecord,
  mciCasualtyRecord,
  caseAddendumRecord,
] as const;

export const appRegistry = createRegistry(APP_RECORDS);

/** The record type of each app kind (typed reads: useLocalRecord, readLocalRecord). */
export interface SyncRecordMap {
  case: CaseRecord;
  vitalSign: VitalSignRecord;
  cprSession: CprSessionRecord;
  cprEvent: CprEventRecord;
  incidentReport: IncidentReportRecord;
  mciIncident: MciIncidentRecord;
  mciCasualty: MciCasualtyRecord;
  caseAddendum: CaseAddendumRecord;
  /** Every registry syncs its conflicts (platform/conflict-record.ts). */
  syncConflict: ConflictRecord;
}
export type SyncEntity = keyof SyncRecordMap;

type AppMutator = (typeof APP_RECORDS)[number]['mutators'][number];
/** Every mutation name the app knows, e.g. 'case.upsert'. */
export type AppMutationName = AppMutator['name'];
/** What a screen passes as a mutation's args (before parsing: defaults may be left out). */
export type AppMutationArgs<N extends AppMutationName> = z.input<
  Extract<AppMutator, { name: N }>['args']
>;
/** One mutation as a screen asks for it. */
export type AppMutation = {
  [N in AppMutationName]: { name: N; args: AppMutationArgs<N> };
}[AppMutationName];

/** A record of an app kind as the device keeps it (every field optional but the id). */
export type AppLocalRecord<K extends SyncEntity> = LocalRecord<SyncRecordMap[K]>;

/** Rows of an app kind parsed with the registry's local schema (typed for the app). */
export function parseAppRecords<K extends SyncEntity>(
  kind: K,
  rows: readonly unknown[],
  onInvalid?: (error: z.ZodError, row: unknown) => void,
): AppLocalRecord<K>[] {
  return parseLocalRecords<SyncRecordMap[K]>({ registry: appRegistry }, kind, rows, onInvalid);
}
