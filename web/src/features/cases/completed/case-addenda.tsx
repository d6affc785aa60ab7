// The case's addenda through the form kit's addenda (components/record-form/addenda): what
// the kit needs to know of a case's fields (labels, steps, how values read, their inputs,
// read from the synced field schema) and how a case addendum is saved.
import {
  CASE_FIELD_LABELS,
  CASE_FIELD_ORDER,
  FIELD_STEP,
  formatCaseValue,
  isTimeField,
} from '@rescuelog/sync-protocol/cases/fields';
import { CASE_STEPS } from '@rescuelog/sync-protocol/cases/steps';
import {
  CASE_FIELDS,
  caseFieldsSchema,
  type CaseField,
} from '@rescuelog/sync-protocol/cases/case-schema';
import { AddendaList } from '@/components/record-form/addenda/addenda-list';
import { AddendumForm, type AddendumFields } from '@/components/record-form/addenda/addendum-form';
import { fieldKinds } from '@/components/record-form/addenda/field-kinds';
import { addCaseAddendum } from '../data/case-writes';
import type { LocalAddendum, LocalCase } from '../data/use-case';

const KNOWN_FIELDS = new Set<string>(CASE_FIELDS);
const isCaseField = (field: string): field is CaseField => KNOWN_FIELDS.has(field);

const AVPU_TEXT: Record<string, string> = {
  A: 'A — Alert',
  V: 'V — Voice',
  P: 'P — Pain',
  U: 'U — Unresponsive',
};

/** The inputs a case field gets in an addendum (exported for its tests). */
export const caseFieldKinds = fieldKinds(caseFieldsSchema, (field) =>
  isCaseField(field) ? isTimeField(field) : false,
);

const label = (field: string): string => (isCaseField(field) ? CASE_FIELD_LABELS[field] : field);
const format = (field: string, value: unknown): string =>
  isCaseField(field) ? formatCaseValue(field, value) : JSON.stringify(value ?? null);

export const CASE_ADDENDUM_FIELDS: AddendumFields = {
  groups: CASE_STEPS.filter((s) => s.key !== 'case-completed').map((step) => ({
    title: step.title,
    fields: CASE_FIELD_ORDER.filter((f) => FIELD_STEP[f] === step.key),
  })),
  label,
  format,
  kinds: caseFieldKinds,
  optionLabel: (field, option) => (field === 'avpu' ? (AVPU_TEXT[option] ?? option) : option),
};

export function CaseAddendumForm({
  record,
  onDone,
}: {
  record: LocalCase & { caseId: string };
  onDone: () => void;
}) {
  return (
    <AddendumForm
      record={record}
      fields={CASE_ADDENDUM_FIELDS}
      onSave={(reason, changes, signer) =>
        addCaseAddendum(
          record,
          reason,
          changes.filter((c) => isCaseField(c.field)) as Parameters<typeof addCaseAddendum>[2],
          signer,
        )
      }
      onDone={onDone}
    />
  );
}

export function CaseAddendaList({
  addenda,
  authorName,
}: {
  addenda: readonly LocalAddendum[];
  authorName: (addendum: LocalAddendum) => string;
}) {
  return <AddendaList addenda={addenda} authorName={authorName} label={label} format={format} />;
}
