// case: the patient record (per-field last write wins; completed means locked)
import { z } from 'zod';
import '../zod-config';
import {
  BODY_REGIONS,
  GCS_RANGES,
  INTERVENTIONS,
  RECORD_STATUSES,
  type BodyRegion,
  type Intervention,
} from './clinical';
import { validateCaseForCompletion } from '../case/completion';
import { CASE_FIELD_LABELS } from '../case/fields';
import { defineMutator, type Row } from '../platform/mutator';
import { defineRecord, type FamilyAccess, type RecordDefinition } from '../platform/record';
import { Rejection, RejectionCode } from '../platform/rejections';
import { deleteMutator, upsertMutator } from '../platform/verbs';
import { int, nShort, nLong, nTime, nBool } from './field-types';
import {
  capillaryRefillSchema,
  jsonValueSchema,
  latitudeSchema,
  longitudeSchema,
  shortText,
  timestampSchema,
  uuidSchema,
  serverColumns,
} from '../platform/values';

const interventionShape = Object.fromEntries(
  INTERVENTIONS.map((name) => [name, z.boolean()]),
) as Record<Intervention, z.ZodBoolean>;

type BodyRegionKeys = `${BodyRegion}Examined` | `${BodyRegion}Abnormal` | `${BodyRegion}Notes`;
const bodyRegionShape = Object.fromEntries(
  BODY_REGIONS.flatMap((r) => [
    [`${r}Examined`, z.boolean()],
    [`${r}Abnormal`, nBool],
    [`${r}Notes`, nLong],
  ]),
) as Record<`${BodyRegion}Examined`, z.ZodBoolean> &
  Record<`${BodyRegion}Abnormal`, typeof nBool> &
  Record<`${BodyRegion}Notes`, typeof nLong>;
// Keeps the mapped keys honest against the union above.
const _bodyRegionKeysCheck: Record<BodyRegionKeys, unknown> = bodyRegionShape;
void _bodyRegionKeysCheck;

