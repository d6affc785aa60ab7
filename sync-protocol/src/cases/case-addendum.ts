// caseAddendum: the only change a completed case accepts
import { z } from 'zod';
import '../zod-config';
import { CASE_FIELDS, caseFieldsSchema, type CaseField } from './case-schema';
import { definedValues } from '../platform/json';
import { defineMutator, type Row } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { validationRejection } from '../platform/registry';
import { Rejection, RejectionCode } from '../platform/rejections';
import { appendOnce } from '../platform/verbs';
import { jsonValueSchema, timestampSchema, uuidSchema, serverColumns } from '../platform/values';

const caseFieldNameSchema = z.enum(CASE_FIELDS as [CaseField, ...CaseField[]]);

export const caseAddendumChangeSchema = z.strictObject({
  field: caseFieldNameSchema,
  before: jsonValueSchema,
  after: jsonValueSchema,
});

export const caseAddendumInputSchema = z.strictObject({
  id: uuidSchema,
  /** cases.id */
  caseId: uuidSchema,
  reason: z.string().trim().min(1, 'A reason is required').max(2000),
  changes: z.array(caseAddendumChangeSchema).max(200).default([]),
});

export const caseAddendumRecordSchema = z.object({
  id: uuidSchema,
  caseId: uuidSchema,
  reason: z.string(),
  changes: z.array(
    z.object({ field: z.string(), before: jsonValueSchema, after: jsonValueSchema }),
  ),
  userId: z.number().int(),
  /**
   * The author's full name and call sign when the server applied the addendum, stamped by the
   * server from its users (never taken from the device); a device fills them for its own
   * pending addendum from the signed-in user (decision 011). Null on addenda from before
   * schema version 2, and absent from an older server's answers: the author is then known by
   * user id only.
   */
  authorName: z.string().nullable().default(null),
  authorCallSign: z.string().nullable().default(null),
  createdAt: timestampSchema,
  ...serverColumns,
});
export type CaseAddendumRecord = z.output<typeof caseAddendumRecordSchema>;

// ---------------------------------------------------------------------------------------
// The definition and its mutation
// ---------------------------------------------------------------------------------------

type AddendumChange = z.output<typeof caseAddendumChangeSchema>;

/** The changes' `after` values as case fields, checked like case.upsert's fields. */
function addendumValues(changes: readonly AddendumChange[]): Row {
  const seen = new Set<string>();
  for (const change of changes) {
    if (seen.has(change.field))
      throw new Rejection(
        RejectionCode.VALIDATION_FAILED,
        `changes: ${change.field} appears more than once; list each field once.`,
        { field: change.field },
      );
    seen.add(change.field);
  }
  const parsed = caseFieldsSchema.safeParse(
    Object.fromEntries(changes.map((c) => [c.field, c.after])),
  );
  if (!parsed.success) throw validationRejection(parsed.error);
  return definedValues(parsed.data as Row);
}

/**
 * Appends the addendum row (its before/after pairs are the history) and applies each change's
 * `after` to the case (docs/decisions/007). A completed case only: an in-progress case is
 * edited directly. When a field no longer holds the `before` the author saw and another
 * person wrote it last, the correction is still applied (it is the later write) and both
 * values are kept as a conflict, as last write wins does. The signature (author's name and
 * call sign) is stamped from the server's users, never taken from the device (decision 011).
 */
export const caseAddendumMutator = defineMutator({
  name: 'case.addendum',
  label: 'Case addendum',
  kind: 'caseAddendum',
  args: caseAddendumInputSchema,
  entityIds: (a) => [a.id, a.caseId],
  creates: true,
  async apply(tx, a) {
    const c = await tx.require('case', a.caseId, 'change');
    if (c.status !== 'completed')
      throw new Rejection(
        RejectionCode.INVALID_STATE,
        'An addendum corrects a completed case; this case is still in progress, so change the fields directly.',
        { caseId: a.caseId },
      );
    const content = { caseId: a.caseId, reason: a.reason, changes: a.changes };
    if ((await appendOnce(tx, 'caseAddendum', a.id, content)) === 'exists') return;
    const values = addendumValues(a.changes);
    const author = await tx.author(tx.mutation.actorUserId);
    await tx.insert('caseAddendum', {
      id: a.id,
      ...content,
      authorName: author?.fullName ?? null,
      authorCallSign: author?.callSign ?? null,
    });
    const before = Object.fromEntries(a.changes.map((change) => [change.field, change.before]));
    const { changed } = await tx.update('case', a.caseId, values, { before });
    tx.note({
      caseId: a.caseId,
      reason: a.reason,
      fields: a.changes.map((change) => change.field),
      applied: changed,
    });
  },
});

export const caseAddendumRecord = defineRecord({
  kind: 'caseAddendum',
  label: 'addendum',
  table: 'caseAddenda',
  sqlTable: 'case_addenda',
  record: caseAddendumRecordSchema,
  defaults: { authorName: null, authorCallSign: null },
  lww: false,
  parent: { kind: 'case', column: 'caseId' },
  sinceSchemaVersion: 1,
  device: { indexes: 'caseId' },
  mutators: [caseAddendumMutator],
});
