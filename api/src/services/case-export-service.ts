// The server's rows of one case, read for the FHIR export (GET /api/cases/:caseId/fhir): the
// case, its readings that are not voided and its addenda with their authors' names. Rows go
// through the same wire conversion as a pull and are parsed with the sync-protocol record
// schemas, so the export reads exactly what a device would hold after a pull.
import type { Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import type { FhirAddendumInput, FhirExportInput } from '@rescuelog/sync-protocol/cases/fhir';
import { caseAddendumRecordSchema } from '@rescuelog/sync-protocol/cases/case-addendum';
import { caseRecordSchema, type CaseRecord } from '@rescuelog/sync-protocol/cases/case-schema';
import { vitalSignRecordSchema } from '@rescuelog/sync-protocol/cases/vital-sign';
import { dynamic, toWireRecord } from './sync/sync-tables';
import { caseRecord } from '@rescuelog/sync-protocol/cases/case';
import { caseAddendumRecord } from '@rescuelog/sync-protocol/cases/case-addendum';
import { vitalSignRecord } from '@rescuelog/sync-protocol/cases/vital-sign';

export interface CaseExportRows {
  record: CaseRecord;
  deleted: boolean;
  input: Omit<FhirExportInput, 'generatedAt'>;
}

/** The case with this human case number and what its export needs, or undefined. */
export async function readCaseForExport(
  db: Kysely<Database>,
  humanId: string,
): Promise<CaseExportRows | undefined> {
  const d = dynamic(db);
  const row = await d
    .selectFrom('cases')
    .selectAll()
    .where('caseId', '=', humanId)
    .executeTakeFirst();
  if (!row) return undefined;
  const record = caseRecordSchema.parse(toWireRecord(caseRecord, row));
  const deleted = record.deletedAt !== null;

  const vitalRows = await d
    .selectFrom('vitalSigns')
    .selectAll()
    .where('caseId', '=', record.id)
    .where('voidedAt', 'is', null)
    .where('deletedAt', 'is', null)
    .orderBy('timestamp')
    .orderBy('id')
    .execute();
  const vitals = vitalRows.map((r) =>
    vitalSignRecordSchema.parse(toWireRecord(vitalSignRecord, r)),
  );

  const addendumRows = await d
    .selectFrom('caseAddenda')
    .selectAll()
    .where('caseId', '=', record.id)
    .where('deletedAt', 'is', null)
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  const addenda = addendumRows.map((r) =>
    caseAddendumRecordSchema.parse(toWireRecord(caseAddendumRecord, r)),
  );

  const userIds = [...new Set([record.userId, ...addenda.map((a) => a.userId)])];
  const users = await db
    .selectFrom('users')
    .select(['id', 'fullName', 'callSign'])
    .where('id', 'in', userIds)
    .execute();
  const byId = new Map(users.map((u) => [u.id, u]));
  const owner = byId.get(record.userId);

  const fhirAddenda: FhirAddendumInput[] = addenda.map((a) => ({
    id: a.id,
    reason: a.reason,
    changes: a.changes,
    createdAt: a.createdAt,
    userId: a.userId,
    // The name the addendum was signed with (decision 011); an addendum from before the server
    // stamped names is named by its author's account as it is now, as before.
    ...(a.authorName !== null
      ? { authorName: a.authorName, authorCallSign: a.authorCallSign }
      : { authorName: byId.get(a.userId)?.fullName ?? null }),
  }));

  return {
    record,
    deleted,
    input: {
      case: record,
      vitals,
      addenda: fhirAddenda,
      // The case's own responder fields win; the account that logged it fills the gap.
      responder: owner ? { name: owner.fullName, callSign: owner.callSign } : undefined,
    },
  };
}
