// Case fields on the form kit's controls, typed (form-kit.tsx) so a case screen can only name
// a case field of the right kind: a typo or a number field on a text input fails the typecheck.
import { caseForm } from './case-form';

/** Free text; empty means not recorded (null). */
export const CaseTextField = caseForm.TextField;
/** A number typed or nudged with − / + (gloves); out-of-range values are not saved. */
export const CaseNumberField = caseForm.NumberField;
/** A date and time with a one-tap "Now" (to the minute) and a Clear. */
export const CaseTimeField = caseForm.TimeField;
/** One of a few values (AVPU, triage, gender…), saved on tap. */
export const CaseChoice = caseForm.Choice;
/** Yes / No / not recorded. */
export const CaseYesNo = caseForm.YesNo;
/** A checkbox row for an always-set boolean (interventions, "examined"), saved on tap. */
export const CaseCheckbox = caseForm.Checkbox;
/** Several of a list (symptoms, hemorrhage interventions), saved on tap. */
export const CaseMultiSelect = caseForm.MultiSelect;
/** A titled group of fields on a step (e.g. "Caller", "Hemorrhage"). */
export const CaseSection = caseForm.Section;
