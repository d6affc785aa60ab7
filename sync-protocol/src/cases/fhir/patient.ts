// The Patient: the name as the crew wrote it (or said to be unknown) and the gender.
import type { Patient, Reference } from '@medplum/fhirtypes';
import { DATA_ABSENT_REASON_EXTENSION } from './code-systems';
import type { FhirCase, IdFor } from './context';
import { make, ref, type Entry } from './entry';
import { text } from './values';

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

export function buildPatient(
  c: FhirCase,
  idFor: IdFor,
): { patient: Entry<Patient>; patientRef: Reference<Patient> } {
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
  return { patient, patientRef: ref(patient, isUnknownName(name) ? 'Unknown patient' : name) };
}
