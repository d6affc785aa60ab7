// The case being edited, for every control on a step: its current local record, whether it
// is locked, and `save` (validated, one synced mutation per change). Controls save as the
// user goes: choices at once, typed text after a pause and when the field loses focus or
// the screen closes. There is no save button to forget.
import { createContext, use, useCallback, useMemo, useState, type ReactNode } from 'react';
import type { CaseField, CaseFields } from '@rescuelog/sync-protocol/records/case';
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

/** A field's problem when the device could not store the change (the banner gives the reason). */
export const NOT_STORED = 'Not saved on this device. Try again.';

const CaseFormContext = createContext<CaseForm | null>(null);

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
  const value = useMemo(
    () => ({ record, readOnly, save, saveError }),
    [record, readOnly, save, saveError],
  );
  return <CaseFormContext value={value}>{children}</CaseFormContext>;
}

export function useCaseForm(): CaseForm {
  const form = use(CaseFormContext);
  if (!form) throw new Error('useCaseForm must be used inside a CaseFormProvider');
  return form;
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
