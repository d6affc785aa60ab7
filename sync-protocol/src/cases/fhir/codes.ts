// The LOINC and SNOMED CT codes the export uses beyond the vital signs, and the HL7
// interpretation codes (decision 008 lists where each comes from).
import type { Coding } from '@medplum/fhirtypes';
import type { Intervention, VitalSignStatus } from '../clinical';
import { INTERPRETATION, SNOMED_CT } from './code-systems';

export const BP_SYSTOLIC_LOINC = '8480-6';
export const BP_DIASTOLIC_LOINC = '8462-4';
export const GCS_EYE_LOINC = '9267-6';
export const GCS_VERBAL_LOINC = '9270-0';
export const GCS_MOTOR_LOINC = '9268-4';
export const AGE_LOINC = '30525-0';
/**
 * AVPU: LOINC's responsiveness assessment, as IHE's Paramedicine Care Summary uses it for
 * every AVPU reading (rather than the NEMSIS-method 67775-7), valued with SNOMED CT findings.
 */
export const AVPU_LOINC = '11454-6';
export const PAST_HISTORY_LOINC = '11348-0';
export const MEDICATION_HISTORY_LOINC = '10160-0';
export const PRESENT_ILLNESS_LOINC = '10164-2';

/** SNOMED CT findings for A, V, P and U (decision 008 lists the value sets they come from). */
export const AVPU_SNOMED: Record<'A' | 'V' | 'P' | 'U', Coding> = {
  A: { system: SNOMED_CT, code: '248234008', display: 'Mentally alert' },
  V: { system: SNOMED_CT, code: '300202002', display: 'Responds to voice' },
  P: { system: SNOMED_CT, code: '450847001', display: 'Responds to pain' },
  U: { system: SNOMED_CT, code: '422768004', display: 'Unresponsive' },
};
export const AVPU_TEXT: Record<'A' | 'V' | 'P' | 'U', string> = {
  A: 'A — Alert',
  V: 'V — Responds to voice',
  P: 'P — Responds to pain',
  U: 'U — Unresponsive',
};

export const NO_KNOWN_ALLERGY: Coding = {
  system: SNOMED_CT,
  code: '716186003',
  display: 'No known allergy (situation)',
};
export const NO_KNOWN_DRUG_ALLERGY: Coding = {
  system: SNOMED_CT,
  code: '409137002',
  display: 'No known drug allergy (situation)',
};

/**
 * The primary survey's breathing status as LOINC's respiratory effort, as IHE's Paramedicine
 * Care Summary codes it; valued with the SNOMED CT findings of its Respiratory Effort value set
 * for the choices that name one ("Noisy" has none and stays text).
 */
export const RESPIRATORY_EFFORT_LOINC = '80341-1';
export const BREATHING_SNOMED: Readonly<Record<string, Coding>> = {
  normal: { system: SNOMED_CT, code: '1290338002', display: 'Normal respiratory effort' },
  laboured: { system: SNOMED_CT, code: '248549001', display: 'Labored breathing' },
  labored: { system: SNOMED_CT, code: '248549001', display: 'Labored breathing' },
  shallow: { system: SNOMED_CT, code: '386616007', display: 'Shallow breathing' },
  absent: { system: SNOMED_CT, code: '1023001', display: 'Apnea' },
};
/**
 * Pupil findings with a SNOMED CT code of their own (decision 008 lists the value sets); the
 * other choices ("Unequal", "Fixed and dilated", "Not assessable") stay text: one finding
 * each would claim less, or more, than the crew charted.
 */
export const PUPIL_SNOMED: Readonly<Record<string, Coding>> = {
  pearl: { system: SNOMED_CT, code: '386666001', display: 'Pupils equal and reacting to light' },
  sluggish: { system: SNOMED_CT, code: '421141009', display: 'Sluggish pupil movement' },
  pinpoint: { system: SNOMED_CT, code: '271608006', display: 'Pin point pupils' },
};

/** The South African Triage Scale colours the triage step offers, with their meaning. */
export const SATS_TRIAGE_LABELS: Record<string, string> = {
  RED: 'Red — Emergency',
  ORANGE: 'Orange — Very urgent',
  YELLOW: 'Yellow — Urgent',
  GREEN: 'Green — Routine',
  BLUE: 'Blue — Dead',
};

/**
 * SNOMED CT codes for the interventions whose code we checked against published uses (decision
 * 008); every other intervention is exported as text only rather than with a guessed code.
 */
export const INTERVENTION_SNOMED: Partial<Record<Intervention, Coding>> = {
  cprPerformed: {
    system: SNOMED_CT,
    code: '89666000',
    display: 'Cardiopulmonary resuscitation (procedure)',
  },
  oxygenAdministered: {
    system: SNOMED_CT,
    code: '57485005',
    display: 'Oxygen therapy (procedure)',
  },
  endotrachealIntubation: {
    system: SNOMED_CT,
    code: '112798008',
    display: 'Insertion of endotracheal tube (procedure)',
  },
  ecg12Lead: {
    system: SNOMED_CT,
    code: '268400002',
    display: '12 lead electrocardiogram (procedure)',
  },
};

export const INTERPRETATIONS: Record<VitalSignStatus, Coding> = {
  high: { system: INTERPRETATION, code: 'H', display: 'High' },
  low: { system: INTERPRETATION, code: 'L', display: 'Low' },
  normal: { system: INTERPRETATION, code: 'N', display: 'Normal' },
};

export const INTERPRETATIONS_SCREEN: Record<'POS' | 'NEG', Coding> = {
  POS: { system: INTERPRETATION, code: 'POS', display: 'Positive' },
  NEG: { system: INTERPRETATION, code: 'NEG', display: 'Negative' },
};
export const EXAM_ABNORMAL: Coding = { system: INTERPRETATION, code: 'A', display: 'Abnormal' };
