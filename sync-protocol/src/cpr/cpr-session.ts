// cprSession: a resuscitation attempt's record
import { z } from 'zod';
import '../zod-config';
import { RECORD_STATUSES } from '../cases/clinical';
import type { Row } from '../platform/mutator';
import { RejectionCode } from '../platform/rejections';
import { defineRecord, type RecordDefinition } from '../platform/record';
import { defineMutator } from '../platform/mutator';
import { upsertMutator } from '../platform/verbs';
import { int, nBool, nShort, nLong, nTime } from '../platform/field-types';
import {
  jsonValueSchema,
  timestampSchema,
  uuidSchema,
  ownedRecordSchema,
} from '../platform/values';

/** How a session ended: return of spontaneous circulation, or resuscitation terminated. */
export const CPR_OUTCOMES = ['rosc', 'terminated'] as const;
export type CprOutcome = (typeof CPR_OUTCOMES)[number];

/** A completed session is locked like a case: corrections are void events (cpr-event.ts). */
export function isCprSessionCompleted(row: Row): boolean {
  return row.status === 'completed';
}

const cprSessionFieldShape = {
  /** Optional link to the patient case (cases.id). */
  caseId: uuidSchema.nullable(),
  startTime: timestampSchema,
  endTime: nTime,
  /** Seconds. */
  totalDuration: int(0, 10_000_000).nullable(),
  patientAge: nShort,
  incidentLocation: nShort,
  eventsLeadingUp: nLong,
  /** Spec field: a summary snapshot; the authoritative log is cprEvent rows. */
  events: z.array(jsonValueSchema).max(2000),
  status: z.enum(RECORD_STATUSES),
  completedAt: nTime,
  // Since SCHEMA_VERSION 7 (issue 39): how the arrest ended, and the Utstein facts a crew
  // knows only from bystanders (null: not recorded).
  /** Set by the ending event (cpr-event.ts): ROSC or termination. */
  outcome: z.enum(CPR_OUTCOMES).nullable(),
  witnessed: nBool,
  bystanderCpr: nBool,
};
type CprSessionField = keyof typeof cprSessionFieldShape;
export const cprSessionFieldsSchema = z.strictObject(cprSessionFieldShape).partial();
/** A new session needs startTime. */
export const CPR_SESSION_REQUIRED_ON_CREATE: readonly CprSessionField[] = ['startTime'];

export const cprSessionRecordSchema = ownedRecordSchema({
  sessionId: z.string(),
  ...cprSessionFieldShape,
});
export type CprSessionRecord = z.output<typeof cprSessionRecordSchema>;

const cprSessionKind = {
  kind: 'cprSession',
  label: 'CPR session',
  table: 'cprSessions',
  sqlTable: 'cpr_sessions',
  record: cprSessionRecordSchema,
  defaults: {
    events: [],
    status: 'in_progress',
    caseId: null,
    completedAt: null,
    outcome: null,
    witnessed: null,
    bystanderCpr: null,
  } as Partial<CprSessionRecord>,
  lww: true,
  humanId: { column: 'sessionId', prefix: 'S' },
  // cprLogger edit: join a colleague's session (a scribe beside the team leader) and add
  // events to it (decision 065).
  access: {
    module: 'cprLogger',
    logModule: 'cprLogs',
    viewAction: 'view',
    changeAnyWith: ['cprLogger', 'edit'],
  },
  lock: { isLocked: isCprSessionCompleted, code: RejectionCode.CPR_SESSION_COMPLETED },
  device: { indexes: 'sessionId, caseId' },
} as const satisfies Omit<RecordDefinition<CprSessionRecord>, 'mutators'>;

/** What a person did with a session's record, for the audit log (like case.access): recorded
 * through the outbox, so a view or print while offline reaches the server's audit log too. */
export const CPR_SESSION_ACCESS_ACTIONS = ['view', 'print', 'pdf', 'export'] as const;
export const cprSessionAccess = defineMutator({
  name: 'cprSession.access',
  label: 'CPR session access record',
  kind: 'cprSession',
  accessRecord: true,
  args: z.strictObject({
    /** The access event's own id (idempotency). */
    id: uuidSchema,
    /** cpr_sessions.id */
    cprSessionId: uuidSchema,
    action: z.enum(CPR_SESSION_ACCESS_ACTIONS),
    detail: z.string().max(200).optional(),
  }),
  // Its own id only: recording a view must not mark the session as having unsynced changes.
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.get('cprSession', a.cprSessionId);
    if (!row) throw tx.notFound('cprSession', a.cprSessionId);
    tx.authorize('cprSession', 'see', row);
    await tx.recordAccess({
      id: a.id,
      kind: 'cprSession',
      recordId: a.cprSessionId,
      action: a.action,
      detail: a.detail,
    });
  },
});

export const cprSessionRecord = defineRecord({
  ...cprSessionKind,
  mutators: [
    upsertMutator(cprSessionKind, cprSessionFieldsSchema, {
      requiredOnCreate: CPR_SESSION_REQUIRED_ON_CREATE,
    }),
    cprSessionAccess,
  ],
});
