// The primary survey's findings: conscious level (AVPU, with the neuro reassessment's next to
// it), the triage colour, and airway, breathing, circulation and pupils as charted.
import type { CodeableConcept, Coding, Observation } from '@medplum/fhirtypes';
import { SATS_TRIAGE_SYSTEM } from '../code-systems';
import {
  AVPU_LOINC,
  AVPU_SNOMED,
  AVPU_TEXT,
  BREATHING_SNOMED,
  PUPIL_SNOMED,
  RESPIRATORY_EFFORT_LOINC,
  SATS_TRIAGE_LABELS,
} from '../codes';
import type { CaseContext, ObservationCommon } from '../context';
import { make, type Entry } from '../entry';
import { dateTime, text } from '../values';
import { category, loinc } from './shared';

const PRIMARY_SURVEY = 'Primary survey';

/** AVPU as LOINC's responsiveness assessment, valued with a SNOMED CT finding. */
function avpuObservation(
  uuid: string,
  avpu: 'A' | 'V' | 'P' | 'U',
  effective: string | undefined,
  note: string,
  common: ObservationCommon,
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

/** Conscious level (primary survey and neuro reassessment) and the SATS triage colour. */
export function consciousnessAndTriage({
  c,
  idFor,
  common,
  initialAssessment,
}: CaseContext): Entry<Observation>[] {
  const observations: Entry<Observation>[] = [];
  if (c.avpu)
    observations.push(
      avpuObservation(idFor('primary:avpu'), c.avpu, initialAssessment, PRIMARY_SURVEY, common),
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
  return observations;
}

/** A choice as charted, with its SNOMED CT finding when the choice has one. */
export function findingObservation(
  { idFor, common }: CaseContext,
  kind: string,
  code: CodeableConcept,
  value: string,
  coded: Readonly<Record<string, Coding>>,
  effective: string | undefined,
  note: string,
): Entry<Observation> {
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
}

/** Airway, breathing, circulation and pupils (primary survey): the choice as charted. */
export function primarySurveyFindings(ctx: CaseContext): Entry<Observation>[] {
  const { c, initialAssessment } = ctx;
  const findings: [
    string,
    CodeableConcept,
    string | undefined,
    Readonly<Record<string, Coding>>,
  ][] = [
    ['primary:airway', { text: 'Airway status' }, text(c.airwayStatus), {}],
    [
      'primary:breathing',
      loinc(RESPIRATORY_EFFORT_LOINC, 'Respiratory effort', 'Breathing status'),
      text(c.breathingStatus),
      BREATHING_SNOMED,
    ],
    ['primary:circulation', { text: 'Circulation status' }, text(c.circulationStatus), {}],
    ['primary:pupils', { text: 'Pupils' }, text(c.pupilResponsesiveness), PUPIL_SNOMED],
  ];
  return findings.flatMap(([kind, code, value, coded]) =>
    value
      ? [findingObservation(ctx, kind, code, value, coded, initialAssessment, PRIMARY_SURVEY)]
      : [],
  );
}
