// The form kit's context: the record a screen edits (its current local copy), whether it is
// read-only (locked), and `save` (validated, one synced mutation per change) with the last
// failure to store. Every record screen provides one (cases: CaseFormProvider; CPR, MCI and
// incident reports next), and the kit's controls read and write through it. Controls save
// as the user goes: choices at once, typed text after a pause, on blur and when the screen
// closes. There is no save button to forget.
import { createContext, use, type ReactNode } from 'react';

export interface RecordForm {
  /** The record as the device holds it (every field optional but the id). */
  record: { id: string; [field: string]: unknown };
  /** Locked records (a completed case) are read-only; corrections go another way. */
  readOnly: boolean;
  /** Saves these fields; resolves to the problems per field (validation, or NOT_STORED when
   * the device could not store them); empty when saved. */
  save: (fields: Record<string, unknown>) => Promise<Record<string, string | undefined>>;
  /** The last failure to store (IndexedDB full, no session…), for the screen's error banner. */
  saveError: string | null;
  /** The DOM id of a field's input (validation summaries link to it). */
  fieldId: (field: string) => string;
}

/** A field's problem when the device could not store the change (the banner gives the reason). */
export const NOT_STORED = 'Not saved on this device. Try again.';

const RecordFormContext = createContext<RecordForm | null>(null);

export function RecordFormProvider({ form, children }: { form: RecordForm; children: ReactNode }) {
  return <RecordFormContext value={form}>{children}</RecordFormContext>;
}

export function useRecordForm(): RecordForm {
  const form = use(RecordFormContext);
  if (!form) throw new Error('useRecordForm must be used inside a RecordFormProvider');
  return form;
}
