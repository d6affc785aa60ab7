// The form kit's context: the record a screen edits (its current local copy), whether it is
// read-only (locked), and `save` (validated, one synced mutation per change) with the last
// failure to store. Screens get it from RecordFormProvider (record-form-provider.tsx: any
// kind by its name and id), and the kit's controls read and write through it. Controls save
// as the user goes: choices at once, typed text after a pause, on blur and when the screen
// closes. There is no save button to forget.
import {
  createContext,
  use,
  useCallback,
  useEffect,
  useMemo,
  useState,
  type ReactNode,
} from 'react';

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
  /** A save is being written on the device (set by the provider, not the screen). */
  saving?: boolean;
}

/** A field's problem when the device could not store the change (the banner gives the reason). */
export const NOT_STORED = 'Not saved on this device. Try again.';

const RecordFormContext = createContext<RecordForm | null>(null);

/**
 * Provides a record form to the kit's controls (RecordFormProvider builds one for a kind;
 * tests may hand one in). It counts the saves being written on
 * the device: meanwhile `saving` is true (the record's sync mark says "Saving…"), and closing
 * or reloading the page asks first, since a tap shows at once but is stored a moment later.
 */
export function ProvideRecordForm({ form, children }: { form: RecordForm; children: ReactNode }) {
  const [inFlight, setInFlight] = useState(0);
  const screenSave = form.save;
  const save = useCallback<RecordForm['save']>(
    async (fields) => {
      setInFlight((n) => n + 1);
      try {
        return await screenSave(fields);
      } finally {
        setInFlight((n) => n - 1);
      }
    },
    [screenSave],
  );
  const saving = inFlight > 0;
  useEffect(() => {
    if (!saving) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [saving]);
  const value = useMemo(() => ({ ...form, save, saving }), [form, save, saving]);
  return <RecordFormContext value={value}>{children}</RecordFormContext>;
}

/** The record form when the component is inside one, else null (a mark on a list row). */
export function useOptionalRecordForm(): RecordForm | null {
  return use(RecordFormContext);
}

export function useRecordForm(): RecordForm {
  const form = use(RecordFormContext);
  if (!form) throw new Error('useRecordForm must be used inside a RecordFormProvider');
  return form;
}
