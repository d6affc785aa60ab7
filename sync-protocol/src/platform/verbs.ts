// The mutators most kinds share, built from a definition: upsert (create, or change the
// given fields, last write wins per field) and delete (tombstone); and appendOnce for
// append-only rows. Kinds with more to say (complete a case, void a reading) write their
// own mutators beside these in their definition file.
import { z } from 'zod';
import '../zod-config';
import { humanIdSchema } from './human-id';
import { definedValues, sameValue } from './json';
import { defineMutator, type MutatorTx, type Row } from './mutator';
import type { RecordDefinition } from './record';
import { Rejection, REJECTION_MESSAGES, RejectionCode } from './rejections';
import { uuidSchema } from './values';

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Refuses a change to a locked (e.g. completed) or deleted record. */
export function assertWritable(def: Pick<RecordDefinition, 'lock'>, row: Row): void {
  const id = String(row.id);
  if (row.deletedAt !== null && row.deletedAt !== undefined)
    throw new Rejection(RejectionCode.DELETED, REJECTION_MESSAGES.DELETED, { id });
  if (def.lock?.isLocked(row))
    throw new Rejection(def.lock.code, REJECTION_MESSAGES[def.lock.code], { id });
}

/** A new record's checks: its number, and the fields it cannot exist without. */
export function assertNewRecord(
  def: Pick<RecordDefinition, 'humanId'>,
  requiredOnCreate: readonly string[],
  id: string,
  humanId: string | undefined,
  fields: Row,
): void {
  if (def.humanId && humanId === undefined)
    throw new Rejection(RejectionCode.HUMAN_ID_MISMATCH, 'A new record needs its number.', { id });
  const missing = requiredOnCreate.filter((f) => fields[f] === undefined || fields[f] === null);
  if (missing.length > 0)
    throw new Rejection(
      RejectionCode.MISSING_REQUIRED_FIELD,
      `A new record needs ${missing.join(', ')}.`,
      { fields: missing },
    );
}

/**
 * `<kind>.upsert { id, humanId?, fields }`: the first upsert of an id creates the record and
 * must carry its number (if the kind has one); later ones change only the fields given.
 */
export function upsertMutator<const K extends string, F extends z.ZodObject>(
  def: Omit<RecordDefinition, 'mutators'> & { kind: K },
  fields: F,
  options: {
    requiredOnCreate?: readonly string[];
    /**
     * A check of the record as the change leaves it (fields that depend on each other, e.g.
     * an incident report's type and its type's data), throwing a Rejection. Runs on the
     * device and on the server, after the rights and lock checks.
     */
    checkResult?: (row: Row) => void;
  } = {},
) {
  const args = z.strictObject({
    id: uuidSchema,
    ...(def.humanId ? { humanId: humanIdSchema(def.humanId.prefix).optional() } : {}),
    fields: fields.partial(),
  }) as unknown as z.ZodObject<{
    id: typeof uuidSchema;
    humanId: z.ZodOptional<z.ZodString>;
    fields: z.ZodObject;
  }>;
  return defineMutator({
    name: `${def.kind}.upsert` as `${K}.upsert`,
    label: `${capitalise(def.label)} changes`,
    kind: def.kind,
    // The fields are partial (an upsert names only the fields it changes): typed so.
    args: args as unknown as z.ZodType<
      { id: string; humanId?: string | undefined; fields: Partial<z.output<F>> },
      { id: string; humanId?: string | undefined; fields: Partial<z.input<F>> }
    >,
    entityIds: (a) => [a.id],
    creates: true,
    async apply(tx: MutatorTx, a) {
      const values = definedValues(a.fields as Row);
      const existing = await tx.get(def.kind, a.id);
      if (!existing) {
        assertNewRecord(def, options.requiredOnCreate ?? [], a.id, a.humanId, values);
        tx.authorize(def.kind, 'create');
        options.checkResult?.({ ...def.defaults, ...values });
        await tx.insert(def.kind, {
          ...values,
          id: a.id,
          ...(def.humanId && a.humanId ? { [def.humanId.column]: a.humanId } : {}),
        });
        return;
      }
      // Rights first: someone who may not change it learns nothing about its state.
      tx.authorize(def.kind, 'change', existing);
      if (def.humanId && a.humanId !== undefined && existing[def.humanId.column] !== a.humanId)
        throw new Rejection(RejectionCode.HUMAN_ID_MISMATCH, REJECTION_MESSAGES.HUMAN_ID_MISMATCH, {
          id: a.id,
          humanId: a.humanId,
          serverHumanId: String(existing[def.humanId.column]),
        });
      assertWritable(def, existing);
      options.checkResult?.({ ...existing, ...values });
      await tx.update(def.kind, a.id, values);
    },
  });
}

/** `<kind>.delete { id }`: a tombstone; a locked record cannot be deleted. */
export function deleteMutator<const K extends string>(
  def: Omit<RecordDefinition, 'mutators'> & { kind: K },
) {
  return defineMutator({
    name: `${def.kind}.delete` as `${K}.delete`,
    label: `${capitalise(def.label)} deletion`,
    kind: def.kind,
    args: z.strictObject({ id: uuidSchema }),
    entityIds: (a) => [a.id],
    async apply(tx, a) {
      const row = await tx.get(def.kind, a.id);
      if (!row) throw tx.notFound(def.kind, a.id);
      tx.authorize(def.kind, 'delete', row);
      if (row.deletedAt !== null && row.deletedAt !== undefined) return;
      assertWritable(def, row);
      await tx.tombstone(def.kind, a.id);
    },
  });
}

/**
 * Append-only rows: a replayed create with the same content is fine ('exists': nothing to
 * do); reusing an id for other content is refused.
 */
export async function appendOnce(
  tx: MutatorTx,
  kind: string,
  id: string,
  content: Row,
): Promise<'exists' | 'new'> {
  const existing = await tx.get(kind, id);
  if (!existing) return 'new';
  const same = Object.entries(content).every(([k, v]) => sameValue(existing[k], v));
  if (!same) throw new Rejection(RejectionCode.APPEND_ONLY, REJECTION_MESSAGES.APPEND_ONLY, { id });
  return 'exists';
}
