// Medications: what the crew gave (MedicationAdministration) and the patient's own
// medications (MedicationStatement, SAMPLE's M), each as written.
import type { MedicationAdministration, MedicationStatement } from '@medplum/fhirtypes';
import { MEDICATION_STATEMENT_CATEGORY } from './code-systems';
import type { CaseContext } from './context';
import { make, type Entry } from './entry';
import { dateTime, isAfterOrSame, NO_MEDICATIONS, text, UNKNOWN_ANSWER } from './values';

export function medicationsGiven({
  c,
  idFor,
  start,
  generatedAt,
  patientRef,
  encounterRef,
  performerRef,
}: CaseContext): Entry<MedicationAdministration>[] {
  const given = text(c.medicationsGiven);
  if (!given) return [];
  // The record has no time per dose: the administration is dated by the time the patient
  // was in the crew's care (arrival → hospital arrival, or departure, or completion).
  const from = dateTime(c.responderArrivalTime) ?? start ?? dateTime(c.createdAt) ?? generatedAt;
  const untilCandidate =
    dateTime(c.hospitalArrivalTime) ?? dateTime(c.departureTime) ?? dateTime(c.completedAt);
  const until = untilCandidate && isAfterOrSame(untilCandidate, from) ? untilCandidate : undefined;
  return [
    make<MedicationAdministration>(idFor('medications'), {
      resourceType: 'MedicationAdministration',
      status: 'completed',
      medicationCodeableConcept: { text: given },
      subject: patientRef,
      context: encounterRef,
      ...(until ? { effectivePeriod: { start: from, end: until } } : { effectiveDateTime: from }),
      ...(performerRef ? { performer: [{ actor: performerRef }] } : {}),
    }),
  ];
}

/** The patient's own medications, unless the answer was "none" or "not known". */
export function ownMedications({
  c,
  idFor,
  patientRef,
  encounterRef,
  initialAssessment,
}: CaseContext): Entry<MedicationStatement>[] {
  const own = text(c.medications);
  if (!own || NO_MEDICATIONS.test(own) || UNKNOWN_ANSWER.test(own)) return [];
  return [
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
      medicationCodeableConcept: { text: own },
      subject: patientRef,
      context: encounterRef,
      ...(initialAssessment ? { dateAsserted: initialAssessment } : {}),
    }),
  ];
}
