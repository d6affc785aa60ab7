// What happened (as found and as told), other findings and the crew's notes, as written.
import type { Observation } from '@medplum/fhirtypes';
import type { CaseField } from '../../case-schema';
import { CASE_FIELD_LABELS } from '../../fields';
import type { CaseContext } from '../context';
import { make, type Entry } from '../entry';
import { text } from '../values';
import { category } from './shared';

/** The free-text fields, and whether each is an examination finding (timed at arrival). */
const NARRATIVES = [
  ['incidentDescription', false],
  ['additionalFindings', true],
  ['additionalNotes', false],
] as const satisfies readonly (readonly [CaseField, boolean])[];

export function narrativeObservations({
  c,
  idFor,
  common,
  initialAssessment,
}: CaseContext): Entry<Observation>[] {
  return NARRATIVES.flatMap(([field, exam]) => {
    const value = text(c[field]);
    if (!value) return [];
    return [
      make<Observation>(idFor(field), {
        resourceType: 'Observation',
        status: 'final',
        ...(exam ? { category: category('exam') } : {}),
        code: { text: CASE_FIELD_LABELS[field] },
        ...common,
        ...(exam && initialAssessment ? { effectiveDateTime: initialAssessment } : {}),
        valueString: value,
      }),
    ];
  });
}
