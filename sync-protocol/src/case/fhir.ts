// A patient case as an HL7 FHIR R4 Bundle (type `collection`), for handing a record to a
// hospital or another system. Pure: the web app builds it from the device's rows (offline) and
// the API from the server's rows, so both exports of one case are the same document.
// Mapping choices, codes and their sources: docs/decisions/008-fhir-export.md. Tests check the
// output with Medplum's R4 validator and HL7's own code systems (test/case/fhir.test.ts).
import type {
  AllergyIntolerance,
  Bundle,
  BundleEntry,
  CodeableConcept,
  Coding,
  Coverage,
  Encounter,
  Location,
  MedicationAdministration,
  MedicationStatement,
  Observation,
  ObservationComponent,
  Patient,
  Period,
  Practitioner,
  Procedure,
  Provenance,
  Quantity,
  Reference,
  Resource,
} from '@medplum/fhirtypes';
import {
  INTERVENTIONS,
  type Intervention,
  type VitalSignStatus,
  type VitalSignType,
} from '../records/clinical';
import { BODY_REGIONS } from '../records/clinical';
import { type CaseAddendumRecord } from '../records/case-addendum';
import { type CaseField, type CaseRecord } from '../records/case';
import { type VitalSignRecord } from '../records/vital-sign';
import { addendumAuthorLabel } from './addendum-author';
import { tourniquetApplied } from './completion';
import { BODY_REGION_LABELS, CASE_FIELD_LABELS, INTERVENTION_LABELS } from './fields';
import { computeGcsTotal, gcsPartsOf } from './gcs';

export type FhirBundle = Bundle;

// ---------------------------------------------------------------------------------------
// Code systems and identifiers
// ---------------------------------------------------------------------------------------

export const LOINC = 'http://loinc.org';
export const SNOMED_CT = 'http://snomed.info/sct';
export const UCUM = 'http://unitsofmeasure.org';
const OBSERVATION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/observation-category';
const INTERPRETATION = 'http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation';
const ACT_CODE = 'http://terminology.hl7.org/CodeSystem/v3-ActCode';
const DATA_ABSENT_REASON = 'http://terminology.hl7.org/CodeSystem/data-absent-reason';
const DATA_ABSENT_REASON_EXTENSION = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason';
const DATA_OPERATION = 'http://terminology.hl7.org/CodeSystem/v3-DataOperation';
const LOCATION_PHYSICAL_TYPE = 'http://terminology.hl7.org/CodeSystem/location-physical-type';
const ALLERGY_CLINICAL = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical';
const ALLERGY_VERIFICATION =
  'http://terminology.hl7.org/CodeSystem/allergyintolerance-verification';
const MEDICATION_STATEMENT_CATEGORY =
  'http://terminology.hl7.org/CodeSystem/medication-statement-category';

/** Encounter.identifier system: the human case number a crew reads over the radio. */
export const CASE_ID_SYSTEM = 'urn:rescuelog:case-id';
/** Practitioner.identifier system: a responder's call sign. */
export const CALL_SIGN_SYSTEM = 'urn:rescuelog:call-sign';
/** Provenance agent identifier system: the author of an addendum (an account id). */
export const USER_ID_SYSTEM = 'urn:rescuelog:user-id';
/**
 * Observation value system of the triage colour on the South African Triage Scale: no LOINC
 * or SNOMED CT code names the SATS colours (decision 008), so the colour is a local code.
 */
export const SATS_TRIAGE_SYSTEM = 'urn:rescuelog:sats-triage';

type ObservationCategory = 'vital-signs' | 'laboratory' | 'survey' | 'exam';

export interface VitalSignFhirCode {
  loinc: string;
  display: string;
  /** Further codings of the same reading (SpO2: the pulse oximetry code). */
  alsoCoded?: readonly Coding[];
  /** UCUM code of the value; `unit` is what a reader sees. */
  ucum: string;
  unit: string;
  category: ObservationCategory;
  /** The FHIR R4 core vital-signs profile this reading conforms to, when there is one. */
  profile?: string;
}

/**
 * LOINC code and UCUM unit of each vital sign type (decision 008 lists the sources). The
 * five with a FHIR R4 core vital-signs profile claim it, and the tests validate them
 * against it.
 */
export const VITAL_SIGN_FHIR_CODES: Record<VitalSignType, VitalSignFhirCode> = {
  heartRate: {
    loinc: '8867-4',
    display: 'Heart rate',
    ucum: '/min',
    unit: 'beats/minute',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/heartrate',
  },
  respiratoryRate: {
    loinc: '9279-1',
    display: 'Respiratory rate',
    ucum: '/min',
    unit: 'breaths/minute',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/resprate',
  },
  bloodPressure: {
    loinc: '85354-9',
    display: 'Blood pressure panel with all children optional',
    ucum: 'mm[Hg]',
    unit: 'mmHg',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/bp',
  },
  spo2: {
    loinc: '2708-6',
    display: 'Oxygen saturation in Arterial blood',
    alsoCoded: [
      {
        system: LOINC,
        code: '59408-5',
        display: 'Oxygen saturation in Arterial blood by Pulse oximetry',
      },
    ],
    ucum: '%',
    unit: '%',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/oxygensat',
  },
  temperature: {
    loinc: '8310-5',
    display: 'Body temperature',
    ucum: 'Cel',
    unit: '°C',
    category: 'vital-signs',
    profile: 'http://hl7.org/fhir/StructureDefinition/bodytemp',
  },
  bloodGlucose: {
    loinc: '15074-8',
    display: 'Glucose [Moles/volume] in Blood',
    ucum: 'mmol/L',
    unit: 'mmol/L',
    category: 'laboratory',
  },
  gcs: {
    loinc: '9269-2',
    display: 'Glasgow coma score total',
    ucum: '{score}',
    unit: '{score}',
    category: 'survey',
  },
  painScore: {
    loinc: '72514-3',
    display: 'Pain severity - 0-10 verbal numeric rating [Score] - Reported',
    ucum: '{score}',
    unit: '{score}',
    category: 'survey',
  },
  capillaryRefill: {
    loinc: '44963-7',
    display: 'Capillary refill [Time] of Nail bed',
    ucum: 's',
    unit: 's',
    category: 'exam',
  },
  etco2: {
    loinc: '19889-5',
    display: 'Carbon dioxide [Partial pressure] in Exhaled gas --at end expiration',
    ucum: 'mm[Hg]',
    unit: 'mmHg',
    category: 'vital-signs',
  },
};

export const BP_SYSTOLIC_LOINC = '8480-6';
export const BP_DIASTOLIC_LOINC = '8462-4';
export const GCS_EYE_LOINC = '9267-6';
export const GCS_VERBAL_LOINC = '9270-0';
export const GCS_MOTOR_LOINC = '9268-4';
export const AGE_LOINC = '30525-0';
/**
 * AVPU: LOINC's responsiveness assessment, as IHE's Paramedicine Care Summary uses it for
 * every AVPU reading (rather than the NEMSIS-method 67775-7), valued with SNOMED CT findings.
 */
