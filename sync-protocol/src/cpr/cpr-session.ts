// cprSession: a resuscitation attempt's record
import { z } from 'zod';
import '../zod-config';
import { RECORD_STATUSES } from '../cases/clinical';
import { defineRecord, type RecordDefinition } from '../platform/record';
import { upsertMutator } from '../platform/verbs';
import { int, nShort, nLong, nTime } from '../platform/field-types';
import {
  jsonValueSchema,
  timestampSchema,
  uuidSchema,
  ownedRecordSchema,
} from '../platform/values';

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
  } as Partial<CprSessionRecord>,
  lww: true,
  humanId: { column: 'sessionId', prefix: 'S' },
  access: { module: 'cprLogger', logModule: 'cprLogs', viewAction: 'view' },
  device: { indexes: 'sessionId, caseId' },
} as const satisfies Omit<RecordDefinition<CprSessionRecord>, 'mutators'>;

export const cprSessionRecord = defineRecord({
  ...cprSessionKind,
  mutators: [
    upsertMutator(cprSessionKind, cprSessionFieldsSchema, {
      requiredOnCreate: CPR_SESSION_REQUIRED_ON_CREATE,
    }),
  ],
});
