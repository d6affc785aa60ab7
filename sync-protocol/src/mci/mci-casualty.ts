// mciCasualty: one row per casualty, so two responders can triage at once
import { z } from 'zod';
import '../zod-config';
import { triageColourSchema } from '../cases/clinical';
import { MCI_ACCESS } from './mci-incident';
import { nShort, nLong, nTime } from '../platform/field-types';
import { definedValues } from '../platform/json';
import { defineMutator } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { Rejection, REJECTION_MESSAGES, RejectionCode } from '../platform/rejections';
import { assertWritable } from '../platform/verbs';
import { ownedRecordSchema, uuidSchema } from '../platform/values';

const mciCasualtyFieldShape = {
  tagNumber: z.string().min(1).max(50),
  triageColour: triageColourSchema,
  description: nLong,
  location: nShort,
  /** Link to a full patient case (cases.id). */
  caseId: uuidSchema.nullable(),
  transportDestination: nShort,
  transported: z.boolean(),
  transportedAt: nTime,
};
export const mciCasualtyFieldsSchema = z.strictObject(mciCasualtyFieldShape).partial();

export const mciCasualtyInputSchema = z.strictObject({
  id: uuidSchema,
  mciIncidentId: uuidSchema,
  tagNumber: mciCasualtyFieldShape.tagNumber,
  triageColour: triageColourSchema,
  description: nLong.default(null),
  location: nShort.default(null),
  caseId: uuidSchema.nullable().default(null),
  transportDestination: nShort.default(null),
});

export const mciCasualtyRecordSchema = ownedRecordSchema({
  mciIncidentId: uuidSchema,
  ...mciCasualtyFieldShape,
});
export type MciCasualtyRecord = z.output<typeof mciCasualtyRecordSchema>;

// ---------------------------------------------------------------------------------------
// The definition and its mutations
// ---------------------------------------------------------------------------------------

/** Adds a casualty. Anyone who may triage adds casualties to any incident: two responders
 * triage at once. A replay of the same casualty is fine; later changes go through update. */
export const mciCasualtyRecordMutator = defineMutator({
  name: 'mciCasualty.record',
  label: 'Casualty',
  kind: 'mciCasualty',
  args: mciCasualtyInputSchema,
  entityIds: (a) => [a.id, a.mciIncidentId],
  creates: true,
  async apply(tx, a) {
    await tx.require('mciIncident', a.mciIncidentId);
    tx.authorize('mciCasualty', 'create');
    const existing = await tx.get('mciCasualty', a.id);
    if (existing) {
      if (existing.mciIncidentId !== a.mciIncidentId)
        throw new Rejection(RejectionCode.APPEND_ONLY, REJECTION_MESSAGES.APPEND_ONLY, {
          id: a.id,
        });
      return;
    }
    await tx.insert('mciCasualty', { ...a, transported: false, transportedAt: null });
  },
});

/** Retriage, transport: per field, last write wins. */
export const mciCasualtyUpdate = defineMutator({
  name: 'mciCasualty.update',
  label: 'Casualty changes',
  kind: 'mciCasualty',
  args: z.strictObject({ id: uuidSchema, fields: mciCasualtyFieldsSchema }),
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.get('mciCasualty', a.id);
    if (!row) throw tx.notFound('mciCasualty', a.id);
    tx.authorize('mciCasualty', 'change', row);
    assertWritable({}, row);
    await tx.update('mciCasualty', a.id, definedValues(a.fields));
  },
});

export const mciCasualtyRecord = defineRecord({
  kind: 'mciCasualty',
  label: 'casualty',
  table: 'mciCasualties',
  sqlTable: 'mci_casualties',
  record: mciCasualtyRecordSchema,
  defaults: { transported: false, transportedAt: null },
  lww: true,
  parent: { kind: 'mciIncident', column: 'mciIncidentId' },
  access: {
    ...MCI_ACCESS,
    // At an incident, whoever commands or treats may retriage or transport any casualty.
    changeAnyWith: ['multiPatient', 'edit'],
  },
  device: { indexes: 'mciIncidentId, caseId' },
  mutators: [mciCasualtyRecordMutator, mciCasualtyUpdate],
});
