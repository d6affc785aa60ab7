// A patient case as an HL7 FHIR R4 Bundle (type `collection`), for handing a record to a
// hospital or another system. Pure: the web app builds it from the device's rows (offline) and
// the API from the server's rows, so both exports of one case are the same document.
// Mapping choices, codes and their sources: docs/decisions/008-fhir-export.md. Tests check the
// output with Medplum's R4 validator and HL7's own code systems (test/case/fhir.test.ts).
//
// This file assembles the Bundle and is the module's public API; each resource is built in
// ./fhir/ (patient.ts, encounter.ts, observations/*.ts, procedures.ts, medications.ts, …).
import type { Bundle, BundleEntry, Observation, Resource } from '@medplum/fhirtypes';
import { buildAllergies } from './fhir/allergies';
import type { CaseContext } from './fhir/context';
import { buildCoverage } from './fhir/coverage';
import { buildEncounter, encounterStart } from './fhir/encounter';
import { ref, type Entry } from './fhir/entry';
import type { FhirExportInput } from './fhir/input';
import { buildLocations } from './fhir/locations';
import { medicationsGiven, ownMedications } from './fhir/medications';
import { bleedingObservation } from './fhir/observations/bleeding';
import {
  beFastObservation,
  headToToeObservations,
  neuroReassessmentObservations,
} from './fhir/observations/exam';
import { gcsObservation, neuroGcsObservation } from './fhir/observations/gcs';
import { historyObservations, opqrstObservation } from './fhir/observations/history';
import { narrativeObservations } from './fhir/observations/narrative';
import { consciousnessAndTriage, primarySurveyFindings } from './fhir/observations/primary-survey';
import {
  ageObservation,
  primarySurveyMeasurements,
  readingObservations,
} from './fhir/observations/vitals';
import { buildPatient } from './fhir/patient';
import { buildResponder } from './fhir/practitioner';
import { buildProcedures } from './fhir/procedures';
import { buildProvenances } from './fhir/provenance';
import { nameBasedUuid } from './fhir/uuid';
import { dateTime } from './fhir/values';

export {
  CALL_SIGN_SYSTEM,
  CASE_ID_SYSTEM,
  LOINC,
  SATS_TRIAGE_SYSTEM,
  SNOMED_CT,
  UCUM,
  USER_ID_SYSTEM,
} from './fhir/code-systems';
export {
  AGE_LOINC,
  AVPU_LOINC,
  AVPU_SNOMED,
  BP_DIASTOLIC_LOINC,
  BP_SYSTOLIC_LOINC,
  BREATHING_SNOMED,
  GCS_EYE_LOINC,
  GCS_MOTOR_LOINC,
  GCS_VERBAL_LOINC,
  INTERVENTION_SNOMED,
  MEDICATION_HISTORY_LOINC,
  NO_KNOWN_ALLERGY,
  NO_KNOWN_DRUG_ALLERGY,
  PAST_HISTORY_LOINC,
  PRESENT_ILLNESS_LOINC,
  PUPIL_SNOMED,
  RESPIRATORY_EFFORT_LOINC,
  SATS_TRIAGE_LABELS,
} from './fhir/codes';
export type { FhirAddendumInput, FhirExportInput, FhirVitalSignInput } from './fhir/input';
export {
  VITAL_SIGN_FHIR_CODES,
  type VitalSignFhirCode,
} from './fhir/observations/vital-sign-codes';
export { fhirGender } from './fhir/patient';
export { nameBasedUuid } from './fhir/uuid';

export type FhirBundle = Bundle;

/** Who, where and when: the resources every clinical entry refers to, and their context. */
function caseSubject(input: FhirExportInput) {
  const c = input.case;
  const caseKey = c.id.toLowerCase();
  const idFor = (kind: string) => nameBasedUuid(`rescuelog:${caseKey}:${kind}`);
  const { patient, patientRef } = buildPatient(c, idFor);
  const { practitioner, performerRef } = buildResponder(input, idFor);
  const locations = buildLocations(c, idFor);
  const encounter = buildEncounter(c, idFor, { patientRef, performerRef, locations });
  const encounterRef = ref(encounter, c.caseId);
  const ctx: CaseContext = {
    c,
    idFor,
    generatedAt: input.generatedAt.toISOString(),
    start: encounterStart(c),
    initialAssessment: dateTime(c.responderArrivalTime),
    patientRef,
    encounterRef,
    performerRef,
    common: {
      subject: patientRef,
      encounter: encounterRef,
      ...(performerRef ? { performer: [performerRef] } : {}),
    },
  };
  const { scene, ambulance, hospital } = locations;
  const entries: Entry<Resource>[] = [
    patient,
    encounter,
    ...(practitioner ? [practitioner] : []),
    ...(scene ? [scene] : []),
    ...(ambulance ? [ambulance] : []),
    ...(hospital ? [hospital] : []),
  ];
  return { ctx, entries };
}

/** Every observation, in the order of the record: measurements, surveys, history, notes. */
function caseObservations(
  ctx: CaseContext,
  input: FhirExportInput,
  bleeding: Entry<Observation> | undefined,
): Entry<Observation>[] {
  return [
    ...ageObservation(ctx),
    ...readingObservations(ctx, input.vitals),
    ...primarySurveyMeasurements(ctx),
    ...gcsObservation(ctx),
    ...neuroGcsObservation(ctx),
    ...consciousnessAndTriage(ctx),
    ...primarySurveyFindings(ctx),
    ...(bleeding ? [bleeding] : []),
    ...historyObservations(ctx),
    ...opqrstObservation(ctx),
    ...beFastObservation(ctx),
    ...headToToeObservations(ctx),
    ...neuroReassessmentObservations(ctx),
    ...narrativeObservations(ctx),
  ];
}

/** The case as a FHIR R4 `collection` Bundle whose references all resolve inside it. */
export function buildFhirBundle(input: FhirExportInput): FhirBundle {
  const { ctx, entries: subject } = caseSubject(input);
  const bleeding = bleedingObservation(ctx);
  const entries: Entry<Resource>[] = [
    ...subject,
    ...caseObservations(ctx, input, bleeding),
    ...buildProcedures(ctx, bleeding),
    ...medicationsGiven(ctx),
    ...buildAllergies(ctx),
    ...ownMedications(ctx),
    ...buildCoverage(ctx),
    ...buildProvenances(ctx, input.addenda ?? []),
  ];
  const caseKey = input.case.id.toLowerCase();
  return {
    resourceType: 'Bundle',
    // One id per export (case + time of export), as a URI (FHIR's convention for urn:uuid).
    identifier: {
      system: 'urn:ietf:rfc:3986',
      value: `urn:uuid:${nameBasedUuid(`rescuelog:${caseKey}:export:${ctx.generatedAt}`)}`,
    },
    type: 'collection',
    timestamp: ctx.generatedAt,
    entry: entries.map(({ uuid, resource }): BundleEntry => ({
      fullUrl: `urn:uuid:${uuid}`,
      resource,
    })),
  };
}
