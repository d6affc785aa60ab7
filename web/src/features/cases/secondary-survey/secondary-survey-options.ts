// The choices the secondary survey offers; stored as the words a crew charts.
import type { ChoiceOption } from '@/components/record-form/choice-group';

export const COMMON_SYMPTOMS: readonly { value: string; label: string }[] = [
  'Chest pain',
  'Shortness of breath',
  'Abdominal pain',
  'Headache',
  'Dizziness',
  'Nausea or vomiting',
  'Collapse or fainting',
  'Confusion',
  'Seizure',
  'Weakness',
  'Palpitations',
  'Fever',
  'Bleeding',
  'Limb pain or deformity',
  'Back or neck pain',
  'Burns',
  'Rash or swelling',
  'Diarrhoea',
].map((value) => ({ value, label: value }));

export const NO_KNOWN_ALLERGIES = 'No known allergies';

export const MOTOR_FUNCTION: readonly ChoiceOption<string>[] = [
  { value: 'Moves all limbs normally', label: 'Moves all limbs normally' },
  { value: 'Weakness left side', label: 'Weakness left side' },
  { value: 'Weakness right side', label: 'Weakness right side' },
  { value: 'Weakness in all limbs', label: 'Weakness in all limbs' },
  { value: 'Legs only affected', label: 'Legs only affected' },
  { value: 'No movement', label: 'No movement' },
];

export const SENSORY_FUNCTION: readonly ChoiceOption<string>[] = [
  { value: 'Normal', label: 'Normal' },
  { value: 'Reduced', label: 'Reduced' },
  { value: 'Pins and needles', label: 'Pins and needles' },
  { value: 'Absent', label: 'Absent' },
];

/** OPQRST prompts: what to ask, in a crew's words. */
export const OPQRST = [
  {
    field: 'onset',
    label: 'O — Onset',
    hint: 'What were you doing when it started? Sudden or gradual?',
  },
  { field: 'provocation', label: 'P — Provocation', hint: 'What makes it better or worse?' },
  {
    field: 'quality',
    label: 'Q — Quality',
    hint: 'What does it feel like? Sharp, dull, crushing, burning?',
  },
  {
    field: 'region',
    label: 'R — Region and radiation',
    hint: 'Where is it? Does it spread anywhere?',
  },
  {
    field: 'severity',
    label: 'S — Severity',
    hint: 'How bad, in words (the 0–10 score is below)?',
  },
  {
    field: 'timing',
    label: 'T — Timing',
    hint: 'When did it start? Constant or coming and going?',
  },
] as const;
