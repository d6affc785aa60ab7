// What a case needs before it can be completed (and locked). Capture never blocks: these
// problems only stop Complete Case, which lists each with a link to its field. The device
// runs this before sending case.complete and the server runs it again on case.complete, so
// it is pure and works on the case as either holds it.
//
// Required set. Every patient treated or conveyed must have a patient care record (EMS
// Regulations 2017, reg 27); a record that can stand for that has to say who the patient
// was, what happened where and when, how ill they were, what was measured, and where they
// went. So completion requires:
// - patient details: incident type; incident location (typed, or GPS coordinates);
//   approximate age (an estimate is fine, and it picks the age-banded vital ranges);
//   gender. The patient's name is NOT required: unknown patients are common and are
//   documented all the same.
// - primary survey: a level of consciousness (AVPU, or a full GCS); a triage status.
// - secondary survey: at least one vital sign reading that is not voided.
// - response details: call received and responder arrival times; and either the patient
//   refused transport, or the receiving hospital and the transport priority.
// Consistency rules (only when the triggering answer is given):
// - times in order: call received ≤ responder arrival ≤ departure ≤ hospital arrival, and
//   call received ≤ ambulance arrival ≤ departure;
// - medical aid provider when the patient has medical aid;
// - catastrophic bleeding: its location, severity and control status; the 'other' texts
//   when 'other' is chosen; a tourniquet time when a tourniquet was applied (intervention
//   checklist or bleeding-control list);
// - BE-FAST: the time noted / last known well when any sign is positive;
// - GCS: eye, verbal (or intubated) and motor all or none, intubated with no verbal score,
//   and a stored total that matches them.
// Problems come in step order, then in the order the fields appear on the step; at most
// one per field. Messages are short and say what to do.
import type { CaseField, CaseRecord } from './case-schema';
import { CASE_STEP_KEYS, type CaseStepKey } from './steps';
import { CASE_FIELD_LABELS, CASE_FIELD_ORDER, FIELD_STEP } from './fields';
import { computeGcsTotal, gcsPartsOf, isGcsEmpty } from './gcs';

export type CaseLike = Partial<CaseRecord>;
export type VitalLike = { voidedAt?: string | null; deletedAt?: string | null; type: string };

export type CompletionField = CaseField | 'vitalSigns';

export interface CompletionProblem {
  field: CompletionField;
  step: CaseStepKey;
  message: string;
}

/** Where the vital signs are entered (their list's DOM id is fieldDomId('vitalSigns')). */
export const VITAL_SIGNS_STEP: CaseStepKey = 'secondary-survey';

/**
 * Fields a screen marks with '*'. receivingHospital and transportPriority are required
 * unless the patient refused transport; avpu stands for "a level of consciousness" (a full
 * GCS also satisfies it); incidentLocation can be satisfied by GPS coordinates.
 */
export const REQUIRED_FOR_COMPLETION: readonly CompletionField[] = [
  'incidentType',
  'incidentLocation',
  'approximateAge',
  'patientGender',
  'avpu',
  'triageStatus',
  'vitalSigns',
  'callReceivedTime',
  'responderArrivalTime',
  'receivingHospital',
  'transportPriority',
];

function stepOf(field: CompletionField): CaseStepKey {
  return field === 'vitalSigns' ? VITAL_SIGNS_STEP : FIELD_STEP[field];
}

function blank(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function isOther(value: string | null | undefined): boolean {
  return typeof value === 'string' && /^other\b/i.test(value.trim());
}

function timeOf(value: string | null | undefined): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : null;
}

/** True when a tourniquet was applied, by the checklist or the bleeding-control list. */
export function tourniquetApplied(c: CaseLike): boolean {
  return (
    c.tourniquetApplication === true ||
    (c.hemorrhagingInterventions ?? []).some((i) => /tourniquet/i.test(i))
  );
}

export const BE_FAST_SIGNS = [
  'fastBalanceLoss',
  'fastVisionLoss',
  'fastFaceDropping',
  'fastArmWeakness',
  'fastSpeechDifficulty',
] as const satisfies readonly CaseField[];

/** True when any BE-FAST sign is recorded as present. */
export function beFastPositive(c: CaseLike): boolean {
  return BE_FAST_SIGNS.some((f) => c[f] === true);
}

/** AVPU, or a full GCS (all parts needed for a total). */
export function hasLevelOfConsciousness(c: CaseLike): boolean {
  return !blank(c.avpu) || computeGcsTotal(gcsPartsOf(c)) !== null;
}

export function countsAsVitalReading(v: VitalLike): boolean {
  return !v.voidedAt && !v.deletedAt;
}

/** The response times, in the order they happen. */
export type ResponseTimeField =
  | 'callReceivedTime'
  | 'responderArrivalTime'
  | 'arrivalTime'
  | 'departureTime'
  | 'hospitalArrivalTime';

/** Times that must not run backwards: each pair is [earlier, later] (completion refuses a
 * case that breaks one; the Response Details step warns as they are typed). */
