// The mutation envelope: what a device records in its outbox with every local write and
// pushes later. `name` discriminates `args`. Upserts carry only the changed fields; the
// server applies them per field (last write wins) and records a conflict when another
// person changed the same field after `baseVersion`.
import { z } from 'zod';
import '../zod-config';
import {
  caseAddendumInputSchema,
  caseFieldsSchema,
  cprEventInputSchema,
  cprSessionFieldsSchema,
  incidentReportFieldsSchema,
  mciCasualtyFieldsSchema,
  mciCasualtyInputSchema,
  mciIncidentFieldsSchema,
  versionSchema,
  vitalSignInputSchema,
  type SyncEntity,
} from './entities';
import { humanIdSchema } from './human-id';
import { timestampSchema, uuidSchema } from './values';

export const MUTATION_NAMES = [
  'case.upsert',
  'case.complete',
  'case.addendum',
  'case.delete',
  'case.access',
  'vitalSign.record',
  'vitalSign.void',
  'cprSession.upsert',
  'cprEvent.record',
  'cprEvent.void',
  'incidentReport.upsert',
  'incidentReport.delete',
  'mciIncident.upsert',
  'mciCasualty.record',
  'mciCasualty.update',
] as const;
export type MutationName = (typeof MUTATION_NAMES)[number];

/** The entity each mutation writes (for the rejected-changes inbox and the server's dispatch). */
export const MUTATION_ENTITY: Record<MutationName, SyncEntity> = {
  'case.upsert': 'case',
  'case.complete': 'case',
  'case.addendum': 'caseAddendum',
  'case.delete': 'case',
  'case.access': 'case',
  'vitalSign.record': 'vitalSign',
  'vitalSign.void': 'vitalSign',
  'cprSession.upsert': 'cprSession',
  'cprEvent.record': 'cprEvent',
  'cprEvent.void': 'cprEvent',
  'incidentReport.upsert': 'incidentReport',
  'incidentReport.delete': 'incidentReport',
  'mciIncident.upsert': 'mciIncident',
  'mciCasualty.record': 'mciCasualty',
  'mciCasualty.update': 'mciCasualty',
};

const reason = z.string().trim().min(1, 'A reason is required').max(2000);

/**
 * Upserts: the first upsert of an id creates the record and must carry `humanId`; later
 * ones may omit it (if given it must match). `fields` holds only what changed.
 */
export const caseUpsertArgsSchema = z.strictObject({
  id: uuidSchema,
  humanId: humanIdSchema('C').optional(),
  fields: caseFieldsSchema,
});
/** Locks the case: afterwards only case.addendum is accepted. */
export const caseCompleteArgsSchema = z.strictObject({
  id: uuidSchema,
  completedAt: timestampSchema,
});
export const caseAddendumArgsSchema = caseAddendumInputSchema;
/** Soft delete (tombstone). A completed case cannot be deleted. */
export const caseDeleteArgsSchema = z.strictObject({ id: uuidSchema });
/** What a person did with a case's data, for the audit log (POPIA: every view, print, PDF and
 * export is auditable). Recorded on the device through the outbox, so access while offline
 * reaches the server's audit log too; it changes no record. */
export const CASE_ACCESS_ACTIONS = ['view', 'print', 'pdf', 'export'] as const;
export type CaseAccessAction = (typeof CASE_ACCESS_ACTIONS)[number];
export const caseAccessArgsSchema = z.strictObject({
  /** The access event's own id (idempotency). */
  id: uuidSchema,
  /** cases.id */
  caseId: uuidSchema,
  action: z.enum(CASE_ACCESS_ACTIONS),
  /** Where it happened, e.g. the screen ('case-completed') or the export format ('fhir-r4'). */
  detail: z.string().max(200).optional(),
});
export const vitalSignRecordArgsSchema = vitalSignInputSchema;
export const vitalSignVoidArgsSchema = z.strictObject({ id: uuidSchema, reason });
export const cprSessionUpsertArgsSchema = z.strictObject({
  id: uuidSchema,
  humanId: humanIdSchema('S').optional(),
  fields: cprSessionFieldsSchema,
});
export const cprEventRecordArgsSchema = cprEventInputSchema;
/** Adds a 'void' event (id is the new event's) naming the wrong one; nothing is erased. */
export const cprEventVoidArgsSchema = z.strictObject({
  id: uuidSchema,
  cprSessionId: uuidSchema,
  voidsEventId: uuidSchema,
  at: timestampSchema,
  reason,
});
export const incidentReportUpsertArgsSchema = z.strictObject({
  id: uuidSchema,
  humanId: humanIdSchema('I').optional(),
  fields: incidentReportFieldsSchema,
});
export const incidentReportDeleteArgsSchema = z.strictObject({ id: uuidSchema });
export const mciIncidentUpsertArgsSchema = z.strictObject({
  id: uuidSchema,
  humanId: humanIdSchema('I').optional(),
  fields: mciIncidentFieldsSchema,
});
export const mciCasualtyRecordArgsSchema = mciCasualtyInputSchema;
export const mciCasualtyUpdateArgsSchema = z.strictObject({
  id: uuidSchema,
  fields: mciCasualtyFieldsSchema,
});

