// Which of the advanced interventions (domain.md: intubation, needle decompression, manual
// defibrillation, IO access) fall outside a responder's scope of practice. The Treatment
// step shows a warning beside those items; it informs the record, it never blocks it (an
// advanced intervention a basic responder records was often done by another practitioner
// on scene, and the record must still say it happened).
//
// Scopes follow the HPCSA Professional Board for Emergency Care registers:
// - First Aid Level 3 is not an HPCSA registration; Basic Ambulance Assistant (BAA) and the
//   Emergency Care Assistant (ECA) are basic life support: none of the four.
// - Ambulance Emergency Assistant (AEA) is intermediate life support: manual
//   defibrillation and needle thoracocentesis are in its scope; endotracheal intubation and
//   intraosseous access are not.
// - Emergency Care Technician, Emergency Care Practitioner, nurses and doctors: no warning
//   (mid-level and advanced practitioners, or registered with their own council).
// - 'Other' or no qualification on the profile: the scope is unknown, so the screen asks
//   the responder to check rather than warning outright.
import { ADVANCED_INTERVENTIONS, type Intervention } from '@rescuelog/sync-protocol/cases/clinical';

const ALL_ADVANCED: readonly Intervention[] = ADVANCED_INTERVENTIONS;

const OUTSIDE_SCOPE: Readonly<Record<string, readonly Intervention[]>> = {
  'First Aid Level 3': ALL_ADVANCED,
  'Basic Ambulance Assistant': ALL_ADVANCED,
  'Emergency Care Assistant': ALL_ADVANCED,
  'Ambulance Emergency Assistant': ['endotrachealIntubation', 'ioAccess'],
  'Emergency Care Technician': [],
  'Emergency Care Practitioner': [],
  Nurse: [],
  'Nursing Sister': [],
  'Medical Doctor': [],
};

export type ScopeCheck =
  { kind: 'in-scope' } | { kind: 'outside'; qualification: string } | { kind: 'unknown' };

/** Whether `intervention` is within the scope of a responder with this qualification. */
export function checkScope(
  qualification: string | null | undefined,
  intervention: Intervention,
): ScopeCheck {
  if (!ADVANCED_INTERVENTIONS.includes(intervention)) return { kind: 'in-scope' };
  const q = qualification?.trim() ?? '';
  const outside = OUTSIDE_SCOPE[q];
  if (outside === undefined) return { kind: 'unknown' };
  return outside.includes(intervention)
    ? { kind: 'outside', qualification: q }
    : { kind: 'in-scope' };
}

/** The warning shown beside an intervention, or null when there is nothing to say. */
export function scopeWarning(
  qualification: string | null | undefined,
  intervention: Intervention,
): string | null {
  const check = checkScope(qualification, intervention);
  switch (check.kind) {
    case 'in-scope':
      return null;
    case 'outside':
      return `Outside the scope of practice of ${check.qualification}. If it was done, record it and note who performed it under Procedures performed.`;
    case 'unknown':
      return 'Advanced intervention: if it was done, note who performed it (and their qualification) under Procedures performed.';
  }
}
