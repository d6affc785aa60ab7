// Synced entities: the fields a device may write (per entity) and the full record the
// server returns on pull. Field names are the camelCase of the database columns
// (db/src/schema.ts). Server-owned fields (owner, status changes, version, timestamps
// of the record itself) are never written through `fields`; they change through their own
// mutations (case.complete, *.delete, *.void).
import { z } from 'zod';
import '../zod-config';
import {
  CPR_ACCESS_ROUTES,
  CPR_AIRWAYS,
  CPR_RHYTHMS,
  GCS_RANGES,
  INTERVENTIONS,
  RECORD_STATUSES,
  REPORT_PRIORITIES,
  VITAL_SIGN_STATUSES,
  cprEventKindSchema,
  incidentReportTypeSchema,
  triageColourSchema,
  vitalSignTypeSchema,
  type Intervention,
} from './clinical';
import {
  capillaryRefillSchema,
  jsonObjectSchema,
  jsonValueSchema,
  latitudeSchema,
  longText,
  longitudeSchema,
  measurementSchema,
  shortText,
  timestampSchema,
  uuidSchema,
} from './values';

export const SYNC_ENTITIES = [
  'case',
  'vitalSign',
  'cprSession',
  'cprEvent',
  'incidentReport',
  'mciIncident',
  'mciCasualty',
  'caseAddendum',
] as const;
export type SyncEntity = (typeof SYNC_ENTITIES)[number];
export const syncEntitySchema = z.enum(SYNC_ENTITIES);

/** A server version: bigint as a decimal string. */
export const versionSchema = z.string().regex(/^\d{1,19}$/, 'Invalid version');

const int = (min: number, max: number) => z.number().int().min(min).max(max);
const nShort = shortText.nullable();
const nLong = longText.nullable();
const nTime = timestampSchema.nullable();
const nBool = z.boolean().nullable();

/** Columns every synced record has on the server. */
const serverColumns = {
  version: versionSchema,
  updatedAt: timestampSchema,
  deletedAt: nTime,
};

// ---------------------------------------------------------------------------------------
// case
// ---------------------------------------------------------------------------------------

export const BODY_REGIONS = [
  'head',
  'neck',
  'chest',
  'abdomen',
  'pelvis',
  'back',
  'extremities',
] as const;
export type BodyRegion = (typeof BODY_REGIONS)[number];

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
// vitalSign (append-only; corrections void the row and add a new one)
// ---------------------------------------------------------------------------------------

export const vitalSignInputSchema = z.strictObject({
  id: uuidSchema,
  /** cases.id (uuid) */
  caseId: uuidSchema,
  type: vitalSignTypeSchema,
  /** As charted, e.g. '120/80' for blood pressure, 'T' never for GCS (use the numbers). */
  value: z.string().min(1).max(50),
  numericValue: measurementSchema.nullable().default(null),
  status: z.enum(VITAL_SIGN_STATUSES).nullable().default(null),
  timestamp: timestampSchema,
  notes: nLong.default(null),
});

export const vitalSignRecordSchema = z.object({
  id: uuidSchema,
  caseId: uuidSchema,
  type: vitalSignTypeSchema,
  value: z.string(),
  numericValue: z.number().nullable(),
  status: z.enum(VITAL_SIGN_STATUSES).nullable(),
  timestamp: timestampSchema,
  notes: z.string().nullable(),
  voidedAt: nTime,
  voidReason: z.string().nullable(),
  userId: z.number().int(),
  createdAt: timestampSchema,
  ...serverColumns,
});
export type VitalSignRecord = z.output<typeof vitalSignRecordSchema>;

// ---------------------------------------------------------------------------------------
// cprSession
// ---------------------------------------------------------------------------------------

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
export const CPR_SESSION_FIELDS = Object.keys(
  cprSessionFieldShape,
) as (keyof typeof cprSessionFieldShape)[];
export type CprSessionField = keyof typeof cprSessionFieldShape;
export const cprSessionFieldsSchema = z.strictObject(cprSessionFieldShape).partial();
export type CprSessionFields = z.output<typeof cprSessionFieldsSchema>;
/** A new session needs startTime. */
export const CPR_SESSION_REQUIRED_ON_CREATE: readonly CprSessionField[] = ['startTime'];

export const cprSessionRecordSchema = z.object({
  id: uuidSchema,
  sessionId: z.string(),
  ...cprSessionFieldShape,
  createdAt: timestampSchema,
  userId: z.number().int(),
  ...serverColumns,
});
export type CprSessionRecord = z.output<typeof cprSessionRecordSchema>;

// ---------------------------------------------------------------------------------------
// cprEvent (append-only; a correction is a 'void' event naming the wrong one)
// ---------------------------------------------------------------------------------------

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
// incidentReport
// ---------------------------------------------------------------------------------------

const incidentReportFieldShape = {
  incidentType: incidentReportTypeSchema,
  title: nShort,
  description: nLong,
  location: nShort,
  latitude: latitudeSchema.nullable(),
  longitude: longitudeSchema.nullable(),
  responderName: nShort,
  responderCallSign: nShort,
  /** Type-specific fields (domain.md table), free structure. */
  typeSpecificData: jsonObjectSchema,
  status: z.enum(RECORD_STATUSES),
  priority: z.enum(REPORT_PRIORITIES),
  additionalNotes: nLong,
  mediaUrls: z.array(z.string().max(2000)).max(100),
  /** Strings, as the spec has them. */
  incidentStartTime: nShort,
  incidentEndTime: nShort,
};
export const INCIDENT_REPORT_FIELDS = Object.keys(
  incidentReportFieldShape,
) as (keyof typeof incidentReportFieldShape)[];
export type IncidentReportField = keyof typeof incidentReportFieldShape;
export const incidentReportFieldsSchema = z.strictObject(incidentReportFieldShape).partial();
export type IncidentReportFields = z.output<typeof incidentReportFieldsSchema>;
export const INCIDENT_REPORT_REQUIRED_ON_CREATE: readonly IncidentReportField[] = ['incidentType'];

