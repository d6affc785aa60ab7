// case: the patient record (per-field last write wins; completed means locked). Its fields
// and record schema are in case-schema.ts.
import { z } from 'zod';
import '../zod-config';
import { validateCaseForCompletion } from './completion';
import {
  CASE_FIELD_DEFAULTS,
  caseFieldsSchema,
  caseRecordSchema,
  type CaseRecord,
} from './case-schema';
import { CASE_FIELD_LABELS } from './fields';
import { caseHoldsNothing } from './untouched';
import { defineMutator, type Row } from '../platform/mutator';
import { defineRecord, type FamilyAccess, type RecordDefinition } from '../platform/record';
import { Rejection, RejectionCode } from '../platform/rejections';
import { deleteMutator, upsertMutator } from '../platform/verbs';
import { timestampSchema, uuidSchema } from '../platform/values';

// ---------------------------------------------------------------------------------------
// The definition and its mutations
// ---------------------------------------------------------------------------------------

/** Who may create, change and see cases (spec §6: newCase, casesLogged). Other people's
 * patients only with an explicit casesLogged view grant (decision 024, POPIA). */
export const CASE_ACCESS = {
  module: 'newCase',
  logModule: 'casesLogged',
  viewAction: 'view',
  othersNeedGrant: true,
} as const satisfies FamilyAccess;

const caseKind = {
  kind: 'case',
  label: 'case',
  fieldLabels: CASE_FIELD_LABELS,
  table: 'cases',
  sqlTable: 'cases',
  record: caseRecordSchema,
  defaults: {
    ...CASE_FIELD_DEFAULTS,
    status: 'in_progress',
    completedAt: null,
  } as Partial<CaseRecord>,
  lww: true,
  humanId: { column: 'caseId', prefix: 'C' },
  access: CASE_ACCESS,
  lock: {
    isLocked: (row: Row) => row.status === 'completed',
    code: RejectionCode.CASE_LOCKED,
  },
  numericColumns: ['incidentLatitude', 'incidentLongitude', 'capillaryRefillTime'],
  updatedByColumn: 'updatedBy',
  device: { indexes: 'caseId, userId, status' },
} as const satisfies Omit<RecordDefinition<CaseRecord>, 'mutators'>;

/** Locks the case: afterwards only case.addendum is accepted. The device checks before it
 * sends; the server checks again on the case as it holds it, with the same rule. */
export const caseComplete = defineMutator({
  name: 'case.complete',
  label: 'Case completion',
  kind: 'case',
  args: z.strictObject({ id: uuidSchema, completedAt: timestampSchema }),
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.require('case', a.id, 'change');
    if (row.status === 'completed') return;
    const vitals = await tx.list('vitalSign', 'caseId', a.id);
    const problems = validateCaseForCompletion(
      row as Partial<CaseRecord>,
      vitals.map((v) => ({
        type: String(v.type),
        voidedAt: typeof v.voidedAt === 'string' ? v.voidedAt : null,
        deletedAt: typeof v.deletedAt === 'string' ? v.deletedAt : null,
      })),
    );
    if (problems.length > 0)
      throw new Rejection(
        RejectionCode.CASE_INCOMPLETE,
        `The case cannot be completed: ${problems.map((p) => p.message).join('; ')}.`,
        {
          id: a.id,
          problems: problems.map((p) => ({ field: p.field, step: p.step, message: p.message })),
        },
      );
    await tx.update('case', a.id, { status: 'completed', completedAt: a.completedAt });
    tx.note({ completedAt: a.completedAt });
  },
});

/** What a person did with a case's data, for the audit log (POPIA: every view, print, PDF and
 * export is auditable). Recorded on the device through the outbox, so access while offline
 * reaches the server's audit log too; it changes no record. A deleted case is still
 * recorded (the access happened); only a case the actor may not see is refused. */
export const CASE_ACCESS_ACTIONS = ['view', 'print', 'pdf', 'export'] as const;
export type CaseAccessAction = (typeof CASE_ACCESS_ACTIONS)[number];
export const caseAccess = defineMutator({
  name: 'case.access',
  label: 'Case access record',
  kind: 'case',
  accessRecord: true,
  args: z.strictObject({
    /** The access event's own id (idempotency). */
    id: uuidSchema,
    /** cases.id */
    caseId: uuidSchema,
    action: z.enum(CASE_ACCESS_ACTIONS),
    /** Where it happened, e.g. the screen ('case-completed') or the export format ('fhir-r4'). */
    detail: z.string().max(200).optional(),
  }),
  // Its own id only: recording a view must not mark the case as having unsynced changes.
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.get('case', a.caseId);
    if (!row) throw tx.notFound('case', a.caseId);
    tx.authorize('case', 'see', row);
    await tx.recordAccess({
      id: a.id,
      kind: 'case',
      recordId: a.caseId,
      action: a.action,
      detail: a.detail,
    });
  },
});

/**
 * Discards the author's own untouched case (untouched.ts): New Case left before anything was
 * written. A case that holds something by the time this arrives (another device wrote to it),
 * a completed one or someone else's is kept: the discard then does nothing.
 */
export const caseDiscard = defineMutator({
  name: 'case.discard',
  label: 'Empty case discarded',
  kind: 'case',
  args: z.strictObject({ id: uuidSchema }),
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.get('case', a.id);
    if (!row || (row.deletedAt !== null && row.deletedAt !== undefined)) return;
    if (row.userId !== tx.mutation.actorUserId) {
      throw new Rejection(
        RejectionCode.NOT_OWNER,
        "You cannot change another responder's record.",
        {
          id: a.id,
        },
      );
    }
    const readings = await tx.list('vitalSign', 'caseId', a.id);
    const addenda = await tx.list('caseAddendum', 'caseId', a.id);
    if (!caseHoldsNothing(row, { readings: readings.length, addenda: addenda.length })) {
      tx.note({ kept: true });
      return;
    }
    await tx.tombstone('case', a.id);
  },
});

export const caseUpsert = upsertMutator(caseKind, caseFieldsSchema);
export const caseDelete = deleteMutator(caseKind);

export const caseRecord = defineRecord({
  ...caseKind,
  mutators: [caseUpsert, caseComplete, caseDelete, caseAccess, caseDiscard],
});
