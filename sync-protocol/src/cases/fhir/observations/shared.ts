// The codings every Observation builder uses: category, LOINC code and UCUM quantity.
import type { CodeableConcept, Coding, Quantity } from '@medplum/fhirtypes';
import { LOINC, OBSERVATION_CATEGORY, UCUM } from '../code-systems';
import type { ObservationCategory, VitalSignFhirCode } from './vital-sign-codes';

export function quantity(
  value: number,
  code: VitalSignFhirCode | { ucum: string; unit: string },
): Quantity {
  return { value, unit: code.unit, system: UCUM, code: code.ucum };
}

export function category(code: ObservationCategory): CodeableConcept[] {
  const display = {
    'vital-signs': 'Vital Signs',
    laboratory: 'Laboratory',
    survey: 'Survey',
    exam: 'Exam',
  }[code];
  return [{ coding: [{ system: OBSERVATION_CATEGORY, code, display }] }];
}

export function loinc(
  code: string,
  display: string,
  label?: string,
  extra: readonly Coding[] = [],
): CodeableConcept {
  return { coding: [{ system: LOINC, code, display }, ...extra], text: label ?? display };
}
