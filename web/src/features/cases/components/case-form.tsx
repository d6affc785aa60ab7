// The case being edited, for every control on a step: the form kit (components/record-form)
// typed for the case kind. The kit loads nothing here (the step layout has looked the case
// up by its number and hands the record to RecordFormProvider); it saves through the one
// write path, validated by the case's definition, read-only once the case is completed.
import { caseRecord } from '@rescuelog/sync-protocol/cases/case';
import type { CaseField } from '@rescuelog/sync-protocol/cases/case-schema';
import { formKit } from '@/components/record-form/form-kit';
import { recordFieldId } from '@/components/record-form/record-form-provider';

/** The kit's form and controls, typed for a case's fields. */
export const caseForm = formKit(caseRecord);

export type CaseForm = ReturnType<typeof caseForm.useForm>;

/** The record form, typed for a case's fields. */
export const useCaseForm = caseForm.useForm;

/** The DOM id of a field's input: completion problems link to `#field-<name>`. */
export function caseFieldId(field: CaseField | 'vitalSigns'): string {
  return recordFieldId(field);
}