export const TIME_ORDER: readonly (readonly [ResponseTimeField, ResponseTimeField])[] = [
  ['callReceivedTime', 'responderArrivalTime'],
  ['callReceivedTime', 'arrivalTime'],
  ['callReceivedTime', 'departureTime'],
  ['callReceivedTime', 'hospitalArrivalTime'],
  ['responderArrivalTime', 'departureTime'],
  ['responderArrivalTime', 'hospitalArrivalTime'],
  ['arrivalTime', 'departureTime'],
  ['arrivalTime', 'hospitalArrivalTime'],
  ['departureTime', 'hospitalArrivalTime'],
];

const lower = (field: CaseField) => CASE_FIELD_LABELS[field].toLowerCase();

/** Every problem that stops completion; [] means the case can be completed. */
export function validateCaseForCompletion(
  c: CaseLike,
  vitals: readonly VitalLike[],
): CompletionProblem[] {
  const problems: CompletionProblem[] = [];
  const add = (field: CompletionField, message: string) => {
    if (problems.some((p) => p.field === field)) return;
    problems.push({ field, step: stepOf(field), message });
  };
  const need = (field: CaseField, message: string) => {
    if (blank(c[field])) add(field, message);
  };

  // Patient details
  need('incidentType', 'Enter the incident type');
  const hasCoordinates =
    typeof c.incidentLatitude === 'number' && typeof c.incidentLongitude === 'number';
  if (blank(c.incidentLocation) && !hasCoordinates) {
    add('incidentLocation', 'Enter the incident location or capture the GPS position');
  }
  need('approximateAge', "Enter the patient's approximate age");
  need('patientGender', "Select the patient's gender");
  if (c.hasMedicalAid === true) need('medicalAidProvider', 'Enter the medical aid provider');

  // Primary survey
  if (!hasLevelOfConsciousness(c)) {
    add('avpu', 'Record the level of consciousness (AVPU or a full GCS)');
  }
  need('triageStatus', 'Select a triage status');
  if (c.hemorrhagingActive === true) {
    need('hemorrhagingLocation', 'Enter where the bleeding is');
    if (isOther(c.hemorrhagingLocation)) {
      need('hemorrhagingLocationOther', 'Describe the other bleeding location');
    }
    need('hemorrhagingSeverity', 'Select how severe the bleeding is');
    need('hemorrhagingControlStatus', 'Select whether the bleeding is controlled');
  }
  if ((c.hemorrhagingInterventions ?? []).some((i) => isOther(i))) {
    need('hemorrhagingInterventionOther', 'Describe the other bleeding control');
  }
  if (tourniquetApplied(c)) {
    need('tourniquetApplicationTime', 'Enter the time the tourniquet was applied');
  }
  checkGcs(c, add);

  // Secondary survey
  if (beFastPositive(c)) {
    need('fastTimeNoted', 'Enter the time the stroke signs were noted (last known well)');
  }
  if (!vitals.some(countsAsVitalReading)) {
    add('vitalSigns', 'Record at least one set of vital signs');
  }

  // Response details
  need('callReceivedTime', 'Enter the time the call was received');
  need('responderArrivalTime', 'Enter the responder arrival time');
  if (c.patientRefusedTransport !== true) {
    need('receivingHospital', 'Enter the receiving hospital, or record that transport was refused');
    need(
      'transportPriority',
      'Select the transport priority, or record that transport was refused',
    );
  }
  for (const [earlier, later] of TIME_ORDER) {
    const a = timeOf(c[earlier] as string | null | undefined);
    const b = timeOf(c[later] as string | null | undefined);
    if (a !== null && b !== null && b < a) {
      add(later, `Check the ${lower(later)}: it is before the ${lower(earlier)}`);
    }
  }

  return sortProblems(problems);
}

function checkGcs(c: CaseLike, add: (field: CompletionField, message: string) => void): void {
  const parts = gcsPartsOf(c);
  if (parts.verbalIntubated && parts.verbal !== null) {
    add('gcsVerbalResponse', 'Clear the verbal score: the patient is marked intubated (VT)');
  }
  if (isGcsEmpty(parts)) {
    if (c.gcsTotal !== null && c.gcsTotal !== undefined) {
      add('gcsEyeOpening', 'Enter the GCS eye, verbal and motor scores, not only the total');
    }
    return;
  }
  if (parts.eye === null) add('gcsEyeOpening', 'Enter the GCS eye opening score');
  if (parts.verbal === null && !parts.verbalIntubated) {
    add('gcsVerbalResponse', 'Enter the GCS verbal score, or mark the patient intubated');
  }
  if (parts.motor === null) add('gcsMotorResponse', 'Enter the GCS motor score');
  const total = computeGcsTotal(parts);
  if (total !== null && c.gcsTotal !== total) {
    add('gcsTotal', `The GCS total should be ${total}: re-enter the GCS scores`);
  }
}

const FIELD_INDEX = new Map<CompletionField, number>(CASE_FIELD_ORDER.map((f, i) => [f, i]));

/** Step order, then the field's place on its step; vital signs come last on their step. */
export function sortProblems(problems: readonly CompletionProblem[]): CompletionProblem[] {
  const rank = (p: CompletionProblem) => [
    CASE_STEP_KEYS.indexOf(p.step),
    FIELD_INDEX.get(p.field) ?? Number.MAX_SAFE_INTEGER,
  ];
  return [...problems].sort((a, b) => {
    const [sa = 0, fa = 0] = rank(a);
    const [sb = 0, fb = 0] = rank(b);
    return sa - sb || fa - fb;
  });
}
