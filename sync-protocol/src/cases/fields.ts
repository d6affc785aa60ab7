// Case fields as a responder sees them: the label of every field, the capture step it is
// edited on (domain.md "Case steps"), the DOM id of its input (completion problems link to
// it) and its display text. Shared by the capture screens, the completed-case summary, the
// handover and the server.
import type { CaseField } from './case-schema';
import { BODY_REGIONS, type BodyRegion } from './clinical';
import { INTERVENTIONS, type Intervention } from './clinical';
import type { CaseStepKey } from './steps';
import { formatDateTime } from '../time';

export const INTERVENTION_LABELS: Record<Intervention, string> = {
  // Airway
  headTiltChinLift: 'Head tilt, chin lift',
  jawThrust: 'Jaw thrust',
  oropharyngealAirway: 'Oropharyngeal airway (OPA)',
  nasopharyngealAirway: 'Nasopharyngeal airway (NPA)',
  suctioning: 'Suctioning',
  supraglotticAirway: 'Supraglottic airway',
  endotrachealIntubation: 'Endotracheal intubation',
  foreignBodyRemoval: 'Foreign body removal',
  // Breathing
  oxygenAdministered: 'Oxygen administered',
  bagValveMaskVentilation: 'Bag-valve-mask ventilation',
  nebulisation: 'Nebulisation',
  cpapApplied: 'CPAP applied',
  chestSeal: 'Chest seal',
  needleDecompression: 'Needle decompression',
  // Circulation
  cprPerformed: 'CPR performed',
  aedUsed: 'AED used',
  manualDefibrillation: 'Manual defibrillation',
  ivAccess: 'IV access',
  ioAccess: 'IO access',
  ivFluids: 'IV fluids',
  bleedingControl: 'Bleeding control',
  directPressure: 'Direct pressure',
  woundPacking: 'Wound packing',
  haemostaticDressing: 'Haemostatic dressing',
  tourniquetApplication: 'Tourniquet applied',
  pelvicBinder: 'Pelvic binder',
  // Trauma
  spinalImmobilization: 'Spinal immobilisation',
  cervicalCollar: 'Cervical collar',
  scoopStretcher: 'Scoop stretcher',
  longSpineBoard: 'Long spine board',
  vacuumMattress: 'Vacuum mattress',
  splintingTechniques: 'Splinting',
  tractionSplint: 'Traction splint',
  slingApplied: 'Sling applied',
  woundCare: 'Wound care',
  burnTreatment: 'Burn treatment',
  eyeIrrigation: 'Eye irrigation',
  // Medical
  bloodGlucoseTest: 'Blood glucose test',
  glucogelAdministered: 'Glucose gel administered',
  epiPenUsed: 'Adrenaline auto-injector (EpiPen) used',
  aspirinGiven: 'Aspirin given',
  ecg12Lead: '12-lead ECG',
  cardiacMonitoring: 'Cardiac monitoring',
  pulseOximetry: 'Pulse oximetry',
  // Environment and other
  coolingMeasures: 'Cooling measures',
  warmingMeasures: 'Warming measures',
  decontamination: 'Decontamination',
  emergencyChildbirth: 'Emergency childbirth',
  neonatalCare: 'Neonatal care',
  extrication: 'Extrication',
  recoveryPosition: 'Recovery position',
  psychologicalSupport: 'Psychological support',
};

export const BODY_REGION_LABELS: Record<BodyRegion, string> = {
  head: 'Head',
  neck: 'Neck',
  chest: 'Chest',
  abdomen: 'Abdomen',
  pelvis: 'Pelvis',
  back: 'Back',
  extremities: 'Extremities',
};

const bodyRegionLabels = Object.fromEntries(
  BODY_REGIONS.flatMap((r) => [
    [`${r}Examined`, `${BODY_REGION_LABELS[r]} examined`],
    [`${r}Abnormal`, `${BODY_REGION_LABELS[r]} abnormal`],
    [`${r}Notes`, `${BODY_REGION_LABELS[r]} findings`],
  ]),
) as Record<`${BodyRegion}${'Examined' | 'Abnormal' | 'Notes'}`, string>;

