// Catastrophic bleeding (primary survey): present or not, where, what kind, and controlled.
// The control measures become Procedures (procedures.ts) that name this observation as their
// reason.
import type { Observation, ObservationComponent } from '@medplum/fhirtypes';
import type { CaseField } from '../../case-schema';
import { CASE_FIELD_LABELS } from '../../fields';
import type { CaseContext, FhirCase } from '../context';
import { make, type Entry } from '../entry';
import { text } from '../values';
import { category } from './shared';

/** The bleeding-control measures as charted (blank items left out). */
export function bleedingControlItems(c: FhirCase): string[] {
  return (c.hemorrhagingInterventions ?? [])
    .map((v) => text(v))
    .filter((v): v is string => v !== undefined);
}

function bleedingSiteOf(c: FhirCase): string | undefined {
  const bleedingOther = text(c.hemorrhagingLocationOther);
  const bleedingPlace = text(c.hemorrhagingLocation);
  return bleedingPlace?.toLowerCase() === 'other'
    ? (bleedingOther ?? bleedingPlace)
    : [bleedingPlace, bleedingOther].filter((v): v is string => v !== undefined).join(': ') ||
        undefined;
}

export function bleedingObservation({
  c,
  idFor,
  common,
  initialAssessment,
}: CaseContext): Entry<Observation> | undefined {
  const bleedingSite = bleedingSiteOf(c);
  const bleedingDetails = (
    [
      'hemorrhagingType',
      'hemorrhagingSeverity',
      'hemorrhagingControlStatus',
    ] as const satisfies readonly CaseField[]
  ).flatMap((f): ObservationComponent[] => {
    const v = text(c[f]);
    return v ? [{ code: { text: CASE_FIELD_LABELS[f] }, valueString: v }] : [];
  });
  const charted =
    typeof c.hemorrhagingActive === 'boolean' ||
    bleedingSite ||
    bleedingDetails.length > 0 ||
    bleedingControlItems(c).length > 0;
  if (!charted) return undefined;
  return make<Observation>(idFor('primary:bleeding'), {
    resourceType: 'Observation',
    status: 'final',
    category: category('exam'),
    code: { text: 'Catastrophic bleeding' },
    ...common,
    ...(initialAssessment ? { effectiveDateTime: initialAssessment } : {}),
    // Yes or no as charted; details recorded without the answer leave it unsaid.
    ...(typeof c.hemorrhagingActive === 'boolean' ? { valueBoolean: c.hemorrhagingActive } : {}),
    ...(bleedingSite ? { bodySite: { text: bleedingSite } } : {}),
    ...(bleedingDetails.length > 0 ? { component: bleedingDetails } : {}),
    note: [{ text: 'Primary survey' }],
  });
}
