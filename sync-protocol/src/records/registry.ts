// The app's record kinds, in one list: the registry the device, the service worker and the
// server are built with. Adding a kind: its definition in its domain folder, its migration,
// and one entry in APP_RECORDS (with its import); every type below is derived from the list
// (platform/record-types.ts). docs/adding-a-record-kind.md.
import type { z } from 'zod';
import { parseLocalRecords, type LocalRecord } from '../client/local-records';
import { createRegistry } from '../platform/registry';
import type {
  MutationArgsOf,
  MutationNameOf,
  MutationOf,
  RecordMapOf,
} from '../platform/record-types';
import { caseRecord } from '../cases/case';
import { caseAddendumRecord } from '../cases/case-addendum';
import { vitalSignRecord } from '../cases/vital-sign';
import { cprEventRecord } from '../cpr/cpr-event';
import { cprSessionRecord } from '../cpr/cpr-session';
import { incidentReportRecord } from '../incidents/incident-report';
import { incidentReportAddendumRecord } from '../incidents/incident-report-addendum';
import { mciCasualtyRecord } from '../mci/mci-casualty';
import { mciIncidentRecord } from '../mci/mci-incident';
import { sopAcknowledgementRecord, sopVersionRecord } from '../reference/sop';
import { inventoryItemRecord } from '../inventory/inventory-item';
import { inventoryBatchRecord } from '../inventory/inventory-batch';
import { inventoryMovementRecord } from '../inventory/inventory-movement';
import { mciTriageRecord } from '../mci/mci-triage';

export const APP_RECORDS = [
  caseRecord,
  vitalSignRecord,
  cprSessionRecord,
  cprEventRecord,
  incidentReportRecord,
  mciIncidentRecord,
  mciCasualtyRecord,
  caseAddendumRecord,
  sopVersionRecord,
  sopAcknowledgementRecord,
  inventoryItemRecord,
  inventoryBatchRecord,
  inventoryMovementRecord,
  mciTriageRecord,
  incidentReportAddendumRecord,
] as const;

export const appRegistry = createRegistry(APP_RECORDS);

/**
 * The record type of each app kind (typed reads: useLocalRecord, readLocalRecord), with the
 * conflicts every registry syncs (syncConflict: platform/conflict-record.ts).
 */
export type SyncRecordMap = RecordMapOf<typeof APP_RECORDS>;
export type SyncEntity = keyof SyncRecordMap;

/** Every mutation name the app knows, e.g. 'case.upsert'. */
export type AppMutationName = MutationNameOf<typeof APP_RECORDS>;
/** What a screen passes as a mutation's args (before parsing: defaults may be left out). */
export type AppMutationArgs<N extends AppMutationName> = MutationArgsOf<typeof APP_RECORDS, N>;
/** One mutation as a screen asks for it. */
export type AppMutation = MutationOf<typeof APP_RECORDS>;

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
