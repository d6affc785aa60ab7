// cprEvent: append-only; a correction is a 'void' event naming the wrong one
import { z } from 'zod';
import '../zod-config';
import {
  CPR_ACCESS_ROUTES,
  CPR_AIRWAYS,
  CPR_RHYTHMS,
  cprEventKindSchema,
  type CprEventKind,
} from '../cases/clinical';
import { isCprSessionCompleted, type CprOutcome } from './cpr-session';
import { asJson } from '../platform/json';
import { defineMutator, type MutatorTx } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { Rejection, REJECTION_MESSAGES, RejectionCode } from '../platform/rejections';
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
  /** Who tapped it, as their device names them (name, call sign): the merged timeline of two
   * devices shows each event's author without a lookup (issue 39). */
  by: z.string().max(200).optional(),
});

/** What each kind of event must say (a shock its energy, a rhythm check the rhythm, …). */
const REQUIRED_DETAIL: Partial<
  Record<CprEventKind, { key: keyof CprEventDetails; message: string }>
> = {
  rhythm_check: { key: 'rhythm', message: 'A rhythm check needs the rhythm.' },
  shock: { key: 'energyJoules', message: 'A shock needs its energy in joules.' },
  amiodarone: { key: 'doseMg', message: 'An amiodarone dose needs its amount in mg.' },
  airway: { key: 'airway', message: 'An airway event needs the airway (BVM, SGA or ETT).' },
  iv_io_access: { key: 'access', message: 'Vascular access needs the route (IV or IO).' },
  termination: { key: 'reason', message: 'A termination needs its reason.' },
  note: { key: 'note', message: 'A note needs its text.' },
};

export type CprEventDetails = z.output<typeof cprEventDetailsSchema>;

export const cprEventInputSchema = z
  .strictObject({
    id: uuidSchema,
    cprSessionId: uuidSchema,
    type: cprEventKindSchema.exclude(['void']),
    at: timestampSchema,
    details: cprEventDetailsSchema.default({}),
  })
  .superRefine((event, ctx) => {
    const required = REQUIRED_DETAIL[event.type];
    if (!required) return;
    const value = event.details[required.key];
    if (value === undefined || (typeof value === 'string' && value.trim() === ''))
      ctx.addIssue({ code: 'custom', path: ['details', required.key], message: required.message });
  });

/** The longest a session may run: an event later than this after its start is refused. */
export const CPR_SESSION_MAX_MS = 24 * 60 * 60 * 1000;

/** Why an event's time cannot belong to a session that started at `startTime`, or null. */
export function cprEventTimeProblem(startTime: string, at: string): string | null {
  const offset = Date.parse(at) - Date.parse(startTime);
  if (offset < 0) return 'The event time is before the CPR session started.';
  if (offset > CPR_SESSION_MAX_MS)
    return 'The event time is more than 24 hours after the CPR session started.';
  return null;
}

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

/** The events that end a session, and the outcome each records. */
export const CPR_ENDING_EVENTS: Partial<Record<CprEventKind, CprOutcome>> = {
  rosc: 'rosc',
  termination: 'terminated',
};

/**
 * Appends one event to its session, the same on the device and the server: the session must
 * exist and be the actor's to change; a replay is a no-op; the time must fall within the
 * session (start to start + 24 h); an ended session takes only voids. ROSC and termination
 * end the session (status completed, end time, total duration, outcome).
 */
async function appendEvent(tx: MutatorTx, id: string, content: CprEventContent): Promise<void> {
  const session = await tx.require('cprSession', content.cprSessionId, 'change');
  if ((await appendOnce(tx, 'cprEvent', id, content)) === 'exists') return;
  if (content.type !== 'void' && isCprSessionCompleted(session))
    throw new Rejection(
      RejectionCode.CPR_SESSION_COMPLETED,
      REJECTION_MESSAGES.CPR_SESSION_COMPLETED,
      { id: content.cprSessionId },
    );
  const startTime = String(session.startTime);
  const timeProblem = cprEventTimeProblem(startTime, content.at);
  if (timeProblem)
    throw new Rejection(RejectionCode.VALIDATION_FAILED, timeProblem, {
      field: 'at',
      at: content.at,
      startTime,
    });
  await tx.insert('cprEvent', { id, ...content });
  tx.note({ type: content.type });
  const outcome = CPR_ENDING_EVENTS[content.type as CprEventKind];
  if (outcome)
    await tx.update('cprSession', content.cprSessionId, {
      status: 'completed',
      outcome,
      endTime: content.at,
      completedAt: content.at,
      totalDuration: Math.round((Date.parse(content.at) - Date.parse(startTime)) / 1000),
    });
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