/** A responder-facing label for every case field. */
export const CASE_FIELD_LABELS: Record<CaseField, string> = {
  // Patient
  patientName: 'Patient name',
  approximateAge: 'Approximate age',
  patientGender: 'Gender',
  incidentType: 'Incident type',
  hasMedicalAid: 'Has medical aid',
  medicalAidProvider: 'Medical aid provider',
  // Responder
  responderName: 'Responder name',
  responderCallSign: 'Responder call sign',
  responderArrivalTime: 'Responder arrival time',
  // Caller
  callerName: 'Caller name',
  callerPhone: 'Caller phone',
  callReceivedTime: 'Call received time',
  // Incident
  incidentDescription: 'Incident description',
  incidentLocation: 'Incident location',
  incidentLatitude: 'Latitude',
  incidentLongitude: 'Longitude',
  // Transport
  ambulanceId: 'Ambulance',
  arrivalTime: 'Ambulance arrival time',
  receivingHospital: 'Receiving hospital',
  transportPriority: 'Transport priority',
  departureTime: 'Departure time',
  hospitalArrivalTime: 'Hospital arrival time',
  patientRefusedTransport: 'Patient refused transport',
  // SAMPLE history
  allergies: 'Allergies',
  medications: 'Current medications',
  pastHistory: 'Past medical history',
  lastMealTime: 'Last oral intake (time)',
  lastMealContent: 'Last oral intake (what)',
  eventsLeadingUp: 'Events leading up',
  // Treatment
  treatmentProvided: 'Treatment provided',
  medicationsGiven: 'Medications given',
  proceduresPerformed: 'Procedures performed',
  ...INTERVENTION_LABELS,
  // Symptoms and findings
  symptoms: 'Signs and symptoms',
  subjectiveSymptoms: 'Subjective symptoms',
  objectiveSymptoms: 'Objective signs',
  additionalFindings: 'Additional findings',
  additionalNotes: 'Additional notes',
  // Primary survey
  sceneSafe: 'Scene safe',
  avpu: 'AVPU',
  helpCalled: 'Help called',
  airwayStatus: 'Airway',
  breathingStatus: 'Breathing',
  circulationStatus: 'Circulation',
  gcsEyeOpening: 'GCS eye opening',
  gcsVerbalResponse: 'GCS verbal response',
  gcsVerbalIntubated: 'Intubated (verbal not testable)',
  gcsMotorResponse: 'GCS motor response',
  gcsTotal: 'GCS total',
  hemorrhagingActive: 'Catastrophic bleeding',
  hemorrhagingLocation: 'Bleeding location',
  hemorrhagingLocationOther: 'Bleeding location (other)',
  hemorrhagingType: 'Bleeding type',
  hemorrhagingSeverity: 'Bleeding severity',
  hemorrhagingControlStatus: 'Bleeding control status',
  hemorrhagingInterventions: 'Bleeding control interventions',
  hemorrhagingInterventionOther: 'Bleeding control (other)',
  tourniquetApplicationTime: 'Tourniquet time',
  respiratoryRate: 'Respiratory rate',
  capillaryRefillTime: 'Capillary refill',
  pupilResponsesiveness: 'Pupils',
  painScore: 'Pain score',
  triageStatus: 'Triage status',
  // Multi-patient
  isMultiPatientIncident: 'Multi-patient incident',
  multiPatientIncidentType: 'Multi-patient incident type',
  multiPatientDescription: 'Multi-patient description',
  incidentDuration: 'Incident duration',
  totalPatients: 'Total patients',
  triageCounts: 'Patients by triage category',
  incidentPatients: 'Other patients',
  // BE-FAST
  fastFaceDropping: 'Face drooping',
  fastArmWeakness: 'Arm weakness',
  fastSpeechDifficulty: 'Speech difficulty',
  fastBalanceLoss: 'Balance loss',
  fastVisionLoss: 'Vision loss',
  fastTimeNoted: 'Last known well / time noted',
  // OPQRST
  onset: 'Onset',
  provocation: 'Provocation',
  quality: 'Quality',
  region: 'Region and radiation',
  severity: 'Severity',
  timing: 'Timing',
  // Body-region exam
  ...bodyRegionLabels,
  // Neuro reassessment
  neuroReassessmentTime: 'Neuro reassessment time',
  neuroAvpu: 'Neuro reassessment AVPU',
  neuroGcsTotal: 'Neuro reassessment GCS',
  neuroPupils: 'Neuro reassessment pupils',
  neuroMotorFunction: 'Motor function',
  neuroSensoryFunction: 'Sensory function',
  neuroNotes: 'Neuro reassessment notes',
};

const step = (key: CaseStepKey, fields: readonly CaseField[]) =>
  fields.map((f) => [f, key] as const);

