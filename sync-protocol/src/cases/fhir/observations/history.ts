// The SAMPLE history and the OPQRST pain assessment, as the crew wrote them (free text, never
// split into coded items). Allergies and the patient's own medications are resources of their
// own (allergies.ts, medications.ts) unless the answer was "none" or "not known".
import type { CodeableConcept, Observation } from '@medplum/fhirtypes';
import type { CaseField } from '../../case-schema';
import { CASE_FIELD_LABELS } from '../../fields';
import { MEDICATION_HISTORY_LOINC, PAST_HISTORY_LOINC, PRESENT_ILLNESS_LOINC } from '../codes';
import type { CaseContext, FhirCase } from '../context';
import { make, type Entry } from '../entry';
import { NO_MEDICATIONS, text, UNKNOWN_ANSWER } from '../values';
import { category, loinc } from './shared';

function sampleAnswers(c: FhirCase): [string, CodeableConcept, string | undefined][] {
  const ownMedications = text(c.medications);
  const allergies = text(c.allergies);
  const lastIntake = [text(c.lastMealTime), text(c.lastMealContent)].filter(
    (v): v is string => v !== undefined,
  );
  const signs = [
    ...(c.symptoms ?? []).map((v) => text(v)).filter((v): v is string => v !== undefined),
    ...(['subjectiveSymptoms', 'objectiveSymptoms'] as const).flatMap((f) => {
      const v = text(c[f]);
      return v ? [`${CASE_FIELD_LABELS[f]}: ${v}`] : [];
    }),
  ];
  return [
    [
      'pastHistory',
      loinc(PAST_HISTORY_LOINC, 'History of Past illness Narrative', CASE_FIELD_LABELS.pastHistory),
      text(c.pastHistory),
    ],
    // "None" and "Unknown" are answers about the history, not a medication called so.
    [
      'medications',
      loinc(
        MEDICATION_HISTORY_LOINC,
        'History of Medication use Narrative',
        CASE_FIELD_LABELS.medications,
      ),
      ownMedications && (NO_MEDICATIONS.test(ownMedications) || UNKNOWN_ANSWER.test(ownMedications))
        ? ownMedications
        : undefined,
    ],
    [
      'allergies',
      { text: CASE_FIELD_LABELS.allergies },
      allergies && UNKNOWN_ANSWER.test(allergies) ? allergies : undefined,
    ],
    [
      'eventsLeadingUp',
      loinc(
        PRESENT_ILLNESS_LOINC,
        'History of Present illness Narrative',
        CASE_FIELD_LABELS.eventsLeadingUp,
      ),
      text(c.eventsLeadingUp),
    ],
    [
      'lastOralIntake',
      { text: 'Last oral intake' },
      lastIntake.length > 0 ? lastIntake.join(' — ') : undefined,
    ],
    [
      'signsAndSymptoms',
      { text: CASE_FIELD_LABELS.symptoms },
      signs.length > 0 ? signs.join('; ') : undefined,
    ],
  ];
}

/** SAMPLE history: one observation per answer, as written. */
export function historyObservations({ c, idFor, common }: CaseContext): Entry<Observation>[] {
  return sampleAnswers(c).flatMap(([kind, code, value]) =>
    value
      ? [
          make<Observation>(idFor(`history:${kind}`), {
            resourceType: 'Observation',
            status: 'final',
            code,
            ...common,
            valueString: value,
          }),
        ]
      : [],
  );
}

/** OPQRST, as answered: one observation with a component per answer. */
export function opqrstObservation({
  c,
  idFor,
  common,
  initialAssessment,
}: CaseContext): Entry<Observation>[] {
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
  if (opqrst.length === 0) return [];
  return [
    make<Observation>(idFor('opqrst'), {
      resourceType: 'Observation',
      status: 'final',
      category: category('survey'),
      code: { text: 'Pain assessment (OPQRST)' },
      ...common,
      ...(initialAssessment ? { effectiveDateTime: initialAssessment } : {}),
      component: opqrst,
    }),
  ];
}
