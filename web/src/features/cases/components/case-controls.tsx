// Case fields on the form kit's controls (components/record-form/controls.tsx), typed so a
// case screen can only name a case field of the right kind.
import type { ComponentProps } from 'react';
import type { CaseField, CaseFields } from '@rescuelog/sync-protocol/cases/case-schema';
import type { ChoiceOption } from '@/components/record-form/choice-group';
import {
  CheckboxField,
  ChoiceField,
  FormSection,
  MultiSelectField,
  NumberField,
  TextField,
  TimeField,
  YesNoField,
} from '@/components/record-form/controls';

type ValueOf<K extends CaseField> = NonNullable<CaseFields[K]>;
type FieldsOfType<T> = { [K in CaseField]-?: ValueOf<K> extends T ? K : never }[CaseField];

export type TextCaseField = FieldsOfType<string>;
export type NumberCaseField = FieldsOfType<number>;
export type BooleanCaseField = FieldsOfType<boolean>;
export type ListCaseField = FieldsOfType<readonly string[]>;
type TimeCaseField = FieldsOfType<string> & `${string}Time${string}`;
type NullableChoiceField = {
  [K in CaseField]-?: null extends CaseFields[K] ? (ValueOf<K> extends string ? K : never) : never;
}[CaseField];
type NullableBooleanField = {
  [K in CaseField]-?: null extends CaseFields[K] ? (ValueOf<K> extends boolean ? K : never) : never;
}[CaseField];
type RequiredBooleanField = {
  [K in CaseField]-?: null extends CaseFields[K] ? never : ValueOf<K> extends boolean ? K : never;
}[CaseField];

type WithField<P, F> = Omit<P, 'field'> & { field: F };

/** Free text; empty means not recorded (null). */
export function CaseTextField(props: WithField<ComponentProps<typeof TextField>, TextCaseField>) {
  return <TextField {...props} />;
}

/** A number typed or nudged with − / + (gloves); out-of-range values are not saved. */
export function CaseNumberField(
  props: WithField<ComponentProps<typeof NumberField>, NumberCaseField>,
) {
  return <NumberField {...props} />;
}

/** A date and time with a one-tap "Now" (to the minute) and a Clear. */
export function CaseTimeField(props: WithField<ComponentProps<typeof TimeField>, TimeCaseField>) {
  return <TimeField {...props} />;
}

/** One of a few values (AVPU, triage, gender…), saved on tap. */
export function CaseChoice<K extends NullableChoiceField>(
  props: Omit<ComponentProps<typeof ChoiceField<ValueOf<K> & string>>, 'field' | 'options'> & {
    field: K;
    options: readonly ChoiceOption<ValueOf<K> & string>[];
  },
) {
  return <ChoiceField<ValueOf<K> & string> {...props} />;
}

/** Yes / No / not recorded. */
export function CaseYesNo(
  props: WithField<ComponentProps<typeof YesNoField>, NullableBooleanField>,
) {
  return <YesNoField {...props} />;
}

/** A checkbox row for an always-set boolean (interventions, "examined"), saved on tap. */
export function CaseCheckbox(
  props: WithField<ComponentProps<typeof CheckboxField>, RequiredBooleanField>,
) {
  return <CheckboxField {...props} />;
}

/** Several of a list (symptoms, hemorrhage interventions), saved on tap. */
export function CaseMultiSelect(
  props: WithField<ComponentProps<typeof MultiSelectField>, ListCaseField>,
) {
  return <MultiSelectField {...props} />;
}

/** A titled group of fields on a step (e.g. "Caller", "Hemorrhage"). */
export const CaseSection = FormSection;
