// The case's fields and record schema: what a case holds, shared by the definition
// (case.ts), its completion rule, the screens and the server. Kept apart from the definition
// so the completion rule can read the types without an import circle.
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
import { int, nShort, nLong, nTime, nBool } from '../platform/field-types';
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