/** The capture step each field is edited on (domain.md "Case steps"). */
export const FIELD_STEP: Record<CaseField, CaseStepKey> = Object.fromEntries([
  ...step('patient-details', [
    'patientName',
    'approximateAge',
    'patientGender',
    'incidentType',
    'hasMedicalAid',
    'medicalAidProvider',
    'responderName',
    'responderCallSign',
    'callerName',
    'callerPhone',
    'incidentDescription',
    'incidentLocation',
    'incidentLatitude',
    'incidentLongitude',
    'isMultiPatientIncident',
    'multiPatientIncidentType',
    'multiPatientDescription',
    'incidentDuration',
    'totalPatients',
    'triageCounts',
    'incidentPatients',
  ]),
  ...step('primary-survey', [
    'sceneSafe',
    'avpu',
    'helpCalled',
    'hemorrhagingActive',
    'hemorrhagingLocation',
    'hemorrhagingLocationOther',
    'hemorrhagingType',
    'hemorrhagingSeverity',
    'hemorrhagingControlStatus',
    'hemorrhagingInterventions',
    'hemorrhagingInterventionOther',
    'tourniquetApplicationTime',
    'airwayStatus',
    'breathingStatus',
    'respiratoryRate',
    'circulationStatus',
    'capillaryRefillTime',
    'gcsEyeOpening',
    'gcsVerbalResponse',
    'gcsVerbalIntubated',
    'gcsMotorResponse',
    'gcsTotal',
    'pupilResponsesiveness',
    'triageStatus',
  ]),
  ...step('secondary-survey', [
    'symptoms',
    'subjectiveSymptoms',
    'objectiveSymptoms',
    'allergies',
    'medications',
    'pastHistory',
    'lastMealTime',
    'lastMealContent',
    'eventsLeadingUp',
    'onset',
    'provocation',
    'quality',
    'region',
    'severity',
    'timing',
    'painScore',
    'fastFaceDropping',
    'fastArmWeakness',
    'fastSpeechDifficulty',
    'fastBalanceLoss',
    'fastVisionLoss',
    'fastTimeNoted',
    ...BODY_REGIONS.flatMap((r) => [`${r}Examined`, `${r}Abnormal`, `${r}Notes`] as const),
    'additionalFindings',
    'neuroReassessmentTime',
    'neuroAvpu',
    'neuroGcsTotal',
    'neuroPupils',
    'neuroMotorFunction',
    'neuroSensoryFunction',
    'neuroNotes',
  ]),
  ...step('treatment-provided', [
    ...INTERVENTIONS,
    'treatmentProvided',
    'medicationsGiven',
    'proceduresPerformed',
    'additionalNotes',
  ]),
  ...step('response-details', [
    'callReceivedTime',
    'responderArrivalTime',
    'arrivalTime',
    'departureTime',
    'hospitalArrivalTime',
    'ambulanceId',
    'receivingHospital',
    'transportPriority',
    'patientRefusedTransport',
  ]),
]) as Record<CaseField, CaseStepKey>;

/**
 * The order fields appear in on their steps (the lists above), used to order completion
 * problems and summaries the way the screens show them. (A field missing from the lists
 * above is caught by the fields test, which checks every CASE_FIELDS entry has a step.)
 */
export const CASE_FIELD_ORDER: readonly CaseField[] = Object.keys(FIELD_STEP) as CaseField[];

/** The DOM id of a field's input on its step: completion links go to `<step path>#field-x`. */
export function fieldDomId(field: CaseField | 'vitalSigns'): string {
  return `field-${field}`;
}

const TIME_FIELDS = new Set<CaseField>([
  'responderArrivalTime',
  'callReceivedTime',
  'arrivalTime',
  'departureTime',
  'hospitalArrivalTime',
  'tourniquetApplicationTime',
  'fastTimeNoted',
  'neuroReassessmentTime',
]);

export function isTimeField(field: CaseField): boolean {
  return TIME_FIELDS.has(field);
}

export const EMPTY_VALUE = '—';

const AVPU_LABELS: Record<string, string> = {
  A: 'A — Alert',
  V: 'V — Responds to voice',
  P: 'P — Responds to pain',
  U: 'U — Unresponsive',
};

/** True when a value holds nothing worth showing (null, blank text, empty list or map). */
export function isEmptyCaseValue(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}

function formatJson(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null || value === undefined) return '';
  if (Array.isArray(value))
    return value
      .map(formatJson)
      .filter((s) => s !== '')
      .join(', ');
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => !isEmptyCaseValue(v))
      .map(([k, v]) => `${k}: ${formatJson(v)}`)
      .join('; ');
  }
  return '';
}

/** Seconds (as cprSession.totalDuration) as '45 s', '12 min', '1 h 05 min'. */
export function formatDurationSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

function formatNumber(n: number): string {
  return Number.isInteger(n) ? String(n) : String(Math.round(n * 100) / 100);
}

/** Display text of a case field's value, '—' when empty. */
export function formatCaseValue(field: CaseField, value: unknown): string {
  if (isEmptyCaseValue(value)) return EMPTY_VALUE;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (TIME_FIELDS.has(field)) {
    return formatDateTime(
      typeof value === 'string' || value instanceof Date ? value : null,
      String(value),
    );
  }
  if (typeof value === 'number') {
    switch (field) {
      case 'approximateAge':
        return value === 0 ? 'Under 1 year' : value === 1 ? '1 year' : `${value} years`;
      case 'respiratoryRate':
        return `${value} /min`;
      case 'capillaryRefillTime':
        return `${formatNumber(value)} s`;
      case 'painScore':
        return `${value}/10`;
      case 'incidentDuration':
        return formatDurationSeconds(value);
      default:
        return formatNumber(value);
    }
  }
  if ((field === 'avpu' || field === 'neuroAvpu') && typeof value === 'string') {
    return AVPU_LABELS[value] ?? value;
  }
  if (field === 'incidentPatients' && Array.isArray(value)) {
    return value.length === 1 ? '1 patient' : `${value.length} patients`;
  }
  const text = formatJson(value);
  return text === '' ? EMPTY_VALUE : text;
}
