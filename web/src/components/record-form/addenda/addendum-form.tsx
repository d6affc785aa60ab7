// An addendum to a locked record (a completed case; CPR sessions and incident reports next):
// pick the fields to correct from the record's field list, enter each new value with an input
// that suits the field (time, number, yes/no, choice, text, list), give the reason (required),
// and see each field's value before and after. The screen saves it as one synced mutation
// (`onSave`); the device and the server apply the new values to the record and keep the
// before/after on the addendum.
import { TypedDateInput } from '@/components/ui/typed-date-input';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useUser } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { ChoiceGroup } from '@/components/record-form/choice-group';
import { fromZonedInputValue, toZonedInputValue } from '@rescuelog/sync-protocol/time';
import { draftOf, sameValue, type FieldKind, type FieldKinds } from './field-kinds';
import formStyles from '../record-form.module.css';
import styles from './addenda.module.css';

/** What an addendum form needs to know of a record kind's fields. */
export interface AddendumFields {
  /** The fields an addendum may correct, grouped and ordered as the record's screens show them. */
  groups: readonly { title: string; fields: readonly string[] }[];
  label(field: string): string;
  /** A stored value as the record's screens show it. */
  format(field: string, value: unknown): string;
  kinds: FieldKinds;
  /** The words for a choice's option (AVPU's letters spelled out); the option itself if absent. */
  optionLabel?(field: string, option: string): string;
}

export interface AddendumChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** Who signs an addendum: the signed-in user's profile. */
export interface AddendumSigner {
  fullName: string;
  callSign: string | null;
}

interface Row {
  field: string;
  kind: FieldKind;
  draft: string;
}

