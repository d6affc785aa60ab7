// mciTriage: one row per triage of a casualty, append-only (decision 071). The tagging is
// the first row, every re-triage another; each names the rows it was made on top of, so two
// responders re-triaging the same casualty offline leave two heads, which the board shows
// as a disagreement (triage.ts triageState) instead of one silently replacing the other.
import { z } from 'zod';
import '../zod-config';
import { triageColourSchema } from '../cases/clinical';
import { requireOpenIncident } from './mci-casualty';
import { MCI_ACCESS } from './mci-incident';
import { TRIAGE_METHODS } from './triage';
import { nShort } from '../platform/field-types';
import { defineMutator } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { Rejection, RejectionCode } from '../platform/rejections';
import { appendOnce } from '../platform/verbs';
import { serverColumns, timestampSchema, uuidSchema } from '../platform/values';

const answersSchema = z.record(z.string().max(40), z.string().max(40));

export const mciTriageInputSchema = z.strictObject({
  id: uuidSchema,
  mciIncidentId: uuidSchema,
  mciCasualtyId: uuidSchema,
  colour: triageColourSchema,
  method: z.enum(TRIAGE_METHODS),
  /** What START/JumpSTART proposed; a colour that differs is the responder's override. */
  proposedColour: triageColourSchema.nullable().default(null),
  answers: answersSchema.default({}),
  previousTriageIds: z.array(uuidSchema).max(50).default([]),
  triagedAt: timestampSchema,
});

export const mciTriageRecordSchema = z.object({
  id: uuidSchema,
  mciIncidentId: uuidSchema,
  mciCasualtyId: uuidSchema,
  colour: triageColourSchema,
  method: z.enum(TRIAGE_METHODS),
  proposedColour: triageColourSchema.nullable(),
  answers: answersSchema,
  previousTriageIds: z.array(uuidSchema),
  triagedAt: timestampSchema,
  /** Who triaged, as the server knows them (stamped like an addendum's author). */
  responderName: nShort,
  userId: z.number().int(),
  createdAt: timestampSchema,
  ...serverColumns,
});
export type MciTriageRecord = z.output<typeof mciTriageRecordSchema>;

export const mciTriageRecordMutator = defineMutator({
  name: 'mciTriage.record',
  label: 'Triage',
  kind: 'mciTriage',
  args: mciTriageInputSchema,
  entityIds: (a) => [a.id, a.mciCasualtyId, a.mciIncidentId],
  async apply(tx, a) {
    tx.authorize('mciTriage', 'create');
    const content = {
      mciIncidentId: a.mciIncidentId,
      mciCasualtyId: a.mciCasualtyId,
      colour: a.colour,
      method: a.method,
      proposedColour: a.proposedColour,
      previousTriageIds: a.previousTriageIds,
    };
    if ((await appendOnce(tx, 'mciTriage', a.id, content)) === 'exists') return;
    await requireOpenIncident(tx, a.mciIncidentId);
    const casualty = await tx.require('mciCasualty', a.mciCasualtyId);
    if (casualty.mciIncidentId !== a.mciIncidentId)
      throw new Rejection(
        RejectionCode.VALIDATION_FAILED,
        'The casualty belongs to another incident.',
        { id: a.id, reason: 'CASUALTY_OF_OTHER_INCIDENT' },
      );
    const author = await tx.author(tx.mutation.actorUserId);
    await tx.insert('mciTriage', {
      id: a.id,
      ...content,
      answers: a.answers,
      triagedAt: a.triagedAt,
      responderName: author?.fullName ?? null,
    });
    if (a.proposedColour !== null && a.proposedColour !== a.colour)
      tx.note({ override: true, proposedColour: a.proposedColour, colour: a.colour });
  },
});

export const mciTriageRecord = defineRecord({
  kind: 'mciTriage',
  label: 'triage',
  table: 'mciTriages',
  sqlTable: 'mci_triages',
  record: mciTriageRecordSchema,
  defaults: { proposedColour: null, answers: {}, previousTriageIds: [], responderName: null },
  lww: false,
  parent: { kind: 'mciIncident', column: 'mciIncidentId' },
  access: MCI_ACCESS,
  sinceSchemaVersion: 8,
  device: { indexes: 'mciIncidentId, mciCasualtyId' },
  mutators: [mciTriageRecordMutator],
});
