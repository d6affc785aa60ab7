// An addendum to a completed (locked) case: pick the fields to correct from the case's field
// list, enter each new value with an input that suits the field (time, number, yes/no,
// choice, text, list), give the reason (required), and see each field's value before and
// after. Saved as one case.addendum through the outbox (offline too); the device and the
// server apply the new values to the case and keep the before/after on the addendum.
import {
  CASE_FIELD_LABELS,
  CASE_FIELD_ORDER,
  FIELD_STEP,
  formatCaseValue,
} from '@rescuelog/sync-protocol/case/fields';
import { CASE_STEPS } from '@rescuelog/sync-protocol/case/steps';
import type { CaseField } from '@rescuelog/sync-protocol/records/case';
import { Plus, Trash2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { useUser } from '@/lib/auth';
import { toast } from '@/lib/toast-store';
import { ChoiceGroup } from '@/components/record-form/choice-group';
import { fromZonedInputValue, toZonedInputValue } from '@rescuelog/sync-protocol/time';
import { addCaseAddendum, type AddendumChange } from '../data/case-writes';
import type { LocalCase } from '../data/use-case';
import { draftOf, fieldKind, parseDraft, sameValue, type FieldKind } from './field-kinds';
import styles from './completed.module.css';

const PICKABLE_STEPS = CASE_STEPS.filter((s) => s.key !== 'case-completed');

const AVPU_TEXT: Record<string, string> = {
  A: 'A — Alert',
  V: 'V — Voice',
  P: 'P — Pain',
  U: 'U — Unresponsive',
};

interface Row {
  field: CaseField;
  kind: FieldKind;
  draft: string;
}

export function AddendumForm({
  record,
  onDone,
}: {
  record: LocalCase & { caseId: string };
  onDone: () => void;
}) {
  const [rows, setRows] = useState<Row[]>([]);
  const [pick, setPick] = useState<CaseField | ''>('');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Partial<Record<CaseField | 'reason' | 'form', string>>>({});
  const [saving, setSaving] = useState(false);
  const { data: user } = useUser();
  const pickId = useId();
  const reasonId = useId();

  const addRow = () => {
    if (!pick || rows.some((r) => r.field === pick)) return;
    const kind = fieldKind(pick);
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
  const setDraft = (field: CaseField, draft: string) => {
    setRows((prev) => prev.map((r) => (r.field === field ? { ...r, draft } : r)));
    setErrors((prev) => ({ ...prev, [field]: undefined }));
  };
  const removeRow = (field: CaseField) => setRows((prev) => prev.filter((r) => r.field !== field));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: typeof errors = {};
    const changes: AddendumChange[] = [];
    for (const row of rows) {
      const parsed = parseDraft(row.field, row.kind, row.draft);
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
      await addCaseAddendum(record, reason.trim(), changes, {
        fullName: user.fullName,
        callSign: user.callSign,
      });
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
      className={styles.addendumForm}
      onSubmit={(e) => void submit(e)}
      noValidate
      aria-labelledby="addendum-form-title"
    >
      <h3 id="addendum-form-title" className={styles.completedSubtitle}>
        New addendum
      </h3>
      <p className="field__hint">
        Choose the fields to correct and enter their new values. An addendum without fields adds a
        note to the record.
      </p>

      <div className={styles.addendumPick}>
        <label htmlFor={pickId} className="field__label">
          Field to correct
        </label>
        <div className={styles.addendumPickRow}>
          <select
            id={pickId}
            className={`input ${styles.addendumPickSelect}`}
            value={pick}
            onChange={(e) => setPick(e.target.value as CaseField | '')}
          >
            <option value="">Choose a field…</option>
            {PICKABLE_STEPS.map((step) => (
              <optgroup key={step.key} label={step.title}>
                {CASE_FIELD_ORDER.filter(
                  (f) => FIELD_STEP[f] === step.key && !rows.some((r) => r.field === f),
                ).map((f) => (
                  <option key={f} value={f}>
                    {CASE_FIELD_LABELS[f]}
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
          className="input case-input case-input--multiline"
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

      <div className={styles.addendumFormActions}>
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
  before,
  error,
  onDraft,
  onRemove,
}: {
  row: Row;
  before: unknown;
  error: string | undefined;
  onDraft: (draft: string) => void;
  onRemove: () => void;
}) {
  const { field, kind, draft } = row;
  const label = CASE_FIELD_LABELS[field];
  const inputId = `addendum-${field}`;
  const parsed = parseDraft(field, kind, draft);
  const after = parsed.ok ? formatCaseValue(field, parsed.value) : '…';
  const describedBy = [`${inputId}-change`, error ? `${inputId}-error` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={styles.addendumRow}>
      <div className={styles.addendumRowHead}>
        <span className={styles.addendumRowLabel}>{label}</span>
        <button
          type="button"
          className="button addendum-row__remove"
          onClick={onRemove}
          aria-label={`Remove ${label}`}
        >
          <Trash2 size={18} aria-hidden="true" /> Remove
        </button>
      </div>
      <p className={styles.addendumRowChange} id={`${inputId}-change`}>
        <span>
          Before: <strong>{formatCaseValue(field, before)}</strong>
        </span>
        <span>
          After: <strong>{after}</strong>
        </span>
      </p>
      <ValueInput
        id={inputId}
        label={`New ${label.toLowerCase()}`}
        kind={kind}
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
  draft: string;
  onDraft: (draft: string) => void;
  describedBy: string;
  invalid: boolean;
}

function ValueInput({ id, label, kind, draft, onDraft, describedBy, invalid }: ValueInputProps) {
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
          options={kind.options.map((o) => ({ value: o, label: AVPU_TEXT[o] ?? o }))}
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
          <div className="case-time">
            <input
              {...common}
              type="datetime-local"
              className="input case-input case-time__input"
              value={toZonedInputValue(draft)}
              onChange={(e) => {
                const d = fromZonedInputValue(e.target.value);
                onDraft(d && !Number.isNaN(d.getTime()) ? d.toISOString() : '');
              }}
            />
            <button
              type="button"
              className="button button--primary case-time__now"
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
                className="button case-time__clear"
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
            className="input case-input"
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
              className="input case-input case-input--multiline"
              rows={3}
              value={draft}
              onChange={(e) => onDraft(e.target.value)}
            />
          ) : (
            <input
              {...common}
              className="input case-input"
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
            className="input case-input case-input--multiline"
            rows={4}
            value={draft}
            onChange={(e) => onDraft(e.target.value)}
            spellCheck={kind.kind === 'list'}
          />
        </div>
      );
  }
}