export function AddendumForm({
  record,
  fields,
  onSave,
  onDone,
}: {
  record: { readonly [field: string]: unknown };
  fields: AddendumFields;
  /** Saves the addendum on the device (one synced mutation). */
  onSave: (reason: string, changes: AddendumChange[], signer: AddendumSigner) => Promise<unknown>;
  onDone: () => void;
}) {
  const [rows, setRows] = useState<Row[]>([]);
  const [pick, setPick] = useState('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [saving, setSaving] = useState(false);
  const { data: user } = useUser();
  const pickId = useId();
  const reasonId = useId();

  const addRow = () => {
    if (!pick || rows.some((r) => r.field === pick)) return;
    const kind = fields.kinds.kindOf(pick);
    setRows((prev) => [...prev, { field: pick, kind, draft: draftOf(kind, record[pick]) }]);
    setPick('');
    // The new row's input takes focus once it is on screen.
    requestAnimationFrame(() => {
      const target = document.getElementById(`addendum-${pick}`);
      const input = target?.matches('input, textarea, select')
        ? target
        : target?.querySelector<HTMLElement>('input, textarea, select');
      input?.focus();
    });
  };
  const setDraft = (field: string, draft: string) => {
    setRows((prev) => prev.map((r) => (r.field === field ? { ...r, draft } : r)));
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };
  const removeRow = (field: string) => setRows((prev) => prev.filter((r) => r.field !== field));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    const changes: AddendumChange[] = [];
    for (const row of rows) {
      const parsed = fields.kinds.parse(row.field, row.kind, row.draft);
      const before = record[row.field] ?? null;
      if (!parsed.ok) next[row.field] = parsed.message;
      else if (sameValue(parsed.value, before))
        next[row.field] = 'This is the current value: change it, or remove the field.';
      else changes.push({ field: row.field, before, after: parsed.value });
    }
    if (reason.trim() === '') next.reason = 'A reason is required';
    // The addendum is signed by the signed-in user (the app does not open this screen without one).
    if (!user) next.form = 'Sign in again to add an addendum.';
    setErrors(next);
    if (Object.keys(next).length > 0 || !user) return;
    setSaving(true);
    try {
      await onSave(reason.trim(), changes, { fullName: user.fullName, callSign: user.callSign });
      toast({
        title: 'Addendum added',
        description:
          changes.length === 0
            ? 'The note is on the record.'
            : `${String(changes.length)} field${changes.length === 1 ? '' : 's'} corrected.`,
      });
      onDone();
    } catch (e) {
      setErrors({ form: e instanceof Error ? e.message : String(e) });
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className={styles.form}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="addendum-form-title"
    >
      <h3 id="addendum-form-title" className={styles.subtitle}>
        New addendum
      </h3>
      <p className="field__hint">
        Choose the fields to correct and enter their new values. An addendum without fields adds a
        note to the record.
      </p>

      <div className={styles.pick}>
        <label htmlFor={pickId} className="field__label">
          Field to correct
        </label>
        <div className={styles.pickRow}>
          <select
            id={pickId}
            className={`input ${styles.pickSelect}`}
            value={pick}
            onChange={(e) => setPick(e.target.value)}
          >
            <option value="">Choose a field…</option>
            {fields.groups.map((group) => (
              <optgroup key={group.title} label={group.title}>
                {group.fields
                  .filter((f) => !rows.some((r) => r.field === f))
                  .map((f) => (
                    <option key={f} value={f}>
                      {fields.label(f)}
                    </option>
                  ))}
              </optgroup>
            ))}
          </select>
          <button
            type="button"
            className="button button--secondary"
            onClick={addRow}
            disabled={!pick}
          >
            <Plus size={20} aria-hidden="true" /> Add field
          </button>
        </div>
      </div>

      {rows.map((row) => (
        <AddendumRow
          key={row.field}
          row={row}
          fields={fields}
          before={record[row.field]}
          error={errors[row.field]}
          onDraft={(d) => setDraft(row.field, d)}
          onRemove={() => removeRow(row.field)}
        />
      ))}

      <div className="field">
        <label htmlFor={reasonId} className="field__label">
          Reason <span className="field__required">(required)</span>
        </label>
        <textarea
          id={reasonId}
          className={`input ${formStyles.textInput} ${formStyles.multiline}`}
          rows={3}
          maxLength={2000}
          value={reason}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={errors.reason ? `${reasonId}-error` : undefined}
          onChange={(e) => {
            setReason(e.target.value);
            setErrors((prev) => ({ ...prev, reason: undefined }));
          }}
        />
        {errors.reason ? (
          <p className="field__error" id={`${reasonId}-error`} role="alert">
            {errors.reason}
          </p>
        ) : null}
      </div>

      {errors.form ? (
        <p className="field__error" role="alert">
          Could not save the addendum on this device: {errors.form}
        </p>
      ) : null}

      <div className={styles.formActions}>
        <button type="button" className="button button--secondary" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button button--primary" disabled={saving}>
          {saving ? 'Saving…' : 'Save addendum'}
        </button>
      </div>
    </form>
  );
}

function AddendumRow({
  row,
  fields,
  before,
  error,
  onDraft,
  onRemove,
}: {
  row: Row;
  fields: AddendumFields;
  before: unknown;
  error: string | undefined;
  onDraft: (draft: string) => void;
  onRemove: () => void;
}) {
  const { field, kind, draft } = row;
  const label = fields.label(field);
  const inputId = `addendum-${field}`;
  const parsed = fields.kinds.parse(field, kind, draft);
  const after = parsed.ok ? fields.format(field, parsed.value) : '…';
  const describedBy = [`${inputId}-change`, error ? `${inputId}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={styles.row}>
      <div className={styles.rowHead}>
        <span className={styles.rowLabel}>{label}</span>
        <button
          type="button"
          className="button addendum-row__remove"
          onClick={onRemove}
          aria-label={`Remove ${label}`}
        >
          <Trash2 size={18} aria-hidden="true" /> Remove
        </button>
      </div>
      <p className={styles.rowChange} id={`${inputId}-change`}>
        <span>
          Before: <strong>{fields.format(field, before)}</strong>
        </span>
        <span>
          After: <strong>{after}</strong>
        </span>
      </p>
      <ValueInput
        id={inputId}
        label={`New ${label.toLowerCase()}`}
        kind={kind}
        optionLabel={(option) => fields.optionLabel?.(field, option) ?? option}
        draft={draft}
        onDraft={onDraft}
        describedBy={describedBy}
        invalid={Boolean(error)}
      />
      {error ? (
        <p className="field__error" id={`${inputId}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface ValueInputProps {
  id: string;
  label: string;
  kind: FieldKind;
  optionLabel: (option: string) => string;
  draft: string;
  onDraft: (draft: string) => void;
  describedBy: string;
  invalid: boolean;
}

function ValueInput({
  id,
  label,
  kind,
  optionLabel,
  draft,
  onDraft,
  describedBy,
  invalid,
}: ValueInputProps) {
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-invalid': invalid ? true : undefined,
  } as const;
  switch (kind.kind) {
    case 'boolean':
      return (
        <ChoiceGroup<'yes' | 'no'>
          name={id}
          legend={label}
          options={[
            { value: 'yes', label: 'Yes' },
            { value: 'no', label: 'No' },
          ]}
          value={draft === 'yes' || draft === 'no' ? draft : null}
          onChange={(v) => onDraft(v ?? '')}
          readOnly={false}
          clearable={kind.nullable}
          columns={2}
        />
      );
    case 'choice':
      return (
        <ChoiceGroup<string>
          name={id}
          legend={label}
          options={kind.options.map((o) => ({ value: o, label: optionLabel(o) }))}
          value={draft || null}
          onChange={(v) => onDraft(v ?? '')}
          readOnly={false}
          clearable={kind.nullable}
        />
      );
    case 'time':
      return (
        <div className="field">
          <label htmlFor={id} className="field__label">
            {label}
          </label>
          <div className={`${formStyles.time} ${styles.time}`}>
            <TypedDateInput
              {...common}
              className={`input ${formStyles.textInput} ${formStyles.timeInput} ${styles.timeInput}`}
              value={toZonedInputValue(draft)}
              onChange={(value) => {
                const d = value ? fromZonedInputValue(value) : null;
                onDraft(d && !Number.isNaN(d.getTime()) ? d.toISOString() : '');
              }}
            />
            <button
              type="button"
              className={`button button--primary ${formStyles.now}`}
              aria-label={`${label}: now`}
              onClick={() => {
                const d = new Date();
                d.setSeconds(0, 0);
                onDraft(d.toISOString());
              }}
            >
              Now
            </button>
            {draft ? (
              <button
                type="button"
                className={`button ${formStyles.timeClear}`}
                aria-label={`${label}: clear`}
                onClick={() => onDraft('')}
              >
                Clear
              </button>
            ) : null}
          </div>
        </div>
      );
    case 'number':
      return (
        <div className="field">
          <label htmlFor={id} className="field__label">
            {label}
          </label>
          <input
            {...common}
            className={`input ${formStyles.textInput}`}
            type="text"
            inputMode={kind.integer ? 'numeric' : 'decimal'}
            autoComplete="off"
            value={draft}
            onChange={(e) => onDraft(e.target.value)}
          />
        </div>
      );
    case 'text':
      return (
        <div className="field">
          <label htmlFor={id} className="field__label">
            {label}
          </label>
          {kind.multiline ? (
            <textarea
              {...common}
              className={`input ${formStyles.textInput} ${formStyles.multiline}`}
              rows={3}
              value={draft}
              onChange={(e) => onDraft(e.target.value)}
            />
          ) : (
            <input
              {...common}
              className={`input ${formStyles.textInput}`}
              type="text"
              autoComplete="off"
              value={draft}
              onChange={(e) => onDraft(e.target.value)}
            />
          )}
        </div>
      );
    case 'list':
    case 'json':
      return (
        <div className="field">
          <label htmlFor={id} className="field__label">
            {label} {kind.kind === 'list' ? '(one per line)' : '(JSON)'}
          </label>
          <textarea
            {...common}
            className={`input ${formStyles.textInput} ${formStyles.multiline}`}
            rows={4}
            value={draft}
            onChange={(e) => onDraft(e.target.value)}
            spellCheck={kind.kind === 'list'}
          />
        </div>
      );
  }
}
