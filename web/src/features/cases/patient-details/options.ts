// The choices of the Patient Details step. Values are stored as the label text (what the
// dashboard, the search and the handover show), so a case reads the same everywhere.
import type { ChoiceOption } from '@/components/record-form/choice-group';

export const GENDER_OPTIONS: readonly ChoiceOption<string>[] = [
  { value: 'Male', label: 'Male' },
  { value: 'Female', label: 'Female' },
  { value: 'Other', label: 'Other' },
  { value: 'Unknown', label: 'Unknown' },
];

export const OTHER_INCIDENT_TYPE = 'Other';

/**
 * Common EMS call types (NEMSIS eSituation, SA EMS dispatch categories) in plain words that
 * fit two chips side by side on a phone ('Breathing problem', not 'Respiratory').
 */
export const INCIDENT_TYPE_OPTIONS: readonly ChoiceOption<string>[] = [
  { value: 'Medical', label: 'Medical', description: 'Illness, unwell' },
  { value: 'Trauma', label: 'Trauma', description: 'Injury' },
  {
    value: 'Road traffic collision',
    label: 'Road traffic collision',
    description: 'MVA, pedestrian',
  },
  { value: 'Fall', label: 'Fall' },
  { value: 'Assault', label: 'Assault', description: 'Stab, gunshot, beating' },
  { value: 'Burns', label: 'Burns' },
  { value: 'Drowning', label: 'Drowning' },
  { value: 'Cardiac', label: 'Cardiac', description: 'Chest pain, arrest' },
  { value: 'Breathing problem', label: 'Breathing problem', description: 'Respiratory, asthma' },
  { value: 'Stroke', label: 'Stroke' },
  { value: 'Obstetric', label: 'Obstetric', description: 'Pregnancy, birth' },
  { value: 'Paediatric', label: 'Paediatric' },
  { value: 'Mental health', label: 'Mental health', description: 'Psychiatric, behavioural' },
  { value: 'Poisoning / overdose', label: 'Poisoning / overdose' },
  { value: OTHER_INCIDENT_TYPE, label: 'Other', description: 'Describe it' },
];

export interface IncidentTypeValue {
  /** The chip that is on (a list value, 'Other', or null for not recorded). */
  choice: string | null;
  /** The description typed for 'Other'. */
  otherText: string;
}

/**
 * Reads a stored incident type: a list label (any case), 'Other: <description>', or any other
 * text (typed on another device or an older build), which shows as Other with that text.
 */
export function readIncidentType(stored: string | null | undefined): IncidentTypeValue {
  const text = (stored ?? '').trim();
  if (text === '') return { choice: null, otherText: '' };
  const listed = INCIDENT_TYPE_OPTIONS.find((o) => o.value.toLowerCase() === text.toLowerCase());
  if (listed) return { choice: listed.value, otherText: '' };
  const other = /^other\b\s*:?\s*(.*)$/is.exec(text);
  return { choice: OTHER_INCIDENT_TYPE, otherText: other ? (other[1] ?? '') : text };
}

/** The stored text for 'Other' with a description: 'Other: snake bite' (or just 'Other'). */
export function otherIncidentType(description: string): string {
  const text = description.trim();
  return text === '' ? OTHER_INCIDENT_TYPE : `${OTHER_INCIDENT_TYPE}: ${text}`;
}
