// Glasgow Coma Scale (domain.md "GCS"): the options the E/V/M pickers offer and the total.
//
// Labels follow the Glasgow structured approach (Teasdale et al., Lancet Neurol 2014;
// glasgowcomascale.org) in words a crew uses at the roadside. Children under 5 are scored
// with the modified verbal (and motor) descriptors of NICE NG232 "Head injury" (2023; the
// paediatric GCS table carried over from CG176), which score on the same 1–5 and 1–6 ranges,
// so totals stay comparable.
//
// Intubated patients (verbal not testable): the verbal part is charted 'T' and the stored
// verbal score stays null (entities.ts). For the total we count VT as 1 and suffix 'T', so
// the lowest intubated score is '3T' and the highest '11T'. Practice varies (a national
// survey of US level I trauma centres, J Trauma 1998;45(3), found "1 point for verbal plus
// eye and motor" the commonest rule); we chose it because the total then stays on the 3–15
// range the record stores and codes to (E+M alone could be 2), and the 'T' tells the reader
// the verbal part was not testable rather than absent. formatGcs always shows the parts,
// because E, V and M carry more information than any total (Teasdale 2014).
import { GCS_RANGES } from './clinical';
import type { CaseRecord } from './case-schema';

export interface GcsOption {
  score: number;
  label: string;
}

export interface GcsParts {
  eye: number | null;
  verbal: number | null;
  motor: number | null;
  verbalIntubated: boolean;
}

/** Below this age (years) the modified paediatric descriptors apply. */
export const GCS_PAEDIATRIC_BELOW_AGE = 5;

/** The verbal score counted in the total of an intubated patient (charted 'T'). */
export const GCS_INTUBATED_VERBAL_SCORE = 1;

function isPaediatric(ageYears: number | null | undefined): boolean {
  return (
    ageYears !== null &&
    ageYears !== undefined &&
    ageYears >= 0 &&
    ageYears < GCS_PAEDIATRIC_BELOW_AGE
  );
}

export function gcsEyeOptions(ageYears: number | null = null): GcsOption[] {
  return [
    { score: 4, label: 'Opens eyes spontaneously' },
    {
      score: 3,
      label: isPaediatric(ageYears) ? 'Opens eyes to speech or sound' : 'Opens eyes to voice',
    },
    { score: 2, label: 'Opens eyes to pain' },
    { score: 1, label: 'No eye opening' },
  ];
}

export function gcsVerbalOptions(ageYears: number | null): GcsOption[] {
  if (isPaediatric(ageYears)) {
    return [
      { score: 5, label: 'Alert, babbles, coos or talks as usual' },
      { score: 4, label: 'Less than usual words, irritable cry' },
      { score: 3, label: 'Cries only to pain' },
      { score: 2, label: 'Moans to pain' },
      { score: 1, label: 'No verbal response' },
    ];
  }
  return [
    { score: 5, label: 'Oriented' },
    { score: 4, label: 'Confused' },
    { score: 3, label: 'Inappropriate words' },
    { score: 2, label: 'Incomprehensible sounds' },
    { score: 1, label: 'No verbal response' },
  ];
}

export function gcsMotorOptions(ageYears: number | null = null): GcsOption[] {
  const paediatric = isPaediatric(ageYears);
  return [
    { score: 6, label: paediatric ? 'Obeys commands or moves normally' : 'Obeys commands' },
    { score: 5, label: paediatric ? 'Localises pain or withdraws to touch' : 'Localises to pain' },
    { score: 4, label: 'Withdraws from pain' },
    { score: 3, label: 'Abnormal flexion (decorticate)' },
    { score: 2, label: 'Extension (decerebrate)' },
    { score: 1, label: 'No motor response' },
  ];
}

function inRange(value: number | null, range: { min: number; max: number }): value is number {
  return value !== null && Number.isInteger(value) && value >= range.min && value <= range.max;
}

/**
 * The total, or null until every part it needs is present and in range: E and M always, V
 * unless intubated (then V counts as 1, see the file comment).
 */
export function computeGcsTotal(p: GcsParts): number | null {
  if (!inRange(p.eye, GCS_RANGES.eye) || !inRange(p.motor, GCS_RANGES.motor)) return null;
  if (p.verbalIntubated) return p.eye + GCS_INTUBATED_VERBAL_SCORE + p.motor;
  if (!inRange(p.verbal, GCS_RANGES.verbal)) return null;
  return p.eye + p.verbal + p.motor;
}

/** True when no part has been scored (and intubated is not ticked). */
export function isGcsEmpty(p: GcsParts): boolean {
  return p.eye === null && p.verbal === null && p.motor === null && !p.verbalIntubated;
}

/**
 * 'E4 V5 M6 = 15', intubated 'E2 VT M4 = 7T'; a part not yet scored shows '?' and no total
 * ('E4 V? M6'); nothing scored gives ''.
 */
export function formatGcs(p: GcsParts): string {
  if (isGcsEmpty(p)) return '';
  const part = (letter: string, v: number | null) => `${letter}${v ?? '?'}`;
  const verbal = p.verbalIntubated ? 'VT' : part('V', p.verbal);
  const parts = `${part('E', p.eye)} ${verbal} ${part('M', p.motor)}`;
  const total = computeGcsTotal(p);
  if (total === null) return parts;
  return `${parts} = ${total}${p.verbalIntubated ? 'T' : ''}`;
}

/** The GCS parts as a case stores them. */
export function gcsPartsOf(
  c: Partial<
    Pick<
      CaseRecord,
      'gcsEyeOpening' | 'gcsVerbalResponse' | 'gcsMotorResponse' | 'gcsVerbalIntubated'
    >
  >,
): GcsParts {
  return {
    eye: c.gcsEyeOpening ?? null,
    verbal: c.gcsVerbalResponse ?? null,
    motor: c.gcsMotorResponse ?? null,
    verbalIntubated: c.gcsVerbalIntubated ?? false,
  };
}