export const incidentReportRecordSchema = z.object({
  id: uuidSchema,
  incidentId: z.string(),
  ...incidentReportFieldShape,
  createdAt: timestampSchema,
  userId: z.number().int(),
  ...serverColumns,
});
export type IncidentReportRecord = z.output<typeof incidentReportRecordSchema>;

// ---------------------------------------------------------------------------------------
// mciIncident (mass-casualty incident; casualties are their own rows)
// ---------------------------------------------------------------------------------------

const mciIncidentFieldShape = {
  incidentType: nShort,
  description: nLong,
  location: nShort,
  latitude: latitudeSchema.nullable(),
  longitude: longitudeSchema.nullable(),
  startedAt: timestampSchema,
  endedAt: nTime,
  resources: z.array(jsonValueSchema).max(1000),
  status: z.enum(RECORD_STATUSES),
  completedAt: nTime,
};
export const MCI_INCIDENT_FIELDS = Object.keys(
  mciIncidentFieldShape,
) as (keyof typeof mciIncidentFieldShape)[];
export type MciIncidentField = keyof typeof mciIncidentFieldShape;
export const mciIncidentFieldsSchema = z.strictObject(mciIncidentFieldShape).partial();
export type MciIncidentFields = z.output<typeof mciIncidentFieldsSchema>;
export const MCI_INCIDENT_REQUIRED_ON_CREATE: readonly MciIncidentField[] = ['startedAt'];

export const mciIncidentRecordSchema = z.object({
  id: uuidSchema,
  incidentId: z.string(),
  ...mciIncidentFieldShape,
  createdAt: timestampSchema,
  userId: z.number().int(),
  ...serverColumns,
});
export type MciIncidentRecord = z.output<typeof mciIncidentRecordSchema>;

// ---------------------------------------------------------------------------------------
// mciCasualty (one row per casualty, so two responders can triage at once)
// ---------------------------------------------------------------------------------------

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
export const MCI_CASUALTY_FIELDS = Object.keys(
  mciCasualtyFieldShape,
) as (keyof typeof mciCasualtyFieldShape)[];
export type MciCasualtyField = keyof typeof mciCasualtyFieldShape;
export const mciCasualtyFieldsSchema = z.strictObject(mciCasualtyFieldShape).partial();
export type MciCasualtyFields = z.output<typeof mciCasualtyFieldsSchema>;

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

export const mciCasualtyRecordSchema = z.object({
  id: uuidSchema,
  mciIncidentId: uuidSchema,
  ...mciCasualtyFieldShape,
  userId: z.number().int(),
  createdAt: timestampSchema,
  ...serverColumns,
});
export type MciCasualtyRecord = z.output<typeof mciCasualtyRecordSchema>;

// ---------------------------------------------------------------------------------------
// caseAddendum (the only change a completed case accepts)
// ---------------------------------------------------------------------------------------

const caseFieldNameSchema = z.enum(CASE_FIELDS as [CaseField, ...CaseField[]]);

export const caseAddendumChangeSchema = z.strictObject({
  field: caseFieldNameSchema,
  before: jsonValueSchema,
  after: jsonValueSchema,
});

export const caseAddendumInputSchema = z.strictObject({
  id: uuidSchema,
  /** cases.id */
  caseId: uuidSchema,
  reason: z.string().trim().min(1, 'A reason is required').max(2000),
  changes: z.array(caseAddendumChangeSchema).max(200).default([]),
});

export const caseAddendumRecordSchema = z.object({
  id: uuidSchema,
  caseId: uuidSchema,
  reason: z.string(),
  changes: z.array(
    z.object({ field: z.string(), before: jsonValueSchema, after: jsonValueSchema }),
  ),
  userId: z.number().int(),
  /**
   * The author's full name and call sign when the server applied the addendum, stamped by the
   * server from its users (never taken from the device); a device fills them for its own
   * pending addendum from the signed-in user (decision 011). Null on addenda from before
   * schema version 2, and absent from an older server's answers: the author is then known by
   * user id only.
   */
  authorName: z.string().nullable().default(null),
  authorCallSign: z.string().nullable().default(null),
  createdAt: timestampSchema,
  ...serverColumns,
});
export type CaseAddendumRecord = z.output<typeof caseAddendumRecordSchema>;

// ---------------------------------------------------------------------------------------

export interface SyncRecordMap {
  case: CaseRecord;
  vitalSign: VitalSignRecord;
  cprSession: CprSessionRecord;
  cprEvent: CprEventRecord;
  incidentReport: IncidentReportRecord;
  mciIncident: MciIncidentRecord;
  mciCasualty: MciCasualtyRecord;
  caseAddendum: CaseAddendumRecord;
}

export const SYNC_RECORD_SCHEMAS = {
  case: caseRecordSchema,
  vitalSign: vitalSignRecordSchema,
  cprSession: cprSessionRecordSchema,
  cprEvent: cprEventRecordSchema,
  incidentReport: incidentReportRecordSchema,
  mciIncident: mciIncidentRecordSchema,
  mciCasualty: mciCasualtyRecordSchema,
  caseAddendum: caseAddendumRecordSchema,
} as const;
