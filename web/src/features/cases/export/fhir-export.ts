// Export a case as a FHIR R4 Bundle from the DEVICE's data, so it works offline: the same
// builder the server's GET /api/cases/:caseId/fhir uses (sync-protocol case/fhir.ts,
// decision 008), over the rows this device holds (server copy + changes not yet synced).
// Rows are parsed on the way out of IndexedDB. The caller records the `case.access` export
// event (the completed-case screen does).
import {
  buildFhirBundle,
  type FhirAddendumInput,
  type FhirVitalSignInput,
} from '@rescuelog/sync-protocol/cases/fhir';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import {
  appRegistry,
  parseAppRecords,
  type AppLocalRecord,
} from '@rescuelog/sync-protocol/records/registry';

export const FHIR_JSON_TYPE = 'application/fhir+json';

export class CaseNotOnDeviceError extends Error {
  constructor(readonly caseUuid: string) {
    super('This case is not on this device.');
    this.name = 'CaseNotOnDeviceError';
  }
}

export interface FhirExportOptions {
  /** The responder to name when the case does not (e.g. the signed-in user). */
  responder?: { name?: string | null; callSign?: string | null };
  /** The export's timestamp (tests). */
  now?: Date;
}

/** `C-2611-7Q4M-XK3P.fhir.json` */
export function fhirFileName(caseId: string): string {
  return `${caseId.replace(/[^A-Za-z0-9-]/g, '_')}.fhir.json`;
}

/**
 * The case with this uuid as a FHIR R4 Bundle file. Throws CaseNotOnDeviceError when the
 * case is not here (never synced to this device, or deleted), and a parse error when a row
 * was written by an incompatible build (shown to the user as an error, never half exported).
 */
export async function exportCaseAsFhir(
  db: SyncDatabase,
  caseUuid: string,
  options: FhirExportOptions = {},
): Promise<{ fileName: string; blob: Blob }> {
  // One read transaction: the case and its rows as of one moment, even while a pull writes.
  const { record, vitals, addenda } = await db.transaction(
    'r',
    [db.records('case'), db.records('vitalSign'), db.records('caseAddendum')],
    async () => {
      const row = await db.records('case').get(caseUuid);
      const vitalRows = await db.records('vitalSign').where('caseId').equals(caseUuid).toArray();
      const addendumRows = await db
        .records('caseAddendum')
        .where('caseId')
        .equals(caseUuid)
        .toArray();
      return { record: row, vitals: vitalRows, addenda: addendumRows };
    },
  );
  if (!record) throw new CaseNotOnDeviceError(caseUuid);
  const c = appRegistry.localSchema('case').parse(record) as AppLocalRecord<'case'>;
  if (c.deletedAt || !c.caseId) throw new CaseNotOnDeviceError(caseUuid);
  const caseId = c.caseId;

  const readings: FhirVitalSignInput[] = parseAppRecords('vitalSign', vitals, (error) => {
    throw error;
  }).flatMap((v) =>
    v.type !== undefined && v.value !== undefined && !v.voidedAt && !v.deletedAt
      ? [{ ...v, type: v.type, value: v.value }]
      : [],
  );
  const corrections: FhirAddendumInput[] = parseAppRecords('caseAddendum', addenda, (error) => {
    throw error;
  })
    .flatMap((a) =>
      a.reason !== undefined && !a.deletedAt
        ? [{ ...a, reason: a.reason, changes: a.changes ?? [] }]
        : [],
    )
    .sort((a, b) => (a.createdAt ?? '').localeCompare(b.createdAt ?? ''));

  const bundle = buildFhirBundle({
    case: { ...c, caseId },
    vitals: readings.sort((a, b) => (a.timestamp ?? '').localeCompare(b.timestamp ?? '')),
    addenda: corrections,
    responder: options.responder,
    generatedAt: options.now ?? new Date(),
  });
  return {
    fileName: fhirFileName(caseId),
    blob: new Blob([JSON.stringify(bundle, null, 2)], { type: FHIR_JSON_TYPE }),
  };
}

/** Saves a blob as a file (moved to lib/download.ts, shared with other features). */
export { downloadBlob } from '@/lib/download';
