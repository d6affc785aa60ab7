// The app's device database: the registry's stores plus what the app shipped before the
// registry existed (those version steps never change: installed apps upgrade through them)
// and the case list's derived stores with their middleware (case/device-summaries.ts).
import { SyncDatabase, type DeviceSchema, type IndexedDbDependencies } from '../client/local-db';
import {
  CASE_LIST_TABLE,
  CASE_SUMMARY_TABLE,
  SUMMARY_VERSION_ID,
  caseSummaryMiddleware,
  caseSummaryRow,
} from '../cases/device-summaries';
import { appRegistry } from './registry';

export const appDeviceSchema: DeviceSchema = {
  registry: appRegistry,
  // 6: the conflicts store (platform/conflict-record.ts); every other store as in 5.
  // 7: the inventory's items, batches and movements (registry stores).
  // 8: the incident report addenda store (incidentReportAddenda, from the registry).
  // 9: the internal SOPs' stores, sopVersions and sopAcknowledgements (reference/sop.ts).
  // 11: mass-casualty command: the mciTriages store, incidents indexed by startedAt.
  version: 11,
  history: [
    {
      version: 1,
      stores: {
        cases: 'id, caseId, userId, status',
        vitalSigns: 'id, caseId',
        cprSessions: 'id, sessionId, caseId',
        cprEvents: 'id, cprSessionId',
        incidentReports: 'id, incidentId, userId',
        mciIncidents: 'id, incidentId',
        mciCasualties: 'id, mciIncidentId, caseId',
        caseAddenda: 'id, caseId',
      },
    },
    // v3: cases indexed by createdAt, for case search by date (removed again in v4).
    { version: 3, stores: { cases: 'id, caseId, userId, status, createdAt' } },
    // v4: a compact list copy of every case (case-summaries), kept by a middleware, indexed
    // by createdAt and by when it was written; the cases' own createdAt index of v3 goes.
    {
      version: 4,
      stores: { cases: 'id, caseId, userId, status', [CASE_SUMMARY_TABLE]: 'id, createdAt, stamp' },
      upgrade: async (tx) => {
        const rows = await tx.table('cases').toArray();
        await tx
          .table(CASE_SUMMARY_TABLE)
          .bulkPut([
            ...rows.map((row) => caseSummaryRow(row, 1)),
            { id: SUMMARY_VERSION_ID, stamp: 1 },
          ]);
      },
    },
    // v5: the whole case list in one row between starts (device-summaries.ts).
    { version: 5, stores: { [CASE_LIST_TABLE]: 'id' } },
  ],
  middleware: [caseSummaryMiddleware],
};

/** The signed-in user's database on this device (web app and service worker). */
export function openAppDatabase(userId: number, deps?: IndexedDbDependencies): SyncDatabase {
  return new SyncDatabase(userId, appDeviceSchema, deps);
}
