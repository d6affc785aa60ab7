// cprEvent: append-only; a correction is a 'void' event naming the wrong one
import { z } from 'zod';
import '../zod-config';
import { CPR_ACCESS_ROUTES, CPR_AIRWAYS, CPR_RHYTHMS, cprEventKindSchema } from '../cases/clinical';
import { asJson } from '../platform/json';
import { defineMutator, type MutatorTx } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { Rejection, RejectionCode } from '../platform/rejections';
import { appendOnce } from '../platform/verbs';
import { jsonObjectSchema, timestampSchema, uuidSchema, serverColumns } from '../platform/values';

export const cprEventDetailsSchema = z.strictObject({
  rhythm: z.enum(CPR_RHYTHMS).optional(),
  /** Shock energy in joules. */
  energyJoules: z.number().min(0).max(1000).optional(),
  doseMg: z.number().min(0).max(10_000).optional(),
  airway: z.enum(CPR_AIRWAYS).optional(),
  access: z.enum(CPR_ACCESS_ROUTES).optional(),
  /** Termination reason, void reason or a note's text. */
  reason: z.string().max(2000).optional(),
  note: z.string().max(5000).optional(),
});

export const cprEventInputSchema = z.strictObject({
  id: uuidSchema,
  cprSessionId: uuidSchema,
  type: cprEventKindSchema.exclude(['void']),
  at: timestampSchema,
  details: cprEventDetailsSchema.default({}),
});

export const cprEventRecordSchema = z.object({
  id: uuidSchema,
  cprSessionId: uuidSchema,
  type: cprEventKindSchema,
  at: timestampSchema,
  details: jsonObjectSchema,
  voidsEventId: uuidSchema.nullable(),
  userId: z.number().int(),
  createdAt: timestampSchema,
  ...serverColumns,
});
export type CprEventRecord = z.output<typeof cprEventRecordSchema>;

// ---------------------------------------------------------------------------------------
// The definition and its mutations
// ---------------------------------------------------------------------------------------

type CprEventContent = {
  cprSessionId: string;
  type: string;
  at: string;
  details: Record<string, unknown>;
  voidsEventId: string | null;
};

async function appendEvent(tx: MutatorTx, id: string, content: CprEventContent): Promise<void> {
  await tx.require('cprSession', content.cprSessionId, 'change');
  if ((await appendOnce(tx, 'cprEvent', id, content)) === 'exists') return;
  await tx.insert('cprEvent', { id, ...content });
  tx.note({ type: content.type });
}

export const cprEventRecordMutator = defineMutator({
  name: 'cprEvent.record',
  label: 'CPR event',
  kind: 'cprEvent',
  args: cprEventInputSchema,
  entityIds: (a) => [a.id, a.cprSessionId],
  creates: true,
  async apply(tx, a) {
    await appendEvent(tx, a.id, {
      cprSessionId: a.cprSessionId,
      type: a.type,
      at: a.at,
      details: asJson(a.details) as Record<string, unknown>,
      voidsEventId: null,
    });
  },
});

/** Adds a 'void' event (id is the new event's) naming the wrong one; nothing is erased. */
export const cprEventVoid = defineMutator({
  name: 'cprEvent.void',
  label: 'CPR event correction',
  kind: 'cprEvent',
  args: z.strictObject({
    id: uuidSchema,
    cprSessionId: uuidSchema,
    voidsEventId: uuidSchema,
    at: timestampSchema,
    reason: z.string().trim().min(1, 'A reason is required').max(2000),
  }),
  entityIds: (a) => [a.id, a.cprSessionId],
  creates: true,
  async apply(tx, a) {
    const target = await tx.get('cprEvent', a.voidsEventId);
    if (!target) throw tx.notFound('cprEvent', a.voidsEventId);
    if (target.cprSessionId !== a.cprSessionId)
      throw new Rejection(
        RejectionCode.NOT_FOUND,
        'The CPR event to void does not exist in this session.',
        { id: a.voidsEventId },
      );
    if (target.type === 'void')
      throw new Rejection(
        RejectionCode.INVALID_STATE,
        'A void cannot be voided; record the event again.',
      );
    await appendEvent(tx, a.id, {
      cprSessionId: a.cprSessionId,
      type: 'void',
      at: a.at,
      details: { reason: a.reason },
      voidsEventId: a.voidsEventId,
    });
  },
});

export const cprEventRecord = defineRecord({
  kind: 'cprEvent',
  label: 'CPR event',
  table: 'cprEvents',
  sqlTable: 'cpr_events',
  record: cprEventRecordSchema,
  defaults: { voidsEventId: null, details: {} },
  lww: false,
  parent: { kind: 'cprSession', column: 'cprSessionId' },
  device: { indexes: 'cprSessionId' },
  mutators: [cprEventRecordMutator, cprEventVoid],
});
