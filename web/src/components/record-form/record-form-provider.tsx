// The form of any record kind, from its name and the record's id: `<RecordFormProvider
// kind="cprSession" id={id}>` loads the record live, shows loading / not on this device /
// unreadable, and gives the kit's controls the record, `save` (validated by the kind's
// fields schema, stored through the one write path, lib/records/record-writes.ts), the
// problems per field, read-only when the kind's lock holds, and the last failure to store.
// Everything comes from the kind's definition in the session's registry, so a new kind's
// form is its field layout and nothing else (docs/screen-kit.md). A screen that has already
// loaded the record (the case steps look a case up by its number) passes `record` instead.
import { AlertTriangle } from 'lucide-react';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import {
  definitionOf,
  isRecordLocked,
  saveRecordFields,
  validateRecordFields,
  type EditedRecord,
} from '@/lib/records/record-writes';
import { useRecordLookup } from '@/lib/records/use-record-lookup';
import { useSyncSession } from '@/lib/sync/use-sync';
import { Callout } from '@/components/ui/callout';
import { Spinner } from '@/components/ui/spinner';
import { NOT_STORED, ProvideRecordForm, useRecordForm, type RecordForm } from './record-form';

export type RecordFormProviderProps = {
  kind: string;
  children: ReactNode;
  /** Every control read-only for another reason than the kind's lock (the person may not
   * change the record: the screen asks the access rule). */
  readOnly?: boolean;
} & ({ id: string | undefined; record?: never } | { record: EditedRecord; id?: never });

export function RecordFormProvider(props: RecordFormProviderProps) {
  if (props.record)
    return (
      <LoadedRecordForm kind={props.kind} record={props.record} readOnly={props.readOnly}>
        {props.children}
      </LoadedRecordForm>
    );
  return (
    <LiveRecordForm kind={props.kind} id={props.id} readOnly={props.readOnly}>
      {props.children}
    </LiveRecordForm>
  );
}

/** The DOM id of a field's input (validation summaries link to `#field-<name>`). */
export function recordFieldId(field: string): string {
  return `field-${field}`;
}

function LiveRecordForm({
  kind,
  id,
  readOnly,
  children,
}: {
  kind: string;
  id: string | undefined;
  readOnly: boolean | undefined;
  children: ReactNode;
}) {
  const lookup = useRecordLookup(kind, id);
  const session = useSyncSession();
  const label = session?.db.registry.has(kind) ? session.db.registry.get(kind).label : 'record';
  switch (lookup.state) {
    case 'loading':
      return <Spinner label={`Loading the ${label}`} />;
    case 'no-device-store':
      return (
        <Callout tone="warning" as="p">
          This browser is not keeping data on the device (private browsing, or storage is switched
          off), so this {label} cannot be shown here.
        </Callout>
      );
    case 'missing':
      return (
        <Callout tone="warning" as="p">
          This {label} is not stored on this device. If it was started on another device, it appears
          here after that device has synced and this one has pulled the changes.
        </Callout>
      );
    case 'unreadable':
      return (
        <Callout tone="danger" as="p" role="alert">
          The copy of this {label} on this device could not be read ({lookup.message}). Nothing has
          been deleted. Update the app, or report this to your administrator.
        </Callout>
      );
    case 'ready':
      return (
        <LoadedRecordForm kind={kind} record={lookup.record} readOnly={readOnly}>
          {children}
        </LoadedRecordForm>
      );
  }
}

function LoadedRecordForm({
  kind,
  record,
  readOnly,
  children,
}: {
  kind: string;
  record: EditedRecord;
  readOnly: boolean | undefined;
  children: ReactNode;
}) {
  const form = useRecordFormFor(kind, record, readOnly === true);
  return <ProvideRecordForm form={form}>{children}</ProvideRecordForm>;
}

/** The record form of a loaded record of `kind` (RecordFormProvider uses it). */
export function useRecordFormFor(
  kind: string,
  record: EditedRecord,
  notAllowed = false,
): RecordForm {
  const session = useSyncSession();
  const [saveError, setSaveError] = useState<string | null>(null);
  const definition = session?.db.registry.has(kind) ? definitionOf(kind, session) : undefined;
  const readOnly = notAllowed || (definition ? isRecordLocked(definition, record) : false);
  const save = useCallback<RecordForm['save']>(
    async (fields) => {
      if (definition) {
        const problems = validateRecordFields(definition, fields);
        if (Object.keys(problems).length > 0) return problems;
      }
      try {
        await saveRecordFields(kind, record, fields);
        setSaveError(null);
      } catch (error) {
        // Not stored (IndexedDB full or closed, no session…): the banner says why, and each
        // field of the change answers a problem, so its control shows what IS stored again
        // (and says so) instead of a value that only looks saved.
        setSaveError(error instanceof Error ? error.message : String(error));
        return Object.fromEntries(Object.keys(fields).map((field) => [field, NOT_STORED]));
      }
      return {};
    },
    // The version a change builds on must be the latest one the device holds.
    [definition, kind, record],
  );
  return useMemo<RecordForm>(
    () => ({ record, readOnly, save, saveError, fieldId: recordFieldId }),
    [record, readOnly, save, saveError],
  );
}

/** The screen's banner when a change could not be stored on the device. */
export function RecordSaveError({ className }: { className?: string }) {
  const { saveError } = useRecordForm();
  if (!saveError) return null;
  return (
    <Callout tone="danger" className={className} role="alert">
      <AlertTriangle size={20} aria-hidden="true" />
      <p>Could not save on this device: {saveError}</p>
    </Callout>
  );
}
