// The case being edited, for every control on a step: the form kit's record form
// (components/record-form) over the case — its current local record, locked when completed,
// and `save` (validated by the case's rules, one synced mutation per change).
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import type { CaseField, CaseFields } from '@rescuelog/sync-protocol/cases/case-schema';
import {
  NOT_STORED,
  RecordFormProvider,
  useRecordForm,
  type RecordForm,
} from '@/components/record-form/record-form';
import { saveCaseFields, validateCaseFields } from '../data/case-writes';
import type { LocalCase } from '../data/use-case';

export interface CaseForm {
  record: LocalCase;
  /** Completed (locked) cases are read-only; corrections are addenda. */
  readOnly: boolean;
  /** Saves the fields; resolves to the problems per field (validation, or NOT_STORED when
   * the device could not store them); empty when saved. */
  save: (fields: CaseFields) => Promise<Partial<Record<CaseField, string>>>;
  /** The last failure to store (IndexedDB full, no session…), for the step's error banner. */
  saveError: string | null;
}

export function CaseFormProvider({ record, children }: { record: LocalCase; children: ReactNode }) {
  const [saveError, setSaveError] = useState<string | null>(null);
  const readOnly = record.status === 'completed';
  const save = useCallback(
    async (fields: CaseFields) => {
      const problems = validateCaseFields(fields);
      if (problems.length > 0) return Object.fromEntries(problems.map((p) => [p.field, p.message]));
      try {
        await saveCaseFields(record, fields);
        setSaveError(null);
      } catch (error) {
        // Not stored (IndexedDB full or closed…): the step's banner says why, and each field
        // of the change answers a problem, so its control shows what IS stored again (and
        // says so) instead of a value that only looks saved.
        const reason = error instanceof Error ? error.message : String(error);
        setSaveError(reason);
        return Object.fromEntries(Object.keys(fields).map((field) => [field, NOT_STORED]));
      }
      return {};
    },
    // The version a change builds on must be the latest one the device holds.
    [record],
  );
  const form = useMemo<RecordForm>(
    () => ({
      record,
      readOnly,
      save: save as RecordForm['save'],
      saveError,
      fieldId: caseFieldId as (field: string) => string,
    }),
    [record, readOnly, save, saveError],
  );
  return <RecordFormProvider form={form}>{children}</RecordFormProvider>;
}

/** The record form, typed for a case's fields. */
export function useCaseForm(): CaseForm {
  return useRecordForm() as unknown as CaseForm;
}

/** The DOM id of a field's input: completion problems link to `#field-<name>`. */
export function caseFieldId(field: CaseField | 'vitalSigns'): string {
  return `field-${field}`;
}

/** The stored value of a field (a new case holds only what has been set). */
export function fieldValue<K extends CaseField>(
  record: LocalCase,
  field: K,
): LocalCase[K] | undefined {
  return record[field];
}
