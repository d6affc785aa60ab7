// mciCasualty: one row per casualty, so several responders triage at once. Its colour is
// the one it was tagged with; every triage after that (and the tagging itself) is an
// mciTriage row (mci-triage.ts), so a re-triage never overwrites one in place (decision 071).
import { z } from 'zod';
import '../zod-config';
import { triageColourSchema } from '../cases/clinical';
import { MCI_ACCESS, incidentClosedRejection, isIncidentClosed } from './mci-incident';
import { tagKey } from './triage';
import { nShort, nLong, nTime } from '../platform/field-types';
import { definedValues } from '../platform/json';
import { defineMutator, type MutatorTx, type Row } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { Rejection, REJECTION_MESSAGES, RejectionCode } from '../platform/rejections';
import { assertWritable } from '../platform/verbs';
import { ownedRecordSchema, uuidSchema } from '../platform/values';

const mciCasualtyFieldShape = {
  tagNumber: z.string().trim().min(1).max(50),
  /** The colour the casualty was tagged with; the current one is its newest triage row. */
  triageColour: triageColourSchema,
  description: nLong,
  /** Where on scene (e.g. "bus, row 4", "casualty clearing station"). */
  location: nShort,
  /** Link to a full patient case (cases.id). */
  caseId: uuidSchema.nullable(),
  transportDestination: nShort,
  transported: z.boolean(),
  /** Departure time from scene. */
  transportedAt: nTime,
  // SCHEMA_VERSION 8
  /** The responder (name or call sign) who treats the casualty on scene. */
  assignedTo: nShort,
  /** The ambulance (call sign or registration) that took the casualty. */
  ambulance: nShort,
};
/** What a change may write: not the tag (a new tag is a new casualty) nor the colour (a
 * re-triage is an mciTriage row). */
export const mciCasualtyFieldsSchema = z
  .strictObject(mciCasualtyFieldShape)
  .omit({ tagNumber: true, triageColour: true })
  .partial();

export const mciCasualtyInputSchema = z.strictObject({
  id: uuidSchema,
  mciIncidentId: uuidSchema,
  tagNumber: mciCasualtyFieldShape.tagNumber,
  triageColour: triageColourSchema,
  description: nLong.default(null),
  location: nShort.default(null),
  caseId: uuidSchema.nullable().default(null),
  transportDestination: nShort.default(null),
  assignedTo: nShort.default(null),
});

export const mciCasualtyRecordSchema = ownedRecordSchema({
  mciIncidentId: uuidSchema,
  ...mciCasualtyFieldShape,
});
export type MciCasualtyRecord = z.output<typeof mciCasualtyRecordSchema>;

/** The incident a casualty change is about, which must exist and be open. */
export async function requireOpenIncident(tx: MutatorTx, id: string): Promise<Row> {
  const incident = await tx.require('mciIncident', id);
  if (isIncidentClosed(incident)) throw incidentClosedRejection(id);
  return incident;
}

export function duplicateTagRejection(tagNumber: string): Rejection {
  return new Rejection(
    RejectionCode.HUMAN_ID_COLLISION,
    `Tag ${tagNumber} is already used in this incident.`,
    { tagNumber, reason: 'DUPLICATE_TAG' },
  );
}

// ---------------------------------------------------------------------------------------
// The definition and its mutations
// ---------------------------------------------------------------------------------------

/** Adds a casualty. Anyone who may triage adds casualties to any open incident: several
 * responders triage at once. A tag number is used once per incident. A replay of the same
 * casualty is fine; later changes go through update. */
export const mciCasualtyRecordMutator = defineMutator({
  name: 'mciCasualty.record',
  label: 'Casualty',
  kind: 'mciCasualty',
  args: mciCasualtyInputSchema,
  entityIds: (a) => [a.id, a.mciIncidentId],
  creates: true,
  async apply(tx, a) {
    tx.authorize('mciCasualty', 'create');
    const existing = await tx.get('mciCasualty', a.id);
    if (existing) {
      if (existing.mciIncidentId !== a.mciIncidentId || existing.tagNumber !== a.tagNumber)
        throw new Rejection(RejectionCode.APPEND_ONLY, REJECTION_MESSAGES.APPEND_ONLY, {
          id: a.id,
        });
      return;
    }
    await requireOpenIncident(tx, a.mciIncidentId);
    const others = await tx.list('mciCasualty', 'mciIncidentId', a.mciIncidentId);
    const key = tagKey(a.tagNumber);
    if (
      others.some(
        (o) => !o.deletedAt && typeof o.tagNumber === 'string' && tagKey(o.tagNumber) === key,
      )
    )
      throw duplicateTagRejection(a.tagNumber);
    await tx.insert('mciCasualty', {
      ...a,
      transported: false,
      transportedAt: null,
      ambulance: null,
    });
  },
});

/** Assignment, description, location, case link and transport: per field, last write wins
 * (two responders' edits of different fields both stay). Refused once the incident is closed. */
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
    await requireOpenIncident(tx, String(row.mciIncidentId));
    await tx.update('mciCasualty', a.id, definedValues(a.fields));
  },
});

export const mciCasualtyRecord = defineRecord({
  kind: 'mciCasualty',
  label: 'casualty',
  fieldLabels: {
    description: 'Description',
    location: 'Location on scene',
    assignedTo: 'Assigned to',
    caseId: 'Patient case',
    transportDestination: 'Destination hospital',
    transported: 'Transported',
    transportedAt: 'Departure time',
    ambulance: 'Ambulance',
  },
  table: 'mciCasualties',
  sqlTable: 'mci_casualties',
  record: mciCasualtyRecordSchema,
  defaults: { transported: false, transportedAt: null, assignedTo: null, ambulance: null },
  lww: true,
  parent: { kind: 'mciIncident', column: 'mciIncidentId' },
  access: {
    ...MCI_ACCESS,
    // Whoever triages at an incident may assign, link and transport any casualty of it
    // (decision 072); the incident's METHANE report and its close stay with its owner and
    // whoever holds multiPatient edit.
    changeAnyWith: ['multiPatient', 'create'],
  },
  device: { indexes: 'mciIncidentId, caseId' },
  mutators: [mciCasualtyRecordMutator, mciCasualtyUpdate],
});
