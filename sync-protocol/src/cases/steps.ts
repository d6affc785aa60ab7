// The capture steps of a patient case, in order (domain.md "Case steps"; routes in spec §2).
// The URL carries the human case number (caseId, e.g. C-2611-7Q4M-XK3P), which a responder
// can read over the radio; the device finds the case by it.

export const CASE_STEPS = [
  { key: 'patient-details', path: '/patient-details', title: 'Patient Details', short: 'Patient' },
  { key: 'primary-survey', path: '/primary-survey', title: 'Primary Survey', short: 'Primary' },
  {
    key: 'secondary-survey',
    path: '/secondary-survey',
    title: 'Secondary Survey',
    short: 'Secondary',
  },
  {
    key: 'treatment-provided',
    path: '/treatment-provided',
    title: 'Treatment Provided',
    short: 'Treatment',
  },
  {
    key: 'response-details',
    path: '/response-details',
    title: 'Response Details',
    short: 'Response',
  },
  { key: 'case-completed', path: '/case-completed', title: 'Case Completed', short: 'Complete' },
] as const;

export type CaseStep = (typeof CASE_STEPS)[number];
export type CaseStepKey = CaseStep['key'];
export const CASE_STEP_KEYS = CASE_STEPS.map((s) => s.key) as readonly CaseStepKey[];

export function caseStep(key: CaseStepKey): CaseStep {
  const step = CASE_STEPS.find((s) => s.key === key);
  if (!step) throw new Error(`Unknown case step ${key}`);
  return step;
}

/** The route of a step for one case, e.g. /primary-survey/C-2611-7Q4M-XK3P. */
export function stepPath(key: CaseStepKey, caseId: string): string {
  return `${caseStep(key).path}/${encodeURIComponent(caseId)}`;
}

/** The step after (or before) this one, or null at either end. */
export function adjacentStep(key: CaseStepKey, direction: 1 | -1): CaseStep | null {
  const index = CASE_STEP_KEYS.indexOf(key) + direction;
  return CASE_STEPS[index] ?? null;
}
