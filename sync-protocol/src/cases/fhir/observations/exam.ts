// The secondary survey's examinations: the BE-FAST stroke screen, the head-to-toe exam, and
// the neuro reassessment's pupils, motor and sensory function.
import type { Observation, ObservationComponent } from '@medplum/fhirtypes';
import { BODY_REGIONS } from '../../clinical';
import { type CaseField } from '../../case-schema';
import { BODY_REGION_LABELS, CASE_FIELD_LABELS } from '../../fields';
import { EXAM_ABNORMAL, INTERPRETATIONS, INTERPRETATIONS_SCREEN, PUPIL_SNOMED } from '../codes';
import type { CaseContext } from '../context';
import { make, type Entry } from '../entry';
import { dateTime, text } from '../values';
import { findingObservation } from './primary-survey';
import { category } from './shared';

/** BE-FAST stroke screen: each sign checked, the result, and the time noted. */
export function beFastObservation({
  c,
  idFor,
  common,
  initialAssessment,
}: CaseContext): Entry<Observation>[] {
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
  if (fastSigns.length === 0 && !fastTime) return [];
  const found = fastSigns.filter((s) => s.present).map((s) => CASE_FIELD_LABELS[s.field]);
  // Positive on any sign; negative only when all five were checked and none found.
  const result = found.length > 0 ? 'POS' : fastSigns.length === 5 ? 'NEG' : undefined;
  return [
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
  ];
}

/** Head-to-toe exam: one observation per region examined or with a finding. */
export function headToToeObservations({
  c,
  idFor,
  common,
  initialAssessment,
}: CaseContext): Entry<Observation>[] {
  return BODY_REGIONS.flatMap((region) => {
    const examined = c[`${region}Examined`] === true;
    const abnormal = c[`${region}Abnormal`];
    const notes = text(c[`${region}Notes`]);
    if (!examined && typeof abnormal !== 'boolean' && !notes) return [];
    const interpretation =
      abnormal === true ? EXAM_ABNORMAL : abnormal === false ? INTERPRETATIONS.normal : undefined;
    return [
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
    ];
  });
}

/** Neuro reassessment: pupils, then motor and sensory function with the crew's notes. */
export function neuroReassessmentObservations(ctx: CaseContext): Entry<Observation>[] {
  const { c, idFor, common } = ctx;
  const observations: Entry<Observation>[] = [];
  const neuroAt = dateTime(c.neuroReassessmentTime);
  const neuroPupils = text(c.neuroPupils);
  if (neuroPupils)
    observations.push(
      findingObservation(
        ctx,
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
  return observations;
}