const caseFieldShape = {
  // Patient
  patientName: nShort,
  approximateAge: int(0, 150).nullable(),
  patientGender: nShort,
  incidentType: nShort,
  hasMedicalAid: nBool,
  medicalAidProvider: nShort,
  // Responder
  responderName: nShort,
  responderCallSign: nShort,
  responderArrivalTime: nTime,
  // Caller
  callerName: nShort,
  callerPhone: nShort,
  callReceivedTime: nTime,
  // Incident
  incidentDescription: nLong,
  incidentLocation: nShort,
  incidentLatitude: latitudeSchema.nullable(),
  incidentLongitude: longitudeSchema.nullable(),
  // Transport
  ambulanceId: nShort,
  arrivalTime: nTime,
  receivingHospital: nShort,
  transportPriority: nShort,
  departureTime: nTime,
  hospitalArrivalTime: nTime,
  patientRefusedTransport: z.boolean(),
  // History (SAMPLE); last oral intake time is as reported, free text
  allergies: nLong,
  medications: nLong,
  pastHistory: nLong,
  lastMealTime: nShort,
  lastMealContent: nShort,
  eventsLeadingUp: nLong,
  // Treatment
  treatmentProvided: nLong,
  medicationsGiven: nLong,
  proceduresPerformed: nLong,
  // Interventions checklist
  ...interventionShape,
  // Symptoms and findings
  symptoms: z.array(shortText).max(200),
  subjectiveSymptoms: nLong,
  objectiveSymptoms: nLong,
  additionalFindings: nLong,
  additionalNotes: nLong,
  // Primary survey
  sceneSafe: nBool,
  avpu: z.enum(['A', 'V', 'P', 'U']).nullable(),
  helpCalled: nBool,
  airwayStatus: nShort,
  breathingStatus: nShort,
  circulationStatus: nShort,
  // GCS: verbal null with gcsVerbalIntubated (charted 'T')
  gcsEyeOpening: int(GCS_RANGES.eye.min, GCS_RANGES.eye.max).nullable(),
  gcsVerbalResponse: int(GCS_RANGES.verbal.min, GCS_RANGES.verbal.max).nullable(),
  gcsVerbalIntubated: z.boolean(),
  gcsMotorResponse: int(GCS_RANGES.motor.min, GCS_RANGES.motor.max).nullable(),
  gcsTotal: int(GCS_RANGES.total.min, GCS_RANGES.total.max).nullable(),
  // Hemorrhaging
  hemorrhagingActive: nBool,
  hemorrhagingLocation: nShort,
  hemorrhagingLocationOther: nShort,
  hemorrhagingType: nShort,
  hemorrhagingSeverity: nShort,
  hemorrhagingControlStatus: nShort,
  hemorrhagingInterventions: z.array(shortText).max(50),
  hemorrhagingInterventionOther: nShort,
  tourniquetApplicationTime: nTime,
  // Others
  respiratoryRate: int(0, 200).nullable(),
  capillaryRefillTime: capillaryRefillSchema.nullable(),
  pupilResponsesiveness: nShort,
  painScore: int(0, 10).nullable(),
  triageStatus: nShort,
  // Multi-patient
  isMultiPatientIncident: z.boolean(),
  multiPatientIncidentType: nShort,
  multiPatientDescription: nLong,
  incidentDuration: int(0, 10_000_000).nullable(),
  totalPatients: int(0, 100_000).nullable(),
  triageCounts: z.record(z.string().max(20), int(0, 100_000)),
  incidentPatients: z.array(jsonValueSchema).max(1000),
  // Stroke BE-FAST
  fastFaceDropping: nBool,
  fastArmWeakness: nBool,
  fastSpeechDifficulty: nBool,
  fastBalanceLoss: nBool,
  fastVisionLoss: nBool,
  fastTimeNoted: nTime,
  // OPQRST
  onset: nShort,
  provocation: nShort,
  quality: nShort,
  region: nShort,
  severity: nShort,
  timing: nShort,
  // Body-region exam
  ...bodyRegionShape,
  // Neuro reassessment
  neuroReassessmentTime: nTime,
  neuroAvpu: z.enum(['A', 'V', 'P', 'U']).nullable(),
  neuroGcsTotal: int(GCS_RANGES.total.min, GCS_RANGES.total.max).nullable(),
  neuroPupils: nShort,
  neuroMotorFunction: nShort,
  neuroSensoryFunction: nShort,
  neuroNotes: nLong,
};

/** Every field case.upsert may write (per-field last write wins). */
export const CASE_FIELDS = Object.keys(caseFieldShape) as (keyof typeof caseFieldShape)[];
export type CaseField = keyof typeof caseFieldShape;

/** What a client sends: only the changed fields. */
export const caseFieldsSchema = z.strictObject(caseFieldShape).partial();
export type CaseFields = z.output<typeof caseFieldsSchema>;

/** Defaults of the not-null columns: what a new case holds before anything is written. */
export const CASE_FIELD_DEFAULTS: Partial<Record<CaseField, unknown>> = {
  ...Object.fromEntries(INTERVENTIONS.map((n) => [n, false])),
  ...Object.fromEntries(BODY_REGIONS.map((r) => [`${r}Examined`, false])),
  patientRefusedTransport: false,
  symptoms: [],
  gcsVerbalIntubated: false,
  hemorrhagingInterventions: [],
  isMultiPatientIncident: false,
  triageCounts: {},
  incidentPatients: [],
};

export const caseRecordSchema = z.object({
  id: uuidSchema,
  caseId: z.string(),
  ...caseFieldShape,
  status: z.enum(RECORD_STATUSES),
  createdAt: timestampSchema,
  completedAt: nTime,
  userId: z.number().int(),
  updatedBy: z.number().int().nullable(),
  ...serverColumns,
});
export type CaseRecord = z.output<typeof caseRecordSchema>;

// ---------------------------------------------------------------------------------------
// The definition and its mutations
// ---------------------------------------------------------------------------------------

/** Who may create, change and see cases (spec §6: newCase, casesLogged). Other people's
 * patients only with an explicit casesLogged view grant (decision 024, POPIA). */
