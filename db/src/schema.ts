// Kysely types for every table. SQL names are snake_case; CamelCasePlugin (see connect.ts)
// maps them to the camelCase properties below. Each table has a row interface plus
// Selectable / Insertable / Updateable aliases, as in Kysely's example app.
//
// Value conventions (identical on PGlite and pg, see type-parsers.ts):
// - timestamptz: Date when read; Date or ISO string when written.
// - bigint (int8) and numeric: string when read (exact); string or number when written.
// - date: 'YYYY-MM-DD' string.
// - jsonb holding an object: the object (or its JSON text) when written.
// - jsonb holding an array: JSON text when written (JSON.stringify(value)). pg would send a
//   JS array as a PostgreSQL array literal, which jsonb rejects, so the types only allow text.
import type { ColumnType, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';

/**
 * Kysely's Generated, but unwrapping a ColumnType: Kysely's own would make
 * Generated<Timestamptz> select as the ColumnType object instead of Date.
 */
export type Generated<T> =
  T extends ColumnType<infer S, infer I, infer U>
    ? ColumnType<S, I | undefined, U>
    : ColumnType<T, T | undefined, T>;

export type Timestamptz = ColumnType<Date, Date | string, Date | string>;
export type Int8 = ColumnType<string, string | number | bigint, string | number | bigint>;
export type Numeric = ColumnType<string, string | number, string | number>;
/** A calendar date, 'YYYY-MM-DD'. */
export type DateOnly = ColumnType<string, string, string>;
export type JsonObject<T extends object> = ColumnType<T, T | string, T | string>;
export type JsonArray<T> = ColumnType<T[], string, string>;
export type JsonValue =
  string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A permission entry is a boolean (whole module) or action flags; parsed by sync-protocol. */
export type PermissionsJson = Record<string, boolean | Record<string, boolean>>;

// ---------------------------------------------------------------------------------------
// Accounts, sessions, audit, uploads, settings
// ---------------------------------------------------------------------------------------

export interface RolesTable {
  id: Generated<number>;
  /** Unique. System roles: 'administrator', 'member' (seeded, isSystem true). */
  name: string;
  displayName: string;
  description: string | null;
  permissions: Generated<JsonObject<PermissionsJson>>;
  isSystem: Generated<boolean>;
  createdAt: Generated<Timestamptz>;
  updatedAt: Generated<Timestamptz>;
}

export type UserRole = 'administrator' | 'member';
export type UserStatus = 'pending' | 'approved' | 'suspended';

export interface UsersTable {
  id: Generated<number>;
  /** Unique case-insensitively (unique index on lower(email)); store it lower-cased. */
  email: string;
  passwordHash: string;
  fullName: string;
  callSign: string | null;
  contactNumber: string | null;
  idNumber: string | null;
  qualifications: string | null;
  qualificationsOther: string | null;
  nextOfKinName: string | null;
  nextOfKinRelationship: string | null;
  nextOfKinContact: string | null;
  idDocumentUrl: string | null;
  /** One URL, or a JSON array string of up to 5 URLs (spec: up to 5 certification files). */
  certificationsUrl: string | null;
  roleId: number | null;
  role: Generated<UserRole>;
  status: Generated<UserStatus>;
  permissions: Generated<JsonObject<PermissionsJson>>;
  createdAt: Generated<Timestamptz>;
  updatedAt: Generated<Timestamptz>;
}

export interface SessionsTable {
  sid: string;
  userId: number | null;
  data: JsonObject<Record<string, JsonValue>>;
  createdAt: Generated<Timestamptz>;
  lastSeenAt: Generated<Timestamptz>;
  expiresAt: Timestamptz;
}

/** One row: the epoch the session and user cache compares (migration 2026-11-25T0300). */
export interface AuthEpochTable {
  id: Generated<boolean>;
  /** bigint, read as a string. */
  epoch: Generated<string>;
}

export interface RateLimitsTable {
  /** e.g. 'login:ip:1.2.3.4' or 'login:email:a@b.c'. */
  key: string;
  count: Generated<number>;
  windowStartedAt: Generated<Timestamptz>;
  expiresAt: Timestamptz;
  /** Sign-in throttling (decision 022): the key waits until then; null: no wait. */
  blockedUntil: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
}

export type AuditOutcome = 'success' | 'denied' | 'failure';

/** Append-only: a trigger refuses UPDATE and DELETE. */
export interface AuditLogTable {
  id: Generated<Int8>;
  at: Generated<Timestamptz>;
  actorUserId: number | null;
  action: string;
  entityType: string | null;
  entityId: string | null;
  outcome: AuditOutcome;
  ip: string | null;
  userAgent: string | null;
  details: Generated<JsonObject<Record<string, JsonValue>>>;
}

export type UploadStatus = 'pending' | 'stored' | 'expired';

export interface UploadsTable {
  id: Generated<string>;
  /** Hash of the one-time token carried by the upload URL; never the token itself. */
  tokenHash: string;
  ownerUserId: number;
  purpose: string | null;
  status: Generated<UploadStatus>;
  /** Server-generated file name; never derived from user input. */
  storageKey: string | null;
  contentType: string | null;
  sizeBytes: Int8 | null;
  createdAt: Generated<Timestamptz>;
  expiresAt: Timestamptz;
  storedAt: Timestamptz | null;
  /** The client address whose PUT spent the URL (request.ip, proxy-aware per TRUST_PROXY). */
  clientIp: string | null;
  /** When the PUT spent the URL. */
  claimedAt: Timestamptz | null;
  /** Bytes a PUT in progress may still write, counted against the quotas; 0 once it ended. */
  reservedBytes: Generated<Int8>;
}

export interface SystemSettingsTable {
  key: string;
  value: ColumnType<JsonValue, string, string>;
  updatedAt: Generated<Timestamptz>;
  updatedBy: number | null;
}

// ---------------------------------------------------------------------------------------
// Notifications
// ---------------------------------------------------------------------------------------

export type NotificationType = 'general' | 'emergency' | 'system' | 'maintenance';
export type NotificationPriority = 'low' | 'normal' | 'high' | 'critical';

/** docs/decisions/028: pending -> scheduled -> sending -> sent, or cancelled. */
export type NotificationStatus = 'pending' | 'scheduled' | 'sending' | 'sent' | 'cancelled';
/** docs/decisions/028: pending -> sent -> delivered -> clicked / read, or failed. */
export type DeliveryStatus = 'pending' | 'sent' | 'delivered' | 'clicked' | 'read' | 'failed';
export type PushState = 'queued' | 'sent' | 'failed' | 'gone';

export interface NotificationsTable {
  id: Generated<number>;
  title: string;
  message: string;
  type: Generated<NotificationType>;
  priority: Generated<NotificationPriority>;
  /** int[]; null = no user filter. */
  targetUserIds: number[] | null;
  /** text[]; null = no role filter. */
  targetRoles: string[] | null;
  status: Generated<NotificationStatus>;
  /** When it reached the recipients' inboxes (fan-out). */
  sentAt: Timestamptz | null;
  scheduledFor: Timestamptz | null;
  icon: Generated<string>;
  badge: Generated<string>;
  url: string | null;
  sound: string | null;
  createdBy: number | null;
  createdAt: Generated<Timestamptz>;
  updatedAt: Generated<Timestamptz>;
  /** Set by the fan-out that wrote the deliveries and queued the pushes. */
  fannedOutAt: Timestamptz | null;
  /** While 'sending' and not fanned out: the claiming instance's lease. */
  leaseUntil: Timestamptz | null;
  cancelledAt: Timestamptz | null;
}

export interface PushSubscriptionsTable {
  id: Generated<number>;
  userId: number;
  /** Unique: one row per browser endpoint. */
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
  createdAt: Generated<Timestamptz>;
  updatedAt: Generated<Timestamptz>;
}

export interface NotificationDeliveriesTable {
  id: Generated<number>;
  notificationId: number;
  userId: number;
  status: Generated<DeliveryStatus>;
  deliveredAt: Timestamptz | null;
  clickedAt: Timestamptz | null;
  readAt: Timestamptz | null;
  errorMessage: string | null;
  createdAt: Generated<Timestamptz>;
  /** The first time a push service accepted the message for one of the user's devices. */
  pushedAt: Timestamptz | null;
  updatedAt: Generated<Timestamptz>;
}

/** The web push queue: one row per (delivery, device). */
export interface NotificationPushesTable {
  id: Generated<number>;
  notificationId: number;
  deliveryId: number;
  subscriptionId: number | null;
  state: Generated<PushState>;
  attempts: Generated<number>;
  nextAttemptAt: Generated<Timestamptz>;
  leaseUntil: Timestamptz | null;
  statusCode: number | null;
  lastError: string | null;
  sentAt: Timestamptz | null;
  createdAt: Generated<Timestamptz>;
  updatedAt: Generated<Timestamptz>;
}

// ---------------------------------------------------------------------------------------
// Synced clinical and operational records.
// Primary keys are UUIDs generated on the device. `version` comes from the global sequence
// sync_version_seq: a trigger assigns a new value on every INSERT and UPDATE (whatever the
// statement says), so it is the pull cursor. Deletes are tombstones (deletedAt).
// ---------------------------------------------------------------------------------------

export interface SyncColumns {
  /** Server-assigned by trigger; any value written is replaced. */
  version: Generated<Int8>;
  updatedAt: Generated<Timestamptz>;
  deletedAt: Timestamptz | null;
}

export type RecordStatus = 'in_progress' | 'completed';

/**
 * Last-write-wins records (cases, CPR sessions, incident reports, mass-casualty incidents
 * and casualties): per field, the sync_version_seq value of its last write and its author.
 */
export type FieldVersions = Record<string, { version: string; by: number }>;
export interface LwwColumns {
  fieldVersions: Generated<JsonObject<FieldVersions>>;
}

/** The interventions checklist (domain.md), boolean not null default false. */
export interface CaseInterventions {
  // Airway
  headTiltChinLift: Generated<boolean>;
  jawThrust: Generated<boolean>;
  oropharyngealAirway: Generated<boolean>;
  nasopharyngealAirway: Generated<boolean>;
  suctioning: Generated<boolean>;
  supraglotticAirway: Generated<boolean>;
  endotrachealIntubation: Generated<boolean>;
  foreignBodyRemoval: Generated<boolean>;
  // Breathing
  oxygenAdministered: Generated<boolean>;
  bagValveMaskVentilation: Generated<boolean>;
  nebulisation: Generated<boolean>;
  cpapApplied: Generated<boolean>;
  chestSeal: Generated<boolean>;
  needleDecompression: Generated<boolean>;
  // Circulation
  cprPerformed: Generated<boolean>;
  aedUsed: Generated<boolean>;
  manualDefibrillation: Generated<boolean>;
  ivAccess: Generated<boolean>;
  ioAccess: Generated<boolean>;
  ivFluids: Generated<boolean>;
  bleedingControl: Generated<boolean>;
  directPressure: Generated<boolean>;
  woundPacking: Generated<boolean>;
  haemostaticDressing: Generated<boolean>;
  tourniquetApplication: Generated<boolean>;
  pelvicBinder: Generated<boolean>;
  // Trauma
  spinalImmobilization: Generated<boolean>;
  cervicalCollar: Generated<boolean>;
  scoopStretcher: Generated<boolean>;
  longSpineBoard: Generated<boolean>;
  vacuumMattress: Generated<boolean>;
  splintingTechniques: Generated<boolean>;
  tractionSplint: Generated<boolean>;
  slingApplied: Generated<boolean>;
  woundCare: Generated<boolean>;
  burnTreatment: Generated<boolean>;
  eyeIrrigation: Generated<boolean>;
  // Medical
  bloodGlucoseTest: Generated<boolean>;
  glucogelAdministered: Generated<boolean>;
  epiPenUsed: Generated<boolean>;
  aspirinGiven: Generated<boolean>;
  ecg12Lead: Generated<boolean>;
  cardiacMonitoring: Generated<boolean>;
  pulseOximetry: Generated<boolean>;
  // Environment and other
  coolingMeasures: Generated<boolean>;
  warmingMeasures: Generated<boolean>;
  decontamination: Generated<boolean>;
  emergencyChildbirth: Generated<boolean>;
  neonatalCare: Generated<boolean>;
  extrication: Generated<boolean>;
  recoveryPosition: Generated<boolean>;
  psychologicalSupport: Generated<boolean>;
}

/** Head-to-toe exam: per region, whether examined, whether a finding was made, and notes. */
export interface CaseBodyRegionExam {
  headExamined: Generated<boolean>;
  headAbnormal: boolean | null;
  headNotes: string | null;
  neckExamined: Generated<boolean>;
  neckAbnormal: boolean | null;
  neckNotes: string | null;
  chestExamined: Generated<boolean>;
  chestAbnormal: boolean | null;
  chestNotes: string | null;
  abdomenExamined: Generated<boolean>;
  abdomenAbnormal: boolean | null;
  abdomenNotes: string | null;
  pelvisExamined: Generated<boolean>;
  pelvisAbnormal: boolean | null;
  pelvisNotes: string | null;
  backExamined: Generated<boolean>;
  backAbnormal: boolean | null;
  backNotes: string | null;
  extremitiesExamined: Generated<boolean>;
  extremitiesAbnormal: boolean | null;
  extremitiesNotes: string | null;
}

export interface CasesTable extends CaseInterventions, CaseBodyRegionExam, SyncColumns, LwwColumns {
  id: Generated<string>;
  /** Human id generated on the device, readable on a radio call; unique. */
  caseId: string;
  // Patient
  patientName: string | null;
  /** Years (0 for infants under one). */
  approximateAge: number | null;
  patientGender: string | null;
  incidentType: string | null;
  hasMedicalAid: boolean | null;
  medicalAidProvider: string | null;
  // Responder
  responderName: string | null;
  responderCallSign: string | null;
  responderArrivalTime: Timestamptz | null;
  // Caller
  callerName: string | null;
  callerPhone: string | null;
  callReceivedTime: Timestamptz | null;
  // Incident; numeric(10,8) / numeric(11,8)
  incidentDescription: string | null;
  incidentLocation: string | null;
  incidentLatitude: Numeric | null;
  incidentLongitude: Numeric | null;
  // Transport
  ambulanceId: string | null;
  arrivalTime: Timestamptz | null;
  receivingHospital: string | null;
  transportPriority: string | null;
  departureTime: Timestamptz | null;
  hospitalArrivalTime: Timestamptz | null;
  patientRefusedTransport: Generated<boolean>;
  // History (SAMPLE); last oral intake time is as the patient reports it, so free text
  allergies: string | null;
  medications: string | null;
  pastHistory: string | null;
  lastMealTime: string | null;
  lastMealContent: string | null;
  eventsLeadingUp: string | null;
  // Treatment
  treatmentProvided: string | null;
  medicationsGiven: string | null;
  proceduresPerformed: string | null;
  // Symptoms and findings
  symptoms: Generated<JsonArray<string>>;
  subjectiveSymptoms: string | null;
  objectiveSymptoms: string | null;
  additionalFindings: string | null;
  additionalNotes: string | null;
  // Primary survey (domain.md order: Hazard, Hello, Help, Hemorrhage, A, B, C)
  sceneSafe: boolean | null;
  avpu: string | null;
  helpCalled: boolean | null;
  airwayStatus: string | null;
  breathingStatus: string | null;
  circulationStatus: string | null;
  // GCS: eye 1-4, verbal 1-5 (null with gcsVerbalIntubated = 'T'), motor 1-6, total 3-15
  gcsEyeOpening: number | null;
  gcsVerbalResponse: number | null;
  gcsVerbalIntubated: Generated<boolean>;
  gcsMotorResponse: number | null;
  gcsTotal: number | null;
  // Hemorrhaging
  hemorrhagingActive: boolean | null;
  hemorrhagingLocation: string | null;
  hemorrhagingLocationOther: string | null;
  hemorrhagingType: string | null;
  hemorrhagingSeverity: string | null;
  hemorrhagingControlStatus: string | null;
  hemorrhagingInterventions: Generated<JsonArray<string>>;
  hemorrhagingInterventionOther: string | null;
  tourniquetApplicationTime: Timestamptz | null;
  // Others
  respiratoryRate: number | null;
  /** Seconds, numeric(4,1). */
  capillaryRefillTime: Numeric | null;
  /** Spec spelling kept. */
  pupilResponsesiveness: string | null;
  painScore: number | null;
  triageStatus: string | null;
  // Multi-patient
  isMultiPatientIncident: Generated<boolean>;
  multiPatientIncidentType: string | null;
  multiPatientDescription: string | null;
  /** Seconds. */
  incidentDuration: number | null;
  totalPatients: number | null;
  triageCounts: Generated<JsonObject<Record<string, number>>>;
  incidentPatients: Generated<JsonArray<JsonValue>>;
  // Stroke BE-FAST
  fastFaceDropping: boolean | null;
  fastArmWeakness: boolean | null;
  fastSpeechDifficulty: boolean | null;
  fastBalanceLoss: boolean | null;
  fastVisionLoss: boolean | null;
  fastTimeNoted: Timestamptz | null;
  // OPQRST (spec names)
  onset: string | null;
  provocation: string | null;
  quality: string | null;
  region: string | null;
  severity: string | null;
  timing: string | null;
  // Neuro reassessment
  neuroReassessmentTime: Timestamptz | null;
  neuroAvpu: string | null;
  neuroGcsTotal: number | null;
  neuroPupils: string | null;
  neuroMotorFunction: string | null;
  neuroSensoryFunction: string | null;
  neuroNotes: string | null;
  // Lifecycle
  status: Generated<RecordStatus>;
  createdAt: Generated<Timestamptz>;
  completedAt: Timestamptz | null;
  userId: number;
  updatedBy: number | null;
}

/** One reading per row, append-only: a correction voids the row and adds a new one. */
export interface VitalSignsTable extends SyncColumns {
  id: Generated<string>;
  /** The case's uuid (cases.id). */
  caseId: string;
  type: string;
  value: string;
  numericValue: Numeric | null;
  /** e.g. 'normal', 'low', 'high'. */
  status: string | null;
  timestamp: Timestamptz;
  notes: string | null;
  voidedAt: Timestamptz | null;
  voidReason: string | null;
  userId: number;
  createdAt: Generated<Timestamptz>;
}

export interface CprSessionsTable extends SyncColumns, LwwColumns {
  id: Generated<string>;
  /** Human id, unique. */
  sessionId: string;
  /** Optional link to the patient case (cases.id). */
  caseId: string | null;
  startTime: Timestamptz;
  endTime: Timestamptz | null;
  /** Seconds. */
  totalDuration: number | null;
  patientAge: string | null;
  incidentLocation: string | null;
  eventsLeadingUp: string | null;
  /** Spec field: a summary snapshot. The authoritative log is cpr_events (one row per event). */
  events: Generated<JsonArray<JsonValue>>;
  status: Generated<RecordStatus>;
  createdAt: Generated<Timestamptz>;
  completedAt: Timestamptz | null;
  userId: number;
  /** How it ended (the ending event sets it): 'rosc' or 'terminated'; null while running. */
  outcome: 'rosc' | 'terminated' | null;
  /** Utstein: arrest witnessed / bystander CPR (null: not recorded). */
  witnessed: boolean | null;
  bystanderCpr: boolean | null;
}

/** Append-only: a correction is a new event whose voidsEventId names the wrong one. */
export interface CprEventsTable extends SyncColumns {
  id: Generated<string>;
  /** cpr_sessions.id */
  cprSessionId: string;
  /** e.g. 'start', 'rhythm_check', 'shock', 'adrenaline', 'amiodarone', 'airway', 'rosc'… */
  type: string;
  at: Timestamptz;
  details: Generated<JsonObject<Record<string, JsonValue>>>;
  voidsEventId: string | null;
  userId: number;
  createdAt: Generated<Timestamptz>;
}

/** Internal SOPs (decision 080): one published version each, append-only. */
export interface SopVersionsTable extends SyncColumns {
  id: Generated<string>;
  /** The SOP: its first version's id. */
  sopId: string;
  /** 1, 2, …: numbered by the server in publishing order. */
  revision: number;
  title: string;
  category: string;
  /** The simple formatting of sync-protocol reference/sop-markup.ts, never HTML. */
  body: string;
  userId: number;
  createdAt: Generated<Timestamptz>;
}

/** A member's "read and understood" of one SOP version. */
export interface SopAcknowledgementsTable extends SyncColumns {
  id: Generated<string>;
  sopVersionId: string;
  sopId: string;
  revision: number;
  userId: number;
  createdAt: Generated<Timestamptz>;
}

export interface IncidentReportsTable extends SyncColumns, LwwColumns {
  id: Generated<string>;
  /** Human id, unique. */
  incidentId: string;
  incidentType: string;
  title: string | null;
  description: string | null;
  location: string | null;
  latitude: Numeric | null;
  longitude: Numeric | null;
  responderName: string | null;
  responderCallSign: string | null;
  typeSpecificData: Generated<JsonObject<Record<string, JsonValue>>>;
  status: Generated<RecordStatus>;
  priority: Generated<NotificationPriority>;
  additionalNotes: string | null;
  mediaUrls: Generated<JsonArray<string>>;
  /** Strings, as the spec has them. */
  incidentStartTime: string | null;
  incidentEndTime: string | null;
  /** When it was completed (and locked); 2026-12-08T1300. */
  completedAt: Timestamptz | null;
  createdAt: Generated<Timestamptz>;
  userId: number;
}

/** Corrections to a completed (locked) incident report (2026-12-08T1300). */
export interface IncidentReportAddendaTable extends SyncColumns {
  id: string;
  /** incident_reports.id */
  incidentReportId: string;
  /** Author. */
  userId: number;
  authorName: string | null;
  authorCallSign: string | null;
  reason: string;
  changes: Generated<JsonArray<CaseAddendumChange>>;
  createdAt: Generated<Timestamptz>;
}

/** Mass-casualty incident; casualties are rows in mci_casualties, counts derive from them. */
export interface MciIncidentsTable extends SyncColumns, LwwColumns {
  id: Generated<string>;
  /** Human id, unique. */
  incidentId: string;
  incidentType: string | null;
  description: string | null;
  location: string | null;
  latitude: Numeric | null;
  longitude: Numeric | null;
  startedAt: Timestamptz;
  endedAt: Timestamptz | null;
  resources: Generated<JsonArray<JsonValue>>;
  status: Generated<RecordStatus>;
  createdAt: Generated<Timestamptz>;
  completedAt: Timestamptz | null;
  userId: number;
  /** METHANE (2026-12-08T1200-mci-command): major incident declared, hazards, access,
   * estimated number of casualties, emergency services present and required. */
  majorIncident: boolean | null;
  hazards: string | null;
  access: string | null;
  casualtyEstimate: number | null;
  emergencyServices: string | null;
  triageScale: Generated<'START' | 'SATS'>;
}

export type TriageColour = 'RED' | 'ORANGE' | 'YELLOW' | 'GREEN' | 'BLUE' | 'GREY' | 'BLACK';

export interface MciCasualtiesTable extends SyncColumns, LwwColumns {
  id: Generated<string>;
  /** mci_incidents.id */
  mciIncidentId: string;
  tagNumber: string;
  triageColour: TriageColour;
  description: string | null;
  location: string | null;
  /** Link to a full patient case (cases.id). */
  caseId: string | null;
  transportDestination: string | null;
  transported: Generated<boolean>;
  transportedAt: Timestamptz | null;
  userId: number;
  createdAt: Generated<Timestamptz>;
  assignedTo: string | null;
  ambulance: string | null;
}

/** One triage of a casualty, append-only: re-triage adds a row naming the rows it saw. */
export interface MciTriagesTable extends SyncColumns {
  id: Generated<string>;
  mciIncidentId: string;
  mciCasualtyId: string;
  colour: TriageColour;
  method: 'tag' | 'START' | 'JumpSTART';
  proposedColour: TriageColour | null;
  answers: Generated<JsonObject<Record<string, string>>>;
  previousTriageIds: Generated<JsonArray<string>>;
  triagedAt: Timestamptz;
  responderName: string | null;
  userId: number;
  createdAt: Generated<Timestamptz>;
}

export interface CaseAddendumChange {
  field: string;
  before: JsonValue;
  after: JsonValue;
}

/** Corrections to a completed (locked) case. */
export interface CaseAddendaTable extends SyncColumns {
  id: Generated<string>;
  /** cases.id */
  caseId: string;
  /** Author. */
  userId: number;
  /** The author's full name and call sign when the server applied it (null on rows from
   * before 2026-11-21T0850: the author is then known by user id only). */
  authorName: string | null;
  authorCallSign: string | null;
  reason: string;
  changes: Generated<JsonArray<CaseAddendumChange>>;
  createdAt: Generated<Timestamptz>;
}

// ---------------------------------------------------------------------------------------
// Sync bookkeeping
// ---------------------------------------------------------------------------------------

export interface DevicesTable {
  deviceId: string;
  userId: number;
  /** Highest mutation seq applied from this device; seq <= this is a duplicate. */
  lastAppliedSeq: Generated<Int8>;
  userAgent: string | null;
  createdAt: Generated<Timestamptz>;
  lastSeenAt: Generated<Timestamptz>;
}

export interface SyncRejectionsTable {
  id: Generated<Int8>;
  deviceId: string;
  seq: Int8;
  mutationId: string;
  /** A stable reason code. */
  reason: string;
  details: Generated<JsonObject<Record<string, JsonValue>>>;
  createdAt: Generated<Timestamptz>;
}

export interface SyncConflictsTable {
  id: Generated<Int8>;
  /** Table name, e.g. 'cases'. */
  entityType: string;
  entityId: string;
  field: string;
  baseVersion: Int8 | null;
  serverValue: ColumnType<JsonValue, string, string>;
  clientValue: ColumnType<JsonValue, string, string>;
  serverAuthor: number | null;
  clientAuthor: number | null;
  createdAt: Generated<Timestamptz>;
  resolvedAt: Timestamptz | null;
  resolvedBy: number | null;
  resolution: string | null;
  /** The record's kind (registry), e.g. 'case'. */
  recordKind: string;
  /** Both authors' names when it happened (the device shows who, offline). */
  serverAuthorName: string | null;
  clientAuthorName: string | null;
  /** Synced to the devices of both authors and of whoever may settle it (decision 015). */
  version: Generated<Int8>;
  updatedAt: Generated<Timestamptz>;
  deletedAt: Timestamptz | null;
}

export interface AppliedMutationsTable {
  mutationId: string;
  deviceId: string;
  seq: Int8;
  appliedAt: Generated<Timestamptz>;
}

/** A medical supply (spec §3 medical_inventory); stock on hand is its movements' sum. */
export interface InventoryItemsTable extends SyncColumns, LwwColumns {
  id: Generated<string>;
  description: string;
  /** numeric(12,3) */
  minimumQty: Generated<Numeric>;
  category: string | null;
  unit: Generated<string>;
  notes: string | null;
  /** 'station' | 'vehicle' | 'bag' */
  location: Generated<string>;
  locationName: string | null;
  createdAt: Generated<Timestamptz>;
  userId: number;
}

/** A lot of an item with its expiry date. */
export interface InventoryBatchesTable extends SyncColumns, LwwColumns {
  id: Generated<string>;
  /** inventory_items.id */
  itemId: string;
  lot: string | null;
  expiryDate: DateOnly | null;
  createdAt: Generated<Timestamptz>;
  userId: number;
}

/** Append-only: one signed change in an item's stock. */
export interface InventoryMovementsTable extends SyncColumns {
  id: Generated<string>;
  /** inventory_items.id */
  itemId: string;
  /** inventory_batches.id */
  batchId: string | null;
  /** numeric(12,3), signed: positive = received. */
  quantity: Numeric;
  reason: string;
  /** cases.id the stock was used on (not a foreign key: the case may sync later). */
  caseId: string | null;
  at: Timestamptz;
  note: string | null;
  belowZero: Generated<boolean>;
  createdAt: Generated<Timestamptz>;
  userId: number;
}

// ---------------------------------------------------------------------------------------

export interface Database {
  roles: RolesTable;
  users: UsersTable;
  sessions: SessionsTable;
  authEpoch: AuthEpochTable;
  rateLimits: RateLimitsTable;
  auditLog: AuditLogTable;
  uploads: UploadsTable;
  systemSettings: SystemSettingsTable;
  notifications: NotificationsTable;
  pushSubscriptions: PushSubscriptionsTable;
  notificationDeliveries: NotificationDeliveriesTable;
  notificationPushes: NotificationPushesTable;
  cases: CasesTable;
  vitalSigns: VitalSignsTable;
  cprSessions: CprSessionsTable;
  cprEvents: CprEventsTable;
  incidentReports: IncidentReportsTable;
  incidentReportAddenda: IncidentReportAddendaTable;
  mciIncidents: MciIncidentsTable;
  mciCasualties: MciCasualtiesTable;
  mciTriages: MciTriagesTable;
  caseAddenda: CaseAddendaTable;
  sopVersions: SopVersionsTable;
  sopAcknowledgements: SopAcknowledgementsTable;
  inventoryItems: InventoryItemsTable;
  inventoryBatches: InventoryBatchesTable;
  inventoryMovements: InventoryMovementsTable;
  devices: DevicesTable;
  syncRejections: SyncRejectionsTable;
  syncConflicts: SyncConflictsTable;
  appliedMutations: AppliedMutationsTable;
}

/**
 * The tables that are not synced records: the platform's own (accounts, audit, notifications,
 * sync bookkeeping). Every other table of Database belongs to a record
 * kind of the app's registry (sync-protocol); api/src/plugins/app/record-tables.ts holds the
 * two lists together by the compiler, and the migration tests use them to know which tables
 * the migrations make.
 */
export const PLATFORM_TABLES = [
  'roles',
  'users',
  'sessions',
  'authEpoch',
  'rateLimits',
  'auditLog',
  'uploads',
  'systemSettings',
  'notifications',
  'pushSubscriptions',
  'notificationDeliveries',
  'notificationPushes',
  'devices',
  'syncRejections',
  'appliedMutations',
] as const satisfies readonly (keyof Database)[];
export type PlatformTable = (typeof PLATFORM_TABLES)[number];

/** What repository functions take first, so a service can run several in one transaction. */
export type DbExecutor = Kysely<Database> | Transaction<Database>;

export type Role = Selectable<RolesTable>;
export type NewRole = Insertable<RolesTable>;
export type RoleUpdate = Updateable<RolesTable>;
export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type NewSession = Insertable<SessionsTable>;
export type SessionUpdate = Updateable<SessionsTable>;
export type RateLimit = Selectable<RateLimitsTable>;
export type NewRateLimit = Insertable<RateLimitsTable>;
export type RateLimitUpdate = Updateable<RateLimitsTable>;
export type AuditEntry = Selectable<AuditLogTable>;
export type NewAuditEntry = Insertable<AuditLogTable>;
export type Upload = Selectable<UploadsTable>;
export type NewUpload = Insertable<UploadsTable>;
export type UploadUpdate = Updateable<UploadsTable>;
export type SystemSetting = Selectable<SystemSettingsTable>;
export type NewSystemSetting = Insertable<SystemSettingsTable>;
export type SystemSettingUpdate = Updateable<SystemSettingsTable>;
export type Notification = Selectable<NotificationsTable>;
export type NewNotification = Insertable<NotificationsTable>;
export type NotificationUpdate = Updateable<NotificationsTable>;
export type PushSubscription = Selectable<PushSubscriptionsTable>;
export type NewPushSubscription = Insertable<PushSubscriptionsTable>;
export type PushSubscriptionUpdate = Updateable<PushSubscriptionsTable>;
export type NotificationDelivery = Selectable<NotificationDeliveriesTable>;
export type NewNotificationDelivery = Insertable<NotificationDeliveriesTable>;
export type NotificationDeliveryUpdate = Updateable<NotificationDeliveriesTable>;
export type NotificationPush = Selectable<NotificationPushesTable>;
export type Case = Selectable<CasesTable>;
export type NewCase = Insertable<CasesTable>;
export type CaseUpdate = Updateable<CasesTable>;
export type VitalSign = Selectable<VitalSignsTable>;
export type NewVitalSign = Insertable<VitalSignsTable>;
export type VitalSignUpdate = Updateable<VitalSignsTable>;
export type CprSession = Selectable<CprSessionsTable>;
export type NewCprSession = Insertable<CprSessionsTable>;
export type CprSessionUpdate = Updateable<CprSessionsTable>;
export type CprEvent = Selectable<CprEventsTable>;
export type NewCprEvent = Insertable<CprEventsTable>;
export type CprEventUpdate = Updateable<CprEventsTable>;
export type IncidentReport = Selectable<IncidentReportsTable>;
export type NewIncidentReport = Insertable<IncidentReportsTable>;
export type IncidentReportUpdate = Updateable<IncidentReportsTable>;
export type MciIncident = Selectable<MciIncidentsTable>;
export type NewMciIncident = Insertable<MciIncidentsTable>;
export type MciIncidentUpdate = Updateable<MciIncidentsTable>;
export type MciCasualty = Selectable<MciCasualtiesTable>;
export type NewMciCasualty = Insertable<MciCasualtiesTable>;
export type MciCasualtyUpdate = Updateable<MciCasualtiesTable>;
export type MciTriage = Selectable<MciTriagesTable>;
export type CaseAddendum = Selectable<CaseAddendaTable>;
export type NewCaseAddendum = Insertable<CaseAddendaTable>;
export type CaseAddendumUpdate = Updateable<CaseAddendaTable>;
export type Device = Selectable<DevicesTable>;
export type NewDevice = Insertable<DevicesTable>;
export type DeviceUpdate = Updateable<DevicesTable>;
export type SyncRejection = Selectable<SyncRejectionsTable>;
export type NewSyncRejection = Insertable<SyncRejectionsTable>;
export type SyncConflict = Selectable<SyncConflictsTable>;
export type NewSyncConflict = Insertable<SyncConflictsTable>;
export type SyncConflictUpdate = Updateable<SyncConflictsTable>;
export type AppliedMutation = Selectable<AppliedMutationsTable>;
export type NewAppliedMutation = Insertable<AppliedMutationsTable>;
