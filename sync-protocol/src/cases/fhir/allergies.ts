// Allergies (SAMPLE's A): the list exactly as written, as one AllergyIntolerance, coded only
// when it says "no known (drug) allergy".
import type { AllergyIntolerance } from '@medplum/fhirtypes';
import { ALLERGY_CLINICAL, ALLERGY_VERIFICATION } from './code-systems';
import { NO_KNOWN_ALLERGY, NO_KNOWN_DRUG_ALLERGY } from './codes';
import type { CaseContext } from './context';
import { make, type Entry } from './entry';
import { NO_KNOWN_ALLERGY_TEXT, NO_KNOWN_DRUG_ALLERGY_TEXT, text, UNKNOWN_ANSWER } from './values';

export function buildAllergies({
  c,
  idFor,
  patientRef,
  encounterRef,
  performerRef,
}: CaseContext): Entry<AllergyIntolerance>[] {
  const allergiesText = text(c.allergies);
  // "Not known" is an answer about the history (history.ts), not an allergy.
  if (!allergiesText || UNKNOWN_ANSWER.test(allergiesText)) return [];
  const none = NO_KNOWN_DRUG_ALLERGY_TEXT.test(allergiesText)
    ? NO_KNOWN_DRUG_ALLERGY
    : NO_KNOWN_ALLERGY_TEXT.test(allergiesText)
      ? NO_KNOWN_ALLERGY
      : undefined;
  return [
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
  ];
}
