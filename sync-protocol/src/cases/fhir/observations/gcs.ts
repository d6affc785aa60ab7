// The Glasgow coma score: the primary survey's (total with E, V and M as components) and the
// neuro reassessment's total.
import type { Observation, ObservationComponent } from '@medplum/fhirtypes';
import { computeGcsTotal, gcsPartsOf } from '../../gcs';
import { DATA_ABSENT_REASON } from '../code-systems';
import { GCS_EYE_LOINC, GCS_MOTOR_LOINC, GCS_VERBAL_LOINC } from '../codes';
import type { CaseContext } from '../context';
import { make, type Entry } from '../entry';
import { dateTime } from '../values';
import { category, loinc, quantity } from './shared';
import { VITAL_SIGN_FHIR_CODES } from './vital-sign-codes';

const score = VITAL_SIGN_FHIR_CODES.gcs;

function gcsComponent(
  loincCode: string,
  display: string,
  v: number | null,
  absent?: string,
): ObservationComponent {
  return {
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
  };
}

/** The primary survey's GCS as one observation: the total, with E, V and M as components. */
export function gcsObservation({
  c,
  idFor,
  common,
  initialAssessment: effective,
}: CaseContext): Entry<Observation>[] {
  const parts = gcsPartsOf(c);
  const total = typeof c.gcsTotal === 'number' ? c.gcsTotal : computeGcsTotal(parts);
  if (
    parts.eye === null &&
    parts.verbal === null &&
    parts.motor === null &&
    !parts.verbalIntubated &&
    total === null
  ) {
    return [];
  }
  const notes = ['Primary survey'];
  if (parts.verbalIntubated)
    notes.push('Intubated: verbal response not testable (VT); the total counts it as 1.');
  return [
    make<Observation>(idFor('primary:gcs'), {
      resourceType: 'Observation',
      status: 'final',
      category: category(score.category),
      code: loinc(score.loinc, score.display),
      ...common,
      ...(effective ? { effectiveDateTime: effective } : {}),
      ...(total !== null ? { valueQuantity: quantity(total, score) } : {}),
      component: [
        gcsComponent(GCS_EYE_LOINC, 'Glasgow coma score eye opening', parts.eye),
        gcsComponent(
          GCS_VERBAL_LOINC,
          'Glasgow coma score verbal',
          parts.verbalIntubated ? null : parts.verbal,
          parts.verbalIntubated ? 'Intubated (charted T)' : undefined,
        ),
        gcsComponent(GCS_MOTOR_LOINC, 'Glasgow coma score motor', parts.motor),
      ],
      note: notes.map((t) => ({ text: t })),
    }),
  ];
}

/** The neuro reassessment's GCS total. */
export function neuroGcsObservation({ c, idFor, common }: CaseContext): Entry<Observation>[] {
  if (typeof c.neuroGcsTotal !== 'number') return [];
  const at = dateTime(c.neuroReassessmentTime);
  return [
    make<Observation>(idFor('neuro:gcs'), {
      resourceType: 'Observation',
      status: 'final',
      category: category(score.category),
      code: loinc(score.loinc, score.display, 'GCS (neuro reassessment)'),
      ...common,
      ...(at ? { effectiveDateTime: at } : {}),
      valueQuantity: quantity(c.neuroGcsTotal, score),
      note: [{ text: 'Neuro reassessment' }],
    }),
  ];
}