export const AVPU_LOINC = '11454-6';
export const PAST_HISTORY_LOINC = '11348-0';
export const MEDICATION_HISTORY_LOINC = '10160-0';
export const PRESENT_ILLNESS_LOINC = '10164-2';

/** SNOMED CT findings for A, V, P and U (decision 008 lists the value sets they come from). */
export const AVPU_SNOMED: Record<'A' | 'V' | 'P' | 'U', Coding> = {
  A: { system: SNOMED_CT, code: '248234008', display: 'Mentally alert' },
  V: { system: SNOMED_CT, code: '300202002', display: 'Responds to voice' },
  P: { system: SNOMED_CT, code: '450847001', display: 'Responds to pain' },
  U: { system: SNOMED_CT, code: '422768004', display: 'Unresponsive' },
};
const AVPU_TEXT: Record<'A' | 'V' | 'P' | 'U', string> = {
  A: 'A — Alert',
  V: 'V — Responds to voice',
  P: 'P — Responds to pain',
  U: 'U — Unresponsive',
};

export const NO_KNOWN_ALLERGY: Coding = {
  system: SNOMED_CT,
  code: '716186003',
  display: 'No known allergy (situation)',
};
export const NO_KNOWN_DRUG_ALLERGY: Coding = {
  system: SNOMED_CT,
  code: '409137002',
  display: 'No known drug allergy (situation)',
};

/**
 * The primary survey's breathing status as LOINC's respiratory effort, as IHE's Paramedicine
 * Care Summary codes it; valued with the SNOMED CT findings of its Respiratory Effort value set
 * for the choices that name one ("Noisy" has none and stays text).
 */
export const RESPIRATORY_EFFORT_LOINC = '80341-1';
export const BREATHING_SNOMED: Readonly<Record<string, Coding>> = {
  normal: { system: SNOMED_CT, code: '1290338002', display: 'Normal respiratory effort' },
  laboured: { system: SNOMED_CT, code: '248549001', display: 'Labored breathing' },
  labored: { system: SNOMED_CT, code: '248549001', display: 'Labored breathing' },
  shallow: { system: SNOMED_CT, code: '386616007', display: 'Shallow breathing' },
  absent: { system: SNOMED_CT, code: '1023001', display: 'Apnea' },
};
/**
 * Pupil findings with a SNOMED CT code of their own (decision 008 lists the value sets); the
 * other choices ("Unequal", "Fixed and dilated", "Not assessable") stay text: one finding
 * each would claim less, or more, than the crew charted.
 */
export const PUPIL_SNOMED: Readonly<Record<string, Coding>> = {
  pearl: { system: SNOMED_CT, code: '386666001', display: 'Pupils equal and reacting to light' },
  sluggish: { system: SNOMED_CT, code: '421141009', display: 'Sluggish pupil movement' },
  pinpoint: { system: SNOMED_CT, code: '271608006', display: 'Pin point pupils' },
};

/** The South African Triage Scale colours the triage step offers, with their meaning. */
export const SATS_TRIAGE_LABELS: Record<string, string> = {
  RED: 'Red — Emergency',
  ORANGE: 'Orange — Very urgent',
  YELLOW: 'Yellow — Urgent',
  GREEN: 'Green — Routine',
  BLUE: 'Blue — Dead',
};

/**
 * SNOMED CT codes for the interventions whose code we checked against published uses (decision
 * 008); every other intervention is exported as text only rather than with a guessed code.
 */
export const INTERVENTION_SNOMED: Partial<Record<Intervention, Coding>> = {
  cprPerformed: {
    system: SNOMED_CT,
    code: '89666000',
    display: 'Cardiopulmonary resuscitation (procedure)',
  },
  oxygenAdministered: {
    system: SNOMED_CT,
    code: '57485005',
    display: 'Oxygen therapy (procedure)',
  },
  endotrachealIntubation: {
    system: SNOMED_CT,
    code: '112798008',
    display: 'Insertion of endotracheal tube (procedure)',
  },
  ecg12Lead: {
    system: SNOMED_CT,
    code: '268400002',
    display: '12 lead electrocardiogram (procedure)',
  },
};

const INTERPRETATIONS: Record<VitalSignStatus, Coding> = {
  high: { system: INTERPRETATION, code: 'H', display: 'High' },
  low: { system: INTERPRETATION, code: 'L', display: 'Low' },
  normal: { system: INTERPRETATION, code: 'N', display: 'Normal' },
};

const INTERPRETATIONS_SCREEN: Record<'POS' | 'NEG', Coding> = {
  POS: { system: INTERPRETATION, code: 'POS', display: 'Positive' },
  NEG: { system: INTERPRETATION, code: 'NEG', display: 'Negative' },
};
const EXAM_ABNORMAL: Coding = { system: INTERPRETATION, code: 'A', display: 'Abnormal' };

// What crews write for "none" and "not known" (an answer, not an allergy or a medicine).
const NO_KNOWN_ALLERGY_TEXT =
  /^(none|nil|no|nka|none known|no known allerg(y|ies)|no allerg(y|ies))\.?$/i;
const NO_KNOWN_DRUG_ALLERGY_TEXT = /^(nkda|no known drug allerg(y|ies)|no drug allerg(y|ies))\.?$/i;
const NO_MEDICATIONS =
  /^(none|nil|no|none known|no (chronic |regular |current )?medications?|no meds)\.?$/i;
const UNKNOWN_ANSWER = /^(unknown|unk|not known|n\/a|unable to obtain)\.?$/i;

// ---------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------

/** A vital sign row as the device or the server holds it (only what the export reads). */
export type FhirVitalSignInput = Pick<VitalSignRecord, 'id' | 'type' | 'value'> &
  Partial<Pick<VitalSignRecord, 'numericValue' | 'status' | 'timestamp' | 'notes' | 'voidedAt'>>;

export type FhirAddendumInput = Pick<CaseAddendumRecord, 'id' | 'reason'> & {
  changes: readonly { field: string }[];
  createdAt?: string | null | undefined;
  userId?: number | null | undefined;
  /** The author's name and call sign as the addendum carries them (decision 011). */
  authorName?: string | null | undefined;
  authorCallSign?: string | null | undefined;
};

export interface FhirExportInput {
  case: Partial<CaseRecord> & { id: string; caseId: string };
  /**
   * The case's readings. Voided ones are left out of the export (decision 008): a
   * collection bundle is a snapshot, nobody has received the wrong reading from us, and a
   * receiver that ignores `entered-in-error` would chart it.
   */
  vitals: readonly FhirVitalSignInput[];
  /** Addenda become Provenance entries (who corrected what, when and why). */
  addenda?: readonly FhirAddendumInput[] | undefined;
  /**
   * The responder when the case does not name one (the case's responderName and
   * responderCallSign win: they are what the crew documented).
   */
  responder?:
    { name?: string | null | undefined; callSign?: string | null | undefined } | undefined;
  generatedAt: Date;
}