export const CASE_ACCESS = {
  module: 'newCase',
  logModule: 'casesLogged',
  viewAction: 'view',
  othersNeedGrant: true,
} as const satisfies FamilyAccess;

const caseKind = {
  kind: 'case',
  label: 'case',
  fieldLabels: CASE_FIELD_LABELS,
  table: 'cases',
  sqlTable: 'cases',
  record: caseRecordSchema,
  defaults: {
    ...CASE_FIELD_DEFAULTS,
    status: 'in_progress',
    completedAt: null,
  } as Partial<CaseRecord>,
  lww: true,
  humanId: { column: 'caseId', prefix: 'C' },
  access: CASE_ACCESS,
  lock: {
    isLocked: (row: Row) => row.status === 'completed',
    code: RejectionCode.CASE_LOCKED,
  },
  numericColumns: ['incidentLatitude', 'incidentLongitude', 'capillaryRefillTime'],
  updatedByColumn: 'updatedBy',
  device: { indexes: 'caseId, userId, status' },
} as const satisfies Omit<RecordDefinition<CaseRecord>, 'mutators'>;

/** Locks the case: afterwards only case.addendum is accepted. The device checks before it
 * sends; the server checks again on the case as it holds it, with the same rule. */
export const caseComplete = defineMutator({
  name: 'case.complete',
  label: 'Case completion',
  kind: 'case',
  args: z.strictObject({ id: uuidSchema, completedAt: timestampSchema }),
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.require('case', a.id, 'change');
    if (row.status === 'completed') return;
    const vitals = await tx.list('vitalSign', 'caseId', a.id);
    const problems = validateCaseForCompletion(
      row as Partial<CaseRecord>,
      vitals.map((v) => ({
        type: String(v.type),
        voidedAt: typeof v.voidedAt === 'string' ? v.voidedAt : null,
        deletedAt: typeof v.deletedAt === 'string' ? v.deletedAt : null,
      })),
    );
    if (problems.length > 0)
      throw new Rejection(
        RejectionCode.CASE_INCOMPLETE,
        `The case cannot be completed: ${problems.map((p) => p.message).join('; ')}.`,
        {
          id: a.id,
          problems: problems.map((p) => ({ field: p.field, step: p.step, message: p.message })),
        },
      );
    await tx.update('case', a.id, { status: 'completed', completedAt: a.completedAt });
    tx.note({ completedAt: a.completedAt });
  },
});

/** What a person did with a case's data, for the audit log (POPIA: every view, print, PDF and
 * export is auditable). Recorded on the device through the outbox, so access while offline
 * reaches the server's audit log too; it changes no record. A deleted case is still
 * recorded (the access happened); only a case the actor may not see is refused. */
export const CASE_ACCESS_ACTIONS = ['view', 'print', 'pdf', 'export'] as const;
export type CaseAccessAction = (typeof CASE_ACCESS_ACTIONS)[number];
export const caseAccess = defineMutator({
  name: 'case.access',
  label: 'Case access record',
  kind: 'case',
  args: z.strictObject({
    /** The access event's own id (idempotency). */
    id: uuidSchema,
    /** cases.id */
    caseId: uuidSchema,
    action: z.enum(CASE_ACCESS_ACTIONS),
    /** Where it happened, e.g. the screen ('case-completed') or the export format ('fhir-r4'). */
    detail: z.string().max(200).optional(),
  }),
  // Its own id only: recording a view must not mark the case as having unsynced changes.
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.get('case', a.caseId);
    if (!row) throw tx.notFound('case', a.caseId);
    tx.authorize('case', 'see', row);
    await tx.recordAccess({
      id: a.id,
      kind: 'case',
      recordId: a.caseId,
      action: a.action,
      detail: a.detail,
    });
  },
});

export const caseUpsert = upsertMutator(caseKind, caseFieldsSchema);
export const caseDelete = deleteMutator(caseKind);

export const caseRecord = defineRecord({
  ...caseKind,
  mutators: [caseUpsert, caseComplete, caseDelete, caseAccess],
});