export const MUTATION_ARGS_SCHEMAS = {
  'case.upsert': caseUpsertArgsSchema,
  'case.complete': caseCompleteArgsSchema,
  'case.addendum': caseAddendumArgsSchema,
  'case.delete': caseDeleteArgsSchema,
  'case.access': caseAccessArgsSchema,
  'vitalSign.record': vitalSignRecordArgsSchema,
  'vitalSign.void': vitalSignVoidArgsSchema,
  'cprSession.upsert': cprSessionUpsertArgsSchema,
  'cprEvent.record': cprEventRecordArgsSchema,
  'cprEvent.void': cprEventVoidArgsSchema,
  'incidentReport.upsert': incidentReportUpsertArgsSchema,
  'incidentReport.delete': incidentReportDeleteArgsSchema,
  'mciIncident.upsert': mciIncidentUpsertArgsSchema,
  'mciCasualty.record': mciCasualtyRecordArgsSchema,
  'mciCasualty.update': mciCasualtyUpdateArgsSchema,
} as const satisfies Record<MutationName, z.ZodType>;

export type MutationArgs<N extends MutationName> = z.input<(typeof MUTATION_ARGS_SCHEMAS)[N]>;
export type ParsedMutationArgs<N extends MutationName> = z.output<
  (typeof MUTATION_ARGS_SCHEMAS)[N]
>;

/** Envelope fields every mutation has. */
const envelopeShape = {
  mutationId: uuidSchema,
  /** One user's outbox in one browser: a new per-user local database gets a new deviceId. */
  deviceId: uuidSchema,
  /** Per-device, monotonic, from 1, without gaps. */
  seq: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  actorUserId: z.number().int().positive(),
  /** The uuids of the records the mutation touches. */
  entityIds: z.array(uuidSchema).max(20),
  /** The record version the device's edit was based on (null: it has never seen a server copy). */
  baseVersion: versionSchema.nullable(),
  clientTime: timestampSchema,
  schemaVersion: z.number().int().min(1),
};

function variant<N extends MutationName>(name: N) {
  return z.object({ ...envelopeShape, name: z.literal(name), args: MUTATION_ARGS_SCHEMAS[name] });
}

/** A fully validated mutation. */
export const mutationSchema = z.discriminatedUnion('name', [
  variant('case.upsert'),
  variant('case.complete'),
  variant('case.addendum'),
  variant('case.delete'),
  variant('case.access'),
  variant('vitalSign.record'),
  variant('vitalSign.void'),
  variant('cprSession.upsert'),
  variant('cprEvent.record'),
  variant('cprEvent.void'),
  variant('incidentReport.upsert'),
  variant('incidentReport.delete'),
  variant('mciIncident.upsert'),
  variant('mciCasualty.record'),
  variant('mciCasualty.update'),
]);
/** What a device stores and sends. */
export type Mutation = z.input<typeof mutationSchema>;
/** What the server works with after parsing (normalised values, defaults filled). */
export type ParsedMutation = z.output<typeof mutationSchema>;
export type MutationOf<N extends MutationName> = Extract<Mutation, { name: N }>;

/**
 * The envelope as the push route first reads it: enough to acknowledge the mutation in seq
 * order. Name and args are then checked one mutation at a time with `mutationSchema`, so a
 * mutation that does not validate (say, from a newer schema) is rejected on its own
 * instead of failing the whole batch and blocking the queue.
 */
export const rawMutationSchema = z.object({
  mutationId: uuidSchema,
  deviceId: uuidSchema,
  seq: envelopeShape.seq,
  actorUserId: z.number().int(),
  name: z.string().max(100),
  args: z.unknown(),
  entityIds: z.array(z.unknown()).max(20).optional(),
  baseVersion: z.unknown().optional(),
  clientTime: z.unknown().optional(),
  schemaVersion: z.number().int().optional(),
});
export type RawMutation = z.output<typeof rawMutationSchema>;