// ---------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------

/**
 * A stable UUID (version 8, RFC 9562 "custom") from a name, so exporting a case twice gives
 * its resources the same ids. Not cryptographic; it only has to be stable and spread well.
 */
export function nameBasedUuid(name: string): string {
  const seeds = [0x811c9dc5, 0x01000193, 0x9e3779b9, 0x85ebca6b];
  const words = seeds.map((seed, lane) => {
    let h = (seed ^ (lane * 0x27d4eb2d)) >>> 0;
    for (let i = 0; i < name.length; i++) {
      h ^= name.charCodeAt(i);
      h = Math.imul(h, 0x01000193 + lane * 2);
    }
    // murmur3 finaliser: every input bit affects every output bit.
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    h ^= h >>> 16;
    return h >>> 0;
  });
  const hex = words.map((w) => w.toString(16).padStart(8, '0')).join('');
  const version = `8${hex.slice(13, 16)}`;
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16) + hex.slice(17, 20);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${version}-${variant}-${hex.slice(20, 32)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function text(value: string | null | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** A FHIR dateTime/instant (UTC, milliseconds), or undefined for anything unparseable. */
function dateTime(value: string | Date | null | undefined): string | undefined {
  if (value === null || value === undefined || value === '') return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

function isAfterOrSame(later: string, earlier: string): boolean {
  return Date.parse(later) >= Date.parse(earlier);
}

/** Patient.gender from what the responder picked or typed. */
export function fhirGender(value: string | null | undefined): Patient['gender'] {
  const v = text(value)?.toLowerCase();
  if (v === undefined) return undefined;
  if (['male', 'm', 'man', 'boy'].includes(v)) return 'male';
  if (['female', 'f', 'woman', 'girl'].includes(v)) return 'female';
  if (['unknown', 'u', 'not known', 'unsure'].includes(v)) return 'unknown';
  return 'other';
}

function isUnknownName(name: string | undefined): boolean {
  return name === undefined || /^(unknown|unk|not known|n\/a)$/i.test(name);
}

/** A plain decimal (no exponent, no sign other than minus) as FHIR's decimal allows. */
function parseDecimal(value: string): number | undefined {
  const v = value.trim().replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
}

function quantity(
  value: number,
  code: VitalSignFhirCode | { ucum: string; unit: string },
): Quantity {
  return { value, unit: code.unit, system: UCUM, code: code.ucum };
}

function category(code: ObservationCategory): CodeableConcept[] {
  const display = {
    'vital-signs': 'Vital Signs',
    laboratory: 'Laboratory',
    survey: 'Survey',
    exam: 'Exam',
  }[code];
  return [{ coding: [{ system: OBSERVATION_CATEGORY, code, display }] }];
}

function loinc(
  code: string,
  display: string,
  label?: string,
  extra: readonly Coding[] = [],
): CodeableConcept {
  return { coding: [{ system: LOINC, code, display }, ...extra], text: label ?? display };
}

interface Entry<T extends Resource> {
  uuid: string;
  resource: T;
}

function ref<T extends Resource>(entry: Entry<T>, display?: string): Reference<T> {
  return {
    reference: `urn:uuid:${entry.uuid}`,
    type: entry.resource.resourceType as Reference['type'],
    ...(display ? { display } : {}),
  };
}

function make<T extends Resource>(uuid: string, resource: T): Entry<T> {
  return { uuid, resource: { ...resource, id: uuid } };
}

// ---------------------------------------------------------------------------------------
// The bundle
// ---------------------------------------------------------------------------------------

/** The case as a FHIR R4 `collection` Bundle whose references all resolve inside it. */
export function buildFhirBundle(input: FhirExportInput): FhirBundle {
  const c = input.case;
  const caseKey = c.id.toLowerCase();
  const idFor = (kind: string) => nameBasedUuid(`rescuelog:${caseKey}:${kind}`);
  const generatedAt = input.generatedAt.toISOString();

  // Patient ------------------------------------------------------------------------------
  const name = text(c.patientName);
  const gender = fhirGender(c.patientGender);
  const patient = make<Patient>(idFor('patient'), {
    resourceType: 'Patient',
    // An unknown patient (unconscious, no identification) has a name "unknown", said so
    // explicitly rather than left empty.
    name: isUnknownName(name)
      ? [{ extension: [{ url: DATA_ABSENT_REASON_EXTENSION, valueCode: 'unknown' }] }]
      : [{ text: name }],
    ...(gender ? { gender } : {}),
    // No birthDate: an approximate age is not a date of birth (it is an Age observation).
  });
  const patientRef = ref(patient, isUnknownName(name) ? 'Unknown patient' : name);

  // Responder ----------------------------------------------------------------------------
  const responderName = text(c.responderName) ?? text(input.responder?.name);
  const callSign = text(c.responderCallSign) ?? text(input.responder?.callSign);
  const practitioner =
    responderName || callSign
      ? make<Practitioner>(idFor('responder'), {
          resourceType: 'Practitioner',
          ...(callSign ? { identifier: [{ system: CALL_SIGN_SYSTEM, value: callSign }] } : {}),
          ...(responderName ? { name: [{ text: responderName }] } : {}),
        })
      : undefined;
  const performerRef = practitioner ? ref(practitioner, responderName ?? callSign) : undefined;

  // Locations: the incident scene (with GPS), the ambulance, the receiving hospital -------
  const sceneText = text(c.incidentLocation);
  const hasPosition =
    typeof c.incidentLatitude === 'number' && typeof c.incidentLongitude === 'number';
  const scene =
    sceneText || hasPosition
      ? make<Location>(idFor('scene'), {
          resourceType: 'Location',
          name: sceneText ?? 'Incident scene',
          description: 'Incident scene',
          mode: 'instance',
          ...(hasPosition
            ? {
                position: {
                  latitude: c.incidentLatitude as number,
                  longitude: c.incidentLongitude as number,
                },
              }
            : {}),
        })
      : undefined;
  const ambulanceId = text(c.ambulanceId);
  const ambulance = ambulanceId
    ? make<Location>(idFor('ambulance'), {
        resourceType: 'Location',
        name: ambulanceId,
        description: 'Ambulance',
        mode: 'instance',
        physicalType: {
          coding: [{ system: LOCATION_PHYSICAL_TYPE, code: 've', display: 'Vehicle' }],
        },
      })
    : undefined;
  const hospitalName = text(c.receivingHospital);
  const hospital = hospitalName
    ? make<Location>(idFor('hospital'), {
        resourceType: 'Location',
        name: hospitalName,
        description: 'Receiving hospital',
      })
    : undefined;

  // Encounter ----------------------------------------------------------------------------
  const start = dateTime(c.callReceivedTime) ?? dateTime(c.responderArrivalTime);
  const refused = c.patientRefusedTransport === true;
  const endCandidate =
    dateTime(c.hospitalArrivalTime) ?? (refused ? dateTime(c.departureTime) : undefined);
  // A period ending before it starts is invalid FHIR (per-1); such times are a typing slip,
  // so the end is left out rather than the export refused.
  const end =
    endCandidate && (!start || isAfterOrSame(endCandidate, start)) ? endCandidate : undefined;
  const period: Period | undefined =
    start || end ? { ...(start ? { start } : {}), ...(end ? { end } : {}) } : undefined;
  const incidentType = text(c.incidentType);
  const priority = text(c.transportPriority);
  const encounter = make<Encounter>(idFor('encounter'), {
    resourceType: 'Encounter',
    identifier: [{ system: CASE_ID_SYSTEM, value: c.caseId }],
    status: c.status === 'completed' ? 'finished' : 'in-progress',
    class: { system: ACT_CODE, code: 'EMER', display: 'emergency' },
    ...(priority ? { priority: { text: priority } } : {}),
    subject: patientRef,
    ...(performerRef ? { participant: [{ individual: performerRef }] } : {}),
    ...(period ? { period } : {}),
    ...(incidentType ? { reasonCode: [{ text: incidentType }] } : {}),
    ...(hospital || refused
      ? {
          hospitalization: {
            ...(hospital ? { destination: ref(hospital, hospitalName) } : {}),
            ...(refused ? { dischargeDisposition: { text: 'Patient refused transport' } } : {}),
          },
        }
      : {}),
    ...(scene || ambulance
      ? {
          location: [
            ...(scene ? [{ location: ref(scene, sceneText ?? 'Incident scene') }] : []),
            ...(ambulance ? [{ location: ref(ambulance, ambulanceId) }] : []),
          ],
        }
      : {}),
  });
  const encounterRef = ref(encounter, c.caseId);

  const common = {
    subject: patientRef,
    encounter: encounterRef,
    ...(performerRef ? { performer: [performerRef] } : {}),
  };

  // Observations -------------------------------------------------------------------------
  const observations: Entry<Observation>[] = [];
  const initialAssessment = dateTime(c.responderArrivalTime);

  if (typeof c.approximateAge === 'number') {
    observations.push(
      make<Observation>(idFor('age'), {
        resourceType: 'Observation',
        status: 'final',
        code: loinc(AGE_LOINC, 'Age', 'Approximate age'),
        method: { text: 'Estimated by the responder' },
        ...common,
        ...(start ? { effectiveDateTime: start } : {}),
        valueQuantity: { value: c.approximateAge, unit: 'years', system: UCUM, code: 'a' },
      }),
    );
  }

  for (const vital of input.vitals) {
    if (vital.voidedAt) continue;
    const uuid = vital.id.toLowerCase();
    observations.push(
      vitalObservation(
        UUID_RE.test(uuid) ? uuid : idFor(`vital:${vital.id}`),
        vital.type,
        vital.value,
        {
          numericValue: vital.numericValue ?? null,
          status: vital.status ?? null,
          effective: dateTime(vital.timestamp),
          note: text(vital.notes),
          common,
        },
      ),
    );
  }

  // What the primary survey charted on the case itself (as distinct from timed readings).
  const primarySurvey = 'Primary survey';
  if (typeof c.respiratoryRate === 'number') {
    observations.push(
      vitalObservation(
        idFor('primary:respiratoryRate'),
        'respiratoryRate',
        String(c.respiratoryRate),
        {
          numericValue: c.respiratoryRate,
          effective: initialAssessment,
          note: primarySurvey,
          common,
        },
      ),
    );
  }
  if (typeof c.capillaryRefillTime === 'number') {
    observations.push(
      vitalObservation(
        idFor('primary:capillaryRefill'),
        'capillaryRefill',
        String(c.capillaryRefillTime),
        {
          numericValue: c.capillaryRefillTime,
          effective: initialAssessment,
          note: primarySurvey,
          common,
        },
      ),
    );
  }
  if (typeof c.painScore === 'number') {
    observations.push(
      vitalObservation(idFor('primary:painScore'), 'painScore', String(c.painScore), {
        numericValue: c.painScore,
        effective: initialAssessment,
        note: primarySurvey,
        common,
      }),
    );
  }
  const gcs = gcsObservation(idFor('primary:gcs'), c, initialAssessment, common);
  if (gcs) observations.push(gcs);
  if (typeof c.neuroGcsTotal === 'number') {
    const code = VITAL_SIGN_FHIR_CODES.gcs;
    const at = dateTime(c.neuroReassessmentTime);
    observations.push(
      make<Observation>(idFor('neuro:gcs'), {
        resourceType: 'Observation',
        status: 'final',
        category: category(code.category),
        code: loinc(code.loinc, code.display, 'GCS (neuro reassessment)'),
        ...common,
        ...(at ? { effectiveDateTime: at } : {}),
        valueQuantity: quantity(c.neuroGcsTotal, code),
        note: [{ text: 'Neuro reassessment' }],
      }),
    );
  }

  // Conscious level and triage (primary survey), and the neuro reassessment's AVPU ---------
  if (c.avpu)
    observations.push(
      avpuObservation(idFor('primary:avpu'), c.avpu, initialAssessment, 'Primary survey', common),
    );
  if (c.neuroAvpu) {
    observations.push(
      avpuObservation(
        idFor('neuro:avpu'),
        c.neuroAvpu,
        dateTime(c.neuroReassessmentTime),
        'Neuro reassessment',
        common,
      ),
    );
  }
  const triage = text(c.triageStatus);
  if (triage) {
    const colour = triage.toUpperCase();
    const label = SATS_TRIAGE_LABELS[colour];
    observations.push(
      make<Observation>(idFor('primary:triage'), {
        resourceType: 'Observation',
        status: 'final',
        category: category('survey'),
        code: { text: 'Triage category (South African Triage Scale)' },
        ...common,
        ...(initialAssessment ? { effectiveDateTime: initialAssessment } : {}),
        // A colour the scale does not have (typed elsewhere) stays text, as recorded.
        valueCodeableConcept: label
          ? { coding: [{ system: SATS_TRIAGE_SYSTEM, code: colour, display: label }], text: label }
          : { text: triage },
      }),
    );
  }

  // Airway, breathing, circulation and pupils (primary survey): the choice as charted -----
  const finding = (
    kind: string,
    code: CodeableConcept,
    value: string,
    coded: Readonly<Record<string, Coding>>,
    effective: string | undefined,
    note: string,
  ) => {
    const coding = coded[value.toLowerCase()];
    return make<Observation>(idFor(kind), {
      resourceType: 'Observation',
      status: 'final',
      category: category('exam'),
      code,
      ...common,
      ...(effective ? { effectiveDateTime: effective } : {}),
      valueCodeableConcept: { ...(coding ? { coding: [coding] } : {}), text: value },
      note: [{ text: note }],
    });
  };
  const airway = text(c.airwayStatus);
  if (airway)
    observations.push(
      finding(
        'primary:airway',
        { text: 'Airway status' },
        airway,
        {},
        initialAssessment,
        primarySurvey,
      ),
    );
  const breathing = text(c.breathingStatus);
  if (breathing) {
    observations.push(
      finding(
        'primary:breathing',
        loinc(RESPIRATORY_EFFORT_LOINC, 'Respiratory effort', 'Breathing status'),
        breathing,
        BREATHING_SNOMED,
        initialAssessment,
        primarySurvey,
      ),
    );
  }
  const circulation = text(c.circulationStatus);
  if (circulation)
    observations.push(
      finding(
        'primary:circulation',
        { text: 'Circulation status' },
        circulation,
        {},
        initialAssessment,
        primarySurvey,
      ),
    );
  const pupils = text(c.pupilResponsesiveness);
  if (pupils)
    observations.push(
      finding(
        'primary:pupils',
        { text: 'Pupils' },
        pupils,
        PUPIL_SNOMED,
        initialAssessment,
        primarySurvey,
      ),
    );

  // Catastrophic bleeding (primary survey): present or not, where, what kind, controlled ---
  const bleedingOther = text(c.hemorrhagingLocationOther);
  const bleedingPlace = text(c.hemorrhagingLocation);
  const bleedingSite =
    bleedingPlace?.toLowerCase() === 'other'
      ? (bleedingOther ?? bleedingPlace)
      : [bleedingPlace, bleedingOther].filter((v): v is string => v !== undefined).join(': ') ||
        undefined;
  const bleedingDetails = (
    [
      'hemorrhagingType',
      'hemorrhagingSeverity',
      'hemorrhagingControlStatus',
    ] as const satisfies readonly CaseField[]
  ).flatMap((f): ObservationComponent[] => {
    const v = text(c[f]);
    return v ? [{ code: { text: CASE_FIELD_LABELS[f] }, valueString: v }] : [];
  });
  const bleedingControl = (c.hemorrhagingInterventions ?? [])
    .map((v) => text(v))
    .filter((v): v is string => v !== undefined);
  const bleeding =
    typeof c.hemorrhagingActive === 'boolean' ||
    bleedingSite ||
    bleedingDetails.length > 0 ||
    bleedingControl.length > 0
      ? make<Observation>(idFor('primary:bleeding'), {
          resourceType: 'Observation',
          status: 'final',
          category: category('exam'),
          code: { text: 'Catastrophic bleeding' },
          ...common,
          ...(initialAssessment ? { effectiveDateTime: initialAssessment } : {}),
          // Yes or no as charted; details recorded without the answer leave it unsaid.
          ...(typeof c.hemorrhagingActive === 'boolean'
            ? { valueBoolean: c.hemorrhagingActive }
            : {}),
          ...(bleedingSite ? { bodySite: { text: bleedingSite } } : {}),
          ...(bleedingDetails.length > 0 ? { component: bleedingDetails } : {}),
          note: [{ text: primarySurvey }],
        })
      : undefined;
  if (bleeding) observations.push(bleeding);

  // SAMPLE history: as the crew wrote it (free text, never split into coded items) ---------
  const history = (kind: string, code: CodeableConcept, value: string) =>
    make<Observation>(idFor(`history:${kind}`), {
      resourceType: 'Observation',
      status: 'final',
      code,
      ...common,
      valueString: value,
    });
  const pastHistory = text(c.pastHistory);
  if (pastHistory)
    observations.push(
      history(
        'pastHistory',
        loinc(
          PAST_HISTORY_LOINC,
          'History of Past illness Narrative',
          CASE_FIELD_LABELS.pastHistory,
        ),
        pastHistory,
      ),
    );
  const ownMedications = text(c.medications);
  if (
    ownMedications &&
    (NO_MEDICATIONS.test(ownMedications) || UNKNOWN_ANSWER.test(ownMedications))
  ) {
    // "None" and "Unknown" are answers about the history, not a medication called so.
    observations.push(
      history(
        'medications',
        loinc(
          MEDICATION_HISTORY_LOINC,
          'History of Medication use Narrative',
          CASE_FIELD_LABELS.medications,
        ),
        ownMedications,
      ),
    );
  }
  const allergiesText = text(c.allergies);
  if (allergiesText && UNKNOWN_ANSWER.test(allergiesText)) {
    observations.push(history('allergies', { text: CASE_FIELD_LABELS.allergies }, allergiesText));
  }
  const eventsLeadingUp = text(c.eventsLeadingUp);
  if (eventsLeadingUp) {
    observations.push(
      history(
        'eventsLeadingUp',
        loinc(
          PRESENT_ILLNESS_LOINC,
          'History of Present illness Narrative',
          CASE_FIELD_LABELS.eventsLeadingUp,
        ),
        eventsLeadingUp,
      ),
    );
  }
  const lastIntake = [text(c.lastMealTime), text(c.lastMealContent)].filter(
    (v): v is string => v !== undefined,
  );
  if (lastIntake.length > 0)
    observations.push(
      history('lastOralIntake', { text: 'Last oral intake' }, lastIntake.join(' — ')),
    );
  const signs = [
    ...(c.symptoms ?? []).map((v) => text(v)).filter((v): v is string => v !== undefined),
    ...(['subjectiveSymptoms', 'objectiveSymptoms'] as const).flatMap((f) => {
      const v = text(c[f]);
      return v ? [`${CASE_FIELD_LABELS[f]}: ${v}`] : [];
    }),
  ];
  if (signs.length > 0)
    observations.push(
      history('signsAndSymptoms', { text: CASE_FIELD_LABELS.symptoms }, signs.join('; ')),
    );

  // OPQRST, as answered ------------------------------------------------------------------
  const opqrst = (
    [
      'onset',
      'provocation',
      'quality',
      'region',
      'severity',
      'timing',
    ] as const satisfies readonly CaseField[]
  ).flatMap((f) => {
    const v = text(c[f]);
    return v ? [{ code: { text: CASE_FIELD_LABELS[f] }, valueString: v }] : [];
  });
  if (opqrst.length > 0) {
    observations.push(
      make<Observation>(idFor('opqrst'), {
        resourceType: 'Observation',
        status: 'final',
        category: category('survey'),
        code: { text: 'Pain assessment (OPQRST)' },
        ...common,
        ...(initialAssessment ? { effectiveDateTime: initialAssessment } : {}),
        component: opqrst,
      }),
    );
  }

  // BE-FAST stroke screen: each sign checked, the result, and the time noted --------------
  const fastSigns = (
    [
      'fastFaceDropping',
      'fastArmWeakness',
      'fastSpeechDifficulty',
      'fastBalanceLoss',
      'fastVisionLoss',
    ] as const satisfies readonly CaseField[]
  ).flatMap((f) => {
    const v = c[f];
    return typeof v === 'boolean' ? [{ field: f, present: v }] : [];
  });
  const fastTime = dateTime(c.fastTimeNoted);
  if (fastSigns.length > 0 || fastTime) {
    const found = fastSigns.filter((s) => s.present).map((s) => CASE_FIELD_LABELS[s.field]);
    // Positive on any sign; negative only when all five were checked and none found.
    const result = found.length > 0 ? 'POS' : fastSigns.length === 5 ? 'NEG' : undefined;
    observations.push(
      make<Observation>(idFor('befast'), {
        resourceType: 'Observation',
        status: 'final',
        category: category('survey'),
        code: { text: 'BE-FAST stroke screen' },
        ...common,
        ...(initialAssessment ? { effectiveDateTime: initialAssessment } : {}),
        ...(result
          ? {
              interpretation: [
                {
                  coding: [INTERPRETATIONS_SCREEN[result]],
                  text:
                    result === 'POS' ? `Positive: ${found.join(', ')}` : 'Negative: no sign found',
                },
              ],
            }
          : {}),
        component: [
          ...fastSigns.map(({ field, present }): ObservationComponent => ({
            code: { text: CASE_FIELD_LABELS[field] },
            valueBoolean: present,
          })),
          ...(fastTime
            ? [{ code: { text: CASE_FIELD_LABELS.fastTimeNoted }, valueDateTime: fastTime }]
            : []),
        ],
      }),
    );
  }

  // Head-to-toe exam: one observation per region examined or with a finding ---------------
  for (const region of BODY_REGIONS) {
    const examined = c[`${region}Examined`] === true;
    const abnormal = c[`${region}Abnormal`];
    const notes = text(c[`${region}Notes`]);
    if (!examined && typeof abnormal !== 'boolean' && !notes) continue;
    const interpretation =
      abnormal === true ? EXAM_ABNORMAL : abnormal === false ? INTERPRETATIONS.normal : undefined;
    observations.push(
      make<Observation>(idFor(`exam:${region}`), {
        resourceType: 'Observation',
        status: 'final',
        category: category('exam'),
        code: { text: `${BODY_REGION_LABELS[region]} examination` },
        ...common,
        ...(initialAssessment ? { effectiveDateTime: initialAssessment } : {}),
        bodySite: { text: BODY_REGION_LABELS[region] },
        ...(interpretation ? { interpretation: [{ coding: [interpretation] }] } : {}),
        ...(notes ? { valueString: notes } : {}),
        ...(!interpretation && !notes ? { note: [{ text: 'Examined; no finding recorded' }] } : {}),
      }),
    );
  }

  // Neuro reassessment: pupils, then motor and sensory function with the crew's notes ------
  const neuroAt = dateTime(c.neuroReassessmentTime);
  const neuroPupils = text(c.neuroPupils);
  if (neuroPupils)
    observations.push(
      finding(
        'neuro:pupils',
        { text: 'Pupils' },
        neuroPupils,
        PUPIL_SNOMED,
        neuroAt,
        'Neuro reassessment',
      ),
    );
  const neuroFunctions = (
    ['neuroMotorFunction', 'neuroSensoryFunction'] as const satisfies readonly CaseField[]
  ).flatMap((f): ObservationComponent[] => {
    const v = text(c[f]);
    return v ? [{ code: { text: CASE_FIELD_LABELS[f] }, valueString: v }] : [];
  });
  const neuroNotes = text(c.neuroNotes);
  if (neuroFunctions.length > 0 || neuroNotes) {
    observations.push(
      make<Observation>(idFor('neuro:exam'), {
        resourceType: 'Observation',
        status: 'final',
        category: category('exam'),
        code: { text: 'Neurological examination (neuro reassessment)' },
        ...common,
        ...(neuroAt ? { effectiveDateTime: neuroAt } : {}),
        ...(neuroFunctions.length > 0 ? { component: neuroFunctions } : {}),
        // The notes are the finding itself when nothing else was charted.
        ...(neuroNotes && neuroFunctions.length === 0 ? { valueString: neuroNotes } : {}),
        ...(neuroNotes && neuroFunctions.length > 0 ? { note: [{ text: neuroNotes }] } : {}),
      }),
    );
  }

  // What happened (as found and as told), other findings and the crew's notes, as written --
  const narrative = (kind: string, label: string, value: string, exam: boolean) =>
    make<Observation>(idFor(kind), {
      resourceType: 'Observation',
      status: 'final',
      ...(exam ? { category: category('exam') } : {}),
      code: { text: label },
      ...common,
      ...(exam && initialAssessment ? { effectiveDateTime: initialAssessment } : {}),
      valueString: value,
    });
  const incidentDescription = text(c.incidentDescription);
  if (incidentDescription)
    observations.push(
      narrative(
        'incidentDescription',
        CASE_FIELD_LABELS.incidentDescription,
        incidentDescription,
        false,
      ),
    );
  const additionalFindings = text(c.additionalFindings);
  if (additionalFindings)
    observations.push(
      narrative(
        'additionalFindings',
        CASE_FIELD_LABELS.additionalFindings,
        additionalFindings,
        true,
      ),
    );
  const additionalNotes = text(c.additionalNotes);
  if (additionalNotes)
    observations.push(
      narrative('additionalNotes', CASE_FIELD_LABELS.additionalNotes, additionalNotes, false),
    );

  // Procedures ---------------------------------------------------------------------------
  const procedures: Entry<Procedure>[] = [];
  const procedureCommon = {
    subject: patientRef,
    encounter: encounterRef,
    ...(performerRef ? { performer: [{ actor: performerRef }] } : {}),
  };
  // The bleeding-control list: a tourniquet, or an item the checklist also has, is that
  // checklist procedure (one Procedure, not two); the rest are procedures of their own. Each
  // names the bleeding as its reason.
  const forBleeding = new Set<Intervention>();
  const otherBleedingControl: string[] = [];
  for (const item of bleedingControl) {
    const same = INTERVENTIONS.find(
      (i) => INTERVENTION_LABELS[i].toLowerCase() === item.toLowerCase(),
    );
    if (/tourniquet/i.test(item)) forBleeding.add('tourniquetApplication');
    else if (same) forBleeding.add(same);
    else if (item.toLowerCase() === 'other')
      otherBleedingControl.push(text(c.hemorrhagingInterventionOther) ?? 'Other bleeding control');
    else otherBleedingControl.push(item);
  }
  const bleedingReason = bleeding
    ? { reasonReference: [ref(bleeding, 'Catastrophic bleeding')] }
    : {};
  for (const intervention of INTERVENTIONS) {
    const done =
      intervention === 'tourniquetApplication' ? tourniquetApplied(c) : c[intervention] === true;
    if (!done && !forBleeding.has(intervention)) continue;
    const snomed = INTERVENTION_SNOMED[intervention];
    const performed =
      intervention === 'tourniquetApplication' ? dateTime(c.tourniquetApplicationTime) : undefined;
    procedures.push(
      make<Procedure>(idFor(`procedure:${intervention}`), {
        resourceType: 'Procedure',
        status: 'completed',
        code: { ...(snomed ? { coding: [snomed] } : {}), text: CASE_FIELD_LABELS[intervention] },
        ...procedureCommon,
        ...(performed ? { performedDateTime: performed } : {}),
        ...(forBleeding.has(intervention) ? bleedingReason : {}),
      }),
    );
  }
  // One procedure per item however it is spelt ("Elevation" chosen, "elevation" typed under
  // Other): the id is made from the lower-cased text, and a bundle's entries must differ.
  const otherBleedingItems = new Map<string, string>();
  for (const item of otherBleedingControl) {
    if (!otherBleedingItems.has(item.toLowerCase()))
      otherBleedingItems.set(item.toLowerCase(), item);
  }
  for (const [key, item] of otherBleedingItems) {
    procedures.push(
      make<Procedure>(idFor(`procedure:bleeding:${key}`), {
        resourceType: 'Procedure',
        status: 'completed',
        code: { text: item },
        ...procedureCommon,
        ...bleedingReason,
      }),
    );
  }
  // What the crew wrote in free text, kept word for word.
  for (const field of [
    'proceduresPerformed',
    'treatmentProvided',
  ] as const satisfies readonly CaseField[]) {
    const written = text(c[field]);
    if (!written) continue;
    procedures.push(
      make<Procedure>(idFor(`procedure:${field}`), {
        resourceType: 'Procedure',
        status: 'completed',
        code: { text: CASE_FIELD_LABELS[field] },
        ...procedureCommon,
        note: [{ text: written }],
      }),
    );
  }

  // Medications given --------------------------------------------------------------------
  const medications: Entry<MedicationAdministration>[] = [];
  const medicationsGiven = text(c.medicationsGiven);
  if (medicationsGiven) {
    // The record has no time per dose: the administration is dated by the time the patient
    // was in the crew's care (arrival → hospital arrival, or departure, or completion).
    const from = dateTime(c.responderArrivalTime) ?? start ?? dateTime(c.createdAt) ?? generatedAt;
    const untilCandidate =
      dateTime(c.hospitalArrivalTime) ?? dateTime(c.departureTime) ?? dateTime(c.completedAt);
    const until =
      untilCandidate && isAfterOrSame(untilCandidate, from) ? untilCandidate : undefined;
    medications.push(
      make<MedicationAdministration>(idFor('medications'), {
        resourceType: 'MedicationAdministration',
        status: 'completed',
        medicationCodeableConcept: { text: medicationsGiven },
        subject: patientRef,
        context: encounterRef,
        ...(until ? { effectivePeriod: { start: from, end: until } } : { effectiveDateTime: from }),
        ...(performerRef ? { performer: [{ actor: performerRef }] } : {}),
      }),
    );
  }

  // Allergies and the patient's own medications (SAMPLE A and M) ------------------------
  const allergies: Entry<AllergyIntolerance>[] = [];
  if (allergiesText && !UNKNOWN_ANSWER.test(allergiesText)) {
    const none = NO_KNOWN_DRUG_ALLERGY_TEXT.test(allergiesText)
      ? NO_KNOWN_DRUG_ALLERGY
      : NO_KNOWN_ALLERGY_TEXT.test(allergiesText)
        ? NO_KNOWN_ALLERGY
        : undefined;
    allergies.push(
      make<AllergyIntolerance>(idFor('allergies'), {
        resourceType: 'AllergyIntolerance',
        clinicalStatus: {
          coding: [{ system: ALLERGY_CLINICAL, code: 'active', display: 'Active' }],
        },
        // Reported at the scene, not verified by the crew.
        verificationStatus: {
          coding: [{ system: ALLERGY_VERIFICATION, code: 'unconfirmed', display: 'Unconfirmed' }],
        },
        // The list exactly as written: one entry, not split into guessed substances.
        code: { ...(none ? { coding: [none] } : {}), text: allergiesText },
        patient: patientRef,
        encounter: encounterRef,
        ...(performerRef ? { recorder: performerRef } : {}),
      }),
    );
  }
  const medicationStatements: Entry<MedicationStatement>[] = [];
  if (
    ownMedications &&
    !NO_MEDICATIONS.test(ownMedications) &&
    !UNKNOWN_ANSWER.test(ownMedications)
  ) {
    medicationStatements.push(
      make<MedicationStatement>(idFor('own-medications'), {
        resourceType: 'MedicationStatement',
        status: 'active',
        category: {
          coding: [
            {
              system: MEDICATION_STATEMENT_CATEGORY,
              code: 'patientspecified',
              display: 'Patient Specified',
            },
          ],
        },
        medicationCodeableConcept: { text: ownMedications },
        subject: patientRef,
        context: encounterRef,
        ...(initialAssessment ? { dateAsserted: initialAssessment } : {}),
      }),
    );
  }

  // Medical aid ----------------------------------------------------------------------------
  const medicalAid = text(c.medicalAidProvider);
  const coverage =
    c.hasMedicalAid === true || (c.hasMedicalAid !== false && medicalAid)
      ? make<Coverage>(idFor('medical-aid'), {
          resourceType: 'Coverage',
          status: 'active',
          type: {
            coding: [{ system: ACT_CODE, code: 'HIP', display: 'health insurance plan policy' }],
            text: 'Medical aid',
          },
          beneficiary: patientRef,
          // One free-text field holds the scheme (and the member number if the crew had it):
          // kept whole as the payor's name rather than split by guesswork.
          payor: [
            medicalAid
              ? { display: medicalAid }
              : { extension: [{ url: DATA_ABSENT_REASON_EXTENSION, valueCode: 'unknown' }] },
          ],
        })
      : undefined;

  // Addenda ------------------------------------------------------------------------------
  const provenances: Entry<Provenance>[] = (input.addenda ?? []).map((addendum) => {
    const labels = addendum.changes.map(({ field }) =>
      field in CASE_FIELD_LABELS ? CASE_FIELD_LABELS[field as CaseField] : field,
    );
    const author = addendumAuthorLabel(addendum);
    return make<Provenance>(idFor(`addendum:${addendum.id.toLowerCase()}`), {
      resourceType: 'Provenance',
      target: [encounterRef],
      recorded: dateTime(addendum.createdAt) ?? generatedAt,
      reason: [{ text: addendum.reason }],
      activity: {
        coding: [{ system: DATA_OPERATION, code: 'UPDATE', display: 'revise' }],
        text: labels.length > 0 ? `Addendum: ${labels.join(', ')}` : 'Addendum',
      },
      agent: [
        {
          who: {
            ...(typeof addendum.userId === 'number'
              ? { identifier: { system: USER_ID_SYSTEM, value: String(addendum.userId) } }
              : {}),
            display: author ?? 'Addendum author',
          },
        },
      ],
    });
  });

  const entries: Entry<Resource>[] = [
    patient,
    encounter,
    ...(practitioner ? [practitioner] : []),
    ...(scene ? [scene] : []),
    ...(ambulance ? [ambulance] : []),
    ...(hospital ? [hospital] : []),
    ...observations,
    ...procedures,
    ...medications,
    ...allergies,
    ...medicationStatements,
    ...(coverage ? [coverage] : []),
    ...provenances,
  ];

  return {
    resourceType: 'Bundle',
    // One id per export (case + time of export), as a URI (FHIR's convention for urn:uuid).
    identifier: {
      system: 'urn:ietf:rfc:3986',
      value: `urn:uuid:${nameBasedUuid(`rescuelog:${caseKey}:export:${generatedAt}`)}`,
    },
    type: 'collection',
    timestamp: generatedAt,
    entry: entries.map(({ uuid, resource }): BundleEntry => ({
      fullUrl: `urn:uuid:${uuid}`,
      resource,
    })),
  };
}

interface ObservationContext {
  numericValue: number | null;
  status?: VitalSignStatus | null;
  effective: string | undefined;
  note?: string | undefined;
  common: Pick<Observation, 'subject' | 'encounter' | 'performer'>;
}

function vitalObservation(
  uuid: string,
  type: VitalSignType,
  value: string,
  ctx: ObservationContext,
): Entry<Observation> {
  const code = VITAL_SIGN_FHIR_CODES[type];
  const interpretation = ctx.status ? [{ coding: [INTERPRETATIONS[ctx.status]] }] : undefined;
  const base = {
    resourceType: 'Observation' as const,
    status: 'final' as const,
    category: category(code.category),
    code: loinc(code.loinc, code.display, undefined, code.alsoCoded),
    ...ctx.common,
    ...(ctx.effective ? { effectiveDateTime: ctx.effective } : {}),
    ...(interpretation ? { interpretation } : {}),
    ...(ctx.note ? { note: [{ text: ctx.note }] } : {}),
  };
  // The core vital-signs profiles need a time and a coded value; claim one only when both hold.
  const profiled = (ok: boolean) =>
    ok && code.profile && ctx.effective ? { meta: { profile: [code.profile] } } : {};

  if (type === 'bloodPressure') {
    const match = /^\s*(\d{1,3}(?:\.\d+)?)\s*\/\s*(\d{1,3}(?:\.\d+)?)\s*$/.exec(value);
    if (match) {
      const component = (loincCode: string, display: string, v: number): ObservationComponent => ({
        code: loinc(loincCode, display),
        valueQuantity: quantity(v, code),
      });
      return make<Observation>(uuid, {
        ...profiled(true),
        ...base,
        component: [
          component(BP_SYSTOLIC_LOINC, 'Systolic blood pressure', Number(match[1])),
          component(BP_DIASTOLIC_LOINC, 'Diastolic blood pressure', Number(match[2])),
        ],
      });
    }
    return make<Observation>(uuid, { ...base, valueString: value });
  }

  const numeric = ctx.numericValue ?? parseDecimal(value);
  if (numeric === undefined || !Number.isFinite(numeric)) {
    // Charted as text (e.g. "HI" from a glucometer): kept as written.
    return make<Observation>(uuid, { ...base, valueString: value });
  }
  return make<Observation>(uuid, {
    ...profiled(true),
    ...base,
    valueQuantity: quantity(numeric, code),
  });
}

/** The primary survey's GCS as one observation: the total, with E, V and M as components. */
function gcsObservation(
  uuid: string,
  c: FhirExportInput['case'],
  effective: string | undefined,
  common: ObservationContext['common'],
): Entry<Observation> | undefined {
  const parts = gcsPartsOf(c);
  const total = typeof c.gcsTotal === 'number' ? c.gcsTotal : computeGcsTotal(parts);
  if (
    parts.eye === null &&
    parts.verbal === null &&
    parts.motor === null &&
    !parts.verbalIntubated &&
    total === null
  ) {
    return undefined;
  }
  const score = VITAL_SIGN_FHIR_CODES.gcs;
  const component = (
    loincCode: string,
    display: string,
    v: number | null,
    absent?: string,
  ): ObservationComponent => ({
    code: loinc(loincCode, display),
    ...(v !== null
      ? { valueQuantity: quantity(v, score) }
      : {
          dataAbsentReason: absent
            ? {
                coding: [
                  { system: DATA_ABSENT_REASON, code: 'not-performed', display: 'Not Performed' },
                ],
                text: absent,
              }
            : { coding: [{ system: DATA_ABSENT_REASON, code: 'unknown', display: 'Unknown' }] },
        }),
  });
  const notes = ['Primary survey'];
  if (parts.verbalIntubated)
    notes.push('Intubated: verbal response not testable (VT); the total counts it as 1.');
  return make<Observation>(uuid, {
    resourceType: 'Observation',
    status: 'final',
    category: category(score.category),
    code: loinc(score.loinc, score.display),
    ...common,
    ...(effective ? { effectiveDateTime: effective } : {}),
    ...(total !== null ? { valueQuantity: quantity(total, score) } : {}),
    component: [
      component(GCS_EYE_LOINC, 'Glasgow coma score eye opening', parts.eye),
      component(
        GCS_VERBAL_LOINC,
        'Glasgow coma score verbal',
        parts.verbalIntubated ? null : parts.verbal,
        parts.verbalIntubated ? 'Intubated (charted T)' : undefined,
      ),
      component(GCS_MOTOR_LOINC, 'Glasgow coma score motor', parts.motor),
    ],
    note: notes.map((t) => ({ text: t })),
  });
}

/** AVPU as LOINC's responsiveness assessment, valued with a SNOMED CT finding. */
function avpuObservation(
  uuid: string,
  avpu: 'A' | 'V' | 'P' | 'U',
  effective: string | undefined,
  note: string,
  common: ObservationContext['common'],
): Entry<Observation> {
  return make<Observation>(uuid, {
    resourceType: 'Observation',
    status: 'final',
    category: category('exam'),
    code: loinc(AVPU_LOINC, 'Responsiveness assessment at First encounter', 'AVPU'),
    ...common,
    ...(effective ? { effectiveDateTime: effective } : {}),
    valueCodeableConcept: { coding: [AVPU_SNOMED[avpu]], text: AVPU_TEXT[avpu] },
    note: [{ text: note }],
  });
}
