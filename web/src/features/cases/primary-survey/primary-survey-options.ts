// The choices the primary survey offers. Stored values are the words a crew charts (the
// record and the handover print them as they are), so they stay readable without a lookup.
// 'Other' values start with "Other" and tourniquets contain "Tourniquet": the completion
// check (sync-protocol case/completion.ts) recognises them by that.
import type { ChoiceOption } from '@/components/record-form/choice-group';

export const AVPU_OPTIONS: readonly ChoiceOption<'A' | 'V' | 'P' | 'U'>[] = [
  { value: 'A', label: 'A — Alert', description: 'Eyes open, talks, aware of surroundings' },
  { value: 'V', label: 'V — Voice', description: 'Responds only when spoken to' },
  { value: 'P', label: 'P — Pain', description: 'Responds only to a painful stimulus' },
  { value: 'U', label: 'U — Unresponsive', description: 'No response to voice or pain' },
];

export const OTHER = 'Other';
export const TOURNIQUET = 'Tourniquet';

export const HEMORRHAGE_LOCATIONS: readonly ChoiceOption<string>[] = [
  'Head',
  'Neck',
  'Chest',
  'Abdomen',
  'Pelvis',
  'Back',
  'Left arm',
  'Right arm',
  'Left leg',
  'Right leg',
  'Groin or armpit (junctional)',
  OTHER,
].map((value) => ({ value, label: value }));

export const HEMORRHAGE_TYPES: readonly ChoiceOption<string>[] = [
  { value: 'Arterial', label: 'Arterial', description: 'Bright red, spurting' },
  { value: 'Venous', label: 'Venous', description: 'Dark red, steady flow' },
  { value: 'Capillary', label: 'Capillary', description: 'Oozing' },
  { value: 'Mixed', label: 'Mixed', description: 'More than one type' },
];

export const HEMORRHAGE_SEVERITIES: readonly ChoiceOption<string>[] = [
  { value: 'Catastrophic', label: 'Catastrophic', description: 'Life-threatening, act now' },
  { value: 'Severe', label: 'Severe' },
  { value: 'Moderate', label: 'Moderate' },
  { value: 'Minor', label: 'Minor' },
];

export const HEMORRHAGE_CONTROL: readonly ChoiceOption<string>[] = [
  { value: 'Controlled', label: 'Controlled' },
  { value: 'Partially controlled', label: 'Partially controlled' },
  { value: 'Uncontrolled', label: 'Uncontrolled' },
];

export const HEMORRHAGE_INTERVENTIONS: readonly { value: string; label: string }[] = [
  'Direct pressure',
  'Wound packing',
  'Haemostatic dressing',
  TOURNIQUET,
  'Pressure bandage',
  'Elevation',
  'Pelvic binder',
  OTHER,
].map((value) => ({ value, label: value }));

export const AIRWAY_STATUSES: readonly ChoiceOption<string>[] = [
  { value: 'Clear', label: 'Clear', description: 'Patent, talking' },
  {
    value: 'Maintained with manoeuvre',
    label: 'Maintained with manoeuvre',
    description: 'Head tilt, chin lift or jaw thrust',
  },
  {
    value: 'Maintained with adjunct',
    label: 'Maintained with adjunct',
    description: 'OPA, NPA or supraglottic',
  },
  {
    value: 'Partially obstructed',
    label: 'Partially obstructed',
    description: 'Snoring, gurgling, stridor',
  },
  { value: 'Obstructed', label: 'Obstructed', description: 'No air movement' },
];

export const BREATHING_STATUSES: readonly ChoiceOption<string>[] = [
  { value: 'Normal', label: 'Normal' },
  { value: 'Laboured', label: 'Laboured', description: 'Working hard, accessory muscles' },
  { value: 'Shallow', label: 'Shallow' },
  { value: 'Noisy', label: 'Noisy', description: 'Wheeze, stridor or crackles' },
  { value: 'Absent', label: 'Absent', description: 'Not breathing' },
];

export const CIRCULATION_STATUSES: readonly ChoiceOption<string>[] = [
  { value: 'Normal', label: 'Normal', description: 'Strong radial pulse, warm skin' },
  { value: 'Pale, cool, clammy', label: 'Pale, cool, clammy' },
  { value: 'Weak radial pulse', label: 'Weak radial pulse' },
  { value: 'No radial pulse', label: 'No radial pulse', description: 'Central pulse only' },
  { value: 'No pulse', label: 'No pulse', description: 'Start CPR' },
];

export const PUPIL_OPTIONS: readonly ChoiceOption<string>[] = [
  { value: 'PEARL', label: 'PEARL', description: 'Equal and reactive to light' },
  { value: 'Unequal', label: 'Unequal' },
  { value: 'Sluggish', label: 'Sluggish', description: 'Slow to react' },
  { value: 'Fixed and dilated', label: 'Fixed and dilated' },
  { value: 'Pinpoint', label: 'Pinpoint' },
  { value: 'Not assessable', label: 'Not assessable', description: 'Eyes swollen shut, injury' },
];

/**
 * South African Triage Scale colours and what they mean (SATS: red emergency, orange very
 * urgent, yellow urgent, green routine, blue dead). Not the START/SALT meanings of
 * TRIAGE_COLOUR_LABELS, which are for mass-casualty sorting.
 */
export const SATS_TRIAGE = [
  { value: 'RED', label: 'Red', description: 'Emergency: treat immediately' },
  { value: 'ORANGE', label: 'Orange', description: 'Very urgent: within 10 minutes' },
  { value: 'YELLOW', label: 'Yellow', description: 'Urgent: within 1 hour' },
  { value: 'GREEN', label: 'Green', description: 'Routine: within 4 hours' },
  { value: 'BLUE', label: 'Blue', description: 'Dead' },
] as const;

/** The offered options plus any value recorded that is not among them (kept visible). */
export function withRecorded(
  options: readonly { value: string; label: string }[],
  recorded: readonly string[],
): { value: string; label: string }[] {
  const extra = recorded
    .filter((v) => !options.some((o) => o.value === v))
    .map((v) => ({ value: v, label: v }));
  return [...options, ...extra];
}

/** Choice options plus the recorded value when it is not among them (so it shows selected). */
export function withRecordedChoice(
  options: readonly ChoiceOption<string>[],
  recorded: string | null | undefined,
): ChoiceOption<string>[] {
  if (
    recorded === null ||
    recorded === undefined ||
    recorded === '' ||
    options.some((o) => o.value === recorded)
  )
    return [...options];
  return [...options, { value: recorded, label: recorded }];
}
