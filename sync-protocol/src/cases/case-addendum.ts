// caseAddendum: the only change a completed case accepts
import { z } from 'zod';
import '../zod-config';
import { CASE_FIELDS, caseFieldsSchema, type CaseField } from './case-schema';
import {
  ADDENDUM_DEFAULTS,
  addendumChangeSchema,
  addendumInputShape,
  addendumRecordColumns,
  applyAddendum,
  type AddendumSpec,
} from '../platform/addendum';
import { defineMutator } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { uuidSchema } from '../platform/values';

const CASE_FIELD_NAMES = CASE_FIELDS as [CaseField, ...CaseField[]];

export const caseAddendumChangeSchema = addendumChangeSchema(CASE_FIELD_NAMES);

export const caseAddendumInputSchema = z.strictObject({
  id: uuidSchema,
  /** cases.id */
  caseId: uuidSchema,
  ...addendumInputShape(CASE_FIELD_NAMES),
});

export const caseAddendumRecordSchema = z.object({
  id: uuidSchema,
  caseId: uuidSchema,
  ...addendumRecordColumns,
});
export type CaseAddendumRecord = z.output<typeof caseAddendumRecordSchema>;

// ---------------------------------------------------------------------------------------
// The definition and its mutation (the effect: platform/addendum.ts)
// ---------------------------------------------------------------------------------------

const CASE_ADDENDUM: AddendumSpec = {
  kind: 'caseAddendum',
  parentKind: 'case',
  parentColumn: 'caseId',
  fields: caseFieldsSchema,
  isLocked: (row) => row.status === 'completed',
  notLockedMessage:
    'An addendum corrects a completed case; this case is still in progress, so change the fields directly.',
};

/** A correction to a completed case (docs/decisions/007, 011): platform/addendum.ts. */
export const caseAddendumMutator = defineMutator({
  name: 'case.addendum',
  label: 'Case addendum',
  kind: 'caseAddendum',
  args: caseAddendumInputSchema,
  entityIds: (a) => [a.id, a.caseId],
  creates: true,
  apply: (tx, a) =>
    applyAddendum(tx, CASE_ADDENDUM, {
      id: a.id,
      parentId: a.caseId,
      reason: a.reason,
      changes: a.changes,
    }),
});

export const caseAddendumRecord = defineRecord({
  kind: 'caseAddendum',
  label: 'addendum',
  table: 'caseAddenda',
  sqlTable: 'case_addenda',
  record: caseAddendumRecordSchema,
  defaults: ADDENDUM_DEFAULTS,
  lww: false,
  parent: { kind: 'case', column: 'caseId' },
  sinceSchemaVersion: 1,
  device: { indexes: 'caseId' },
  mutators: [caseAddendumMutator],
});
