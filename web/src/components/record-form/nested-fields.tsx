// The kit's controls over the keys of one JSON-object field of a record (an incident report's
// typeSpecificData): inside `<NestedFields field="typeSpecificData" validate={…}>`, a control's
// `field` names a key of that object; it reads the key's value and saves by writing the
// whole object back through the enclosing form's `save` (one field of the record, last write
// wins on it as a whole). `validate` checks the object as it would be stored (the kind's own
// schema for it) so a problem shows on the key's control and nothing is stored. Input ids are
// `field-<field>-<key>` (validation summaries link to them).
import { useCallback, useEffect, useMemo, useRef, type ReactNode } from 'react';
import { ProvideRecordForm, useRecordForm, type RecordForm } from './record-form';

type Problems = Record<string, string | undefined>;

export function nestedFieldId(field: string, key: string): string {
  return `field-${field}-${key}`;
}

export function NestedFields({
  field,
  validate,
  children,
}: {
  field: string;
  /** The problems of the object as it would be stored, per key (empty: it fits). */
  validate: (value: Record<string, unknown>) => Problems;
  children: ReactNode;
}) {
  const parent = useRecordForm();
  const raw = parent.record[field];
  const stored = useMemo(
    () =>
      raw !== null && typeof raw === 'object' && !Array.isArray(raw)
        ? (raw as Record<string, unknown>)
        : {},
    [raw],
  );
  // Saves in quick succession (two taps) each build on the one before, not on a record the
  // device has not re-read yet; once nothing is in flight, the stored object is the truth.
  const latest = useRef(stored);
  const inFlight = useRef(0);
  useEffect(() => {
    if (inFlight.current === 0) latest.current = stored;
  }, [stored]);
  const parentSave = parent.save;
  const save = useCallback<RecordForm['save']>(
    async (fields) => {
      const next = { ...latest.current, ...fields };
      for (const [key, value] of Object.entries(fields)) if (value === null) delete next[key];
      const problems = validate(next);
      const mine = Object.fromEntries(Object.keys(fields).map((k) => [k, problems[k]]));
      if (Object.values(mine).some(Boolean)) return mine;
      latest.current = next;
      inFlight.current += 1;
      try {
        const answer = await parentSave({ [field]: next });
        const problem = answer[field];
        return problem ? Object.fromEntries(Object.keys(fields).map((k) => [k, problem])) : {};
      } finally {
        inFlight.current -= 1;
      }
    },
    [field, parentSave, validate],
  );
  const form = useMemo<RecordForm>(
    () => ({
      record: { ...stored, id: parent.record.id },
      readOnly: parent.readOnly,
      save,
      saveError: parent.saveError,
      fieldId: (key) => nestedFieldId(field, key),
    }),
    [stored, parent.record.id, parent.readOnly, parent.saveError, save, field],
  );
  return <ProvideRecordForm form={form}>{children}</ProvideRecordForm>;
}
