// Addenda: the only change a locked (completed) record accepts, for any kind that locks. An
// addendum is an append-only row of its own kind (`<kind>Addendum`, child of the record) with
// the reason, each corrected field's value before and after, and the author's name and call
// sign stamped by the side that applies it (the server from its users, decision 011). Its
// mutator applies each `after` to the record, judged against the `before` the author saw
// (docs/decisions/007). A kind's addendum file gives its field names, its fields schema and
// its parent; the shapes and the effect are here, written once (cases, incident reports).
import { z } from 'zod';
import '../zod-config';
import { definedValues } from './json';
import type { MutatorTx, Row } from './mutator';
import { validationRejection } from './registry';
import { Rejection, RejectionCode } from './rejections';
import { appendOnce } from './verbs';
import { jsonValueSchema, serverColumns, timestampSchema } from './values';

/** One corrected field: `{ field, before, after }`, the field one of the kind's. */
export function addendumChangeSchema<const F extends readonly [string, ...string[]]>(fields: F) {
  return z.strictObject({ field: z.enum(fields), before: jsonValueSchema, after: jsonValueSchema });
}

/** What the author writes (besides the id and the parent's id). */
export const addendumReasonSchema = z.string().trim().min(1, 'A reason is required').max(2000);
export const ADDENDUM_MAX_CHANGES = 200;

/** An addendum row's own columns, besides its id and its parent's id. */
export const addendumRecordColumns = {
  reason: z.string(),
  changes: z.array(
    z.object({ field: z.string(), before: jsonValueSchema, after: jsonValueSchema }),
  ),
  userId: z.number().int(),
  /**
   * The author's full name and call sign when the server applied the addendum, stamped by the
   * server from its users (never taken from the device); a device fills them for its own
   * pending addendum from the signed-in user (decision 011). Null when the author is known by
   * user id only.
   */
  authorName: z.string().nullable().default(null),
  authorCallSign: z.string().nullable().default(null),
  createdAt: timestampSchema,
  ...serverColumns,
};

export const ADDENDUM_DEFAULTS = { authorName: null, authorCallSign: null } as const;

interface AddendumChange {
  field: string;
  before: z.core.util.JSONType;
  after: z.core.util.JSONType;
}

/** How one kind's addenda apply: its parent kind and column, and the fields schema. */
export interface AddendumSpec {
  /** The addendum kind, e.g. 'caseAddendum'. */
  kind: string;
  /** The locked record's kind, e.g. 'case'. */
  parentKind: string;
  /** The addendum's column naming the record, e.g. 'caseId'. */
  parentColumn: string;
  /** The record's fields schema (its upsert's): the `after` values are checked with it. */
  fields: z.ZodObject;
  /** Whether the record is in the state addenda correct (completed). */
  isLocked(row: Row): boolean;
  /** The refusal when it is not, e.g. 'An addendum corrects a completed case; …'. */
  notLockedMessage: string;
  /** A check of the record as the addendum leaves it (e.g. a type's data), throwing a Rejection. */
  checkResult?: (row: Row) => void;
}

/** The changes' `after` values as record fields, checked like the record's upsert fields. */
function addendumValues(spec: AddendumSpec, changes: readonly AddendumChange[]): Row {
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
  const parsed = spec.fields
    .partial()
    .safeParse(Object.fromEntries(changes.map((c) => [c.field, c.after])));
  if (!parsed.success) throw validationRejection(parsed.error);
  return definedValues(parsed.data as Row);
}

/**
 * Appends the addendum row (its before/after pairs are the history) and applies each
 * change's `after` to the record. A locked record only: one still in progress is edited
 * directly. When a field no longer holds the `before` the author saw and another person wrote
 * it last, the correction is still applied (it is the later write) and both values are kept as
 * a conflict, as last write wins does.
 */
export async function applyAddendum(
  tx: MutatorTx,
  spec: AddendumSpec,
  a: { id: string; parentId: string; reason: string; changes: readonly AddendumChange[] },
): Promise<void> {
  const record = await tx.require(spec.parentKind, a.parentId, 'change');
  if (!spec.isLocked(record))
    throw new Rejection(RejectionCode.INVALID_STATE, spec.notLockedMessage, {
      [spec.parentColumn]: a.parentId,
    });
  const content = { [spec.parentColumn]: a.parentId, reason: a.reason, changes: a.changes };
  if ((await appendOnce(tx, spec.kind, a.id, content)) === 'exists') return;
  const values = addendumValues(spec, a.changes);
  spec.checkResult?.({ ...record, ...values });
  const author = await tx.author(tx.mutation.actorUserId);
  await tx.insert(spec.kind, {
    id: a.id,
    ...content,
    authorName: author?.fullName ?? null,
    authorCallSign: author?.callSign ?? null,
  });
  const before = Object.fromEntries(a.changes.map((change) => [change.field, change.before]));
  const { changed } = await tx.update(spec.parentKind, a.parentId, values, { before });
  tx.note({
    [spec.parentColumn]: a.parentId,
    reason: a.reason,
    fields: a.changes.map((change) => change.field),
    applied: changed,
  });
}

/** The args of `<parent>.addendum` after its id and the record's: the reason and the changes. */
export function addendumInputShape<const F extends readonly [string, ...string[]]>(fields: F) {
  return {
    reason: addendumReasonSchema,
    changes: z.array(addendumChangeSchema(fields)).max(ADDENDUM_MAX_CHANGES).default([]),
  };
}
