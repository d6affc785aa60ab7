// vitalSign: append-only; corrections void the row and add a new one
import { z } from 'zod';
import '../zod-config';
import { VITAL_SIGN_STATUSES, vitalSignTypeSchema } from './clinical';
import { defineMutator, type MutatorTx, type Row } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { Rejection, REJECTION_MESSAGES, RejectionCode } from '../platform/rejections';
import { appendOnce } from '../platform/verbs';
import { nLong, nTime } from '../platform/field-types';
import { measurementSchema, timestampSchema, uuidSchema, serverColumns } from '../platform/values';

export const vitalSignInputSchema = z.strictObject({
  id: uuidSchema,
  /** cases.id (uuid) */
  caseId: uuidSchema,
  type: vitalSignTypeSchema,
  /** As charted, e.g. '120/80' for blood pressure, 'T' never for GCS (use the numbers). */
  value: z.string().min(1).max(50),
  numericValue: measurementSchema.nullable().default(null),
  status: z.enum(VITAL_SIGN_STATUSES).nullable().default(null),
  timestamp: timestampSchema,
  notes: nLong.default(null),
});

export const vitalSignRecordSchema = z.object({
  id: uuidSchema,
  caseId: uuidSchema,
  type: vitalSignTypeSchema,
  value: z.string(),
  numericValue: z.number().nullable(),
  status: z.enum(VITAL_SIGN_STATUSES).nullable(),
  timestamp: timestampSchema,
  notes: z.string().nullable(),
  voidedAt: nTime,
  voidReason: z.string().nullable(),
  userId: z.number().int(),
  createdAt: timestampSchema,
  ...serverColumns,
});
export type VitalSignRecord = z.output<typeof vitalSignRecordSchema>;

// ---------------------------------------------------------------------------------------
// The definition and its mutations
// ---------------------------------------------------------------------------------------

const reason = z.string().trim().min(1, 'A reason is required').max(2000);

/** The case a reading is added to or voided on: it must be open, and the actor may change it. */
async function openCase(tx: MutatorTx, caseId: string): Promise<Row> {
  const row = await tx.require('case', caseId, 'change');
  if (row.status === 'completed')
    throw new Rejection(RejectionCode.CASE_LOCKED, REJECTION_MESSAGES.CASE_LOCKED, { id: caseId });
  return row;
}

export const vitalSignRecordMutator = defineMutator({
  name: 'vitalSign.record',
  label: 'Vital sign',
  kind: 'vitalSign',
  args: vitalSignInputSchema,
  entityIds: (a) => [a.id, a.caseId],
  creates: true,
  async apply(tx, a) {
    await openCase(tx, a.caseId);
    const { id, ...content } = a;
    if ((await appendOnce(tx, 'vitalSign', id, content)) === 'exists') return;
    await tx.insert('vitalSign', { id, ...content, voidedAt: null, voidReason: null });
    tx.note({ type: a.type });
  },
});

/** Voids a reading (it stays, struck through, with the reason); a new one is recorded instead. */
export const vitalSignVoid = defineMutator({
  name: 'vitalSign.void',
  label: 'Vital sign correction',
  kind: 'vitalSign',
  args: z.strictObject({ id: uuidSchema, reason, caseId: uuidSchema.optional() }),
  entityIds: (a) => (a.caseId ? [a.id, a.caseId] : [a.id]),
  async apply(tx, a) {
    const vital = await tx.require('vitalSign', a.id);
    await openCase(tx, String(vital.caseId));
    if (vital.voidedAt !== null && vital.voidedAt !== undefined) return;
    await tx.update('vitalSign', a.id, { voidedAt: tx.mutation.clientTime, voidReason: a.reason });
    tx.note({ caseId: String(vital.caseId), voided: true });
  },
});

export const vitalSignRecord = defineRecord({
  kind: 'vitalSign',
  label: 'vital sign',
  table: 'vitalSigns',
  sqlTable: 'vital_signs',
  record: vitalSignRecordSchema,
  defaults: { voidedAt: null, voidReason: null },
  lww: false,
  parent: { kind: 'case', column: 'caseId' },
  numericColumns: ['numericValue'],
  device: { indexes: 'caseId' },
  mutators: [vitalSignRecordMutator, vitalSignVoid],
});
