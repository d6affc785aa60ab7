// The form kit's controls, built for gloved hands: 48 px targets, big choice buttons instead
// of small selects, a "Now" button on every time, saved as the user goes. Each reads its
// value from the record form's record and writes through its `save` (record-form.tsx), so
// any record screen uses them; screens take them typed for their kind from formKit
// (form-kit.tsx), where `field` can only name one of the kind's fields.
import { useState, type ReactNode } from 'react';
import { fromZonedInputValue, toZonedInputValue } from '@rescuelog/sync-protocol/time';
import { cx } from '@/lib/cx';
import { ChoiceGroup, optionIdPart, type ChoiceOption } from './choice-group';
import { describedBy, FieldFrame } from './field-frame';
import { useRecordForm } from './record-form';
import { TypedDateInput } from '@/components/ui/typed-date-input';
import { useAutosaveDraft } from './use-autosave-draft';
import { useTapSave } from './use-tap-save';
import styles from './record-form.module.css';

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

export interface TextProps {
  field: string;
  label: string;
  multiline?: boolean;
  rows?: number;
  required?: boolean;
  hint?: ReactNode;
  placeholder?: string;
  inputMode?: 'text' | 'tel' | 'numeric' | 'decimal' | 'email';
  /** 'tel' for phone numbers (phone keypad, and the browser knows what it is). */
  type?: 'text' | 'tel';
  autoComplete?: string;
  maxLength?: number;
  /** The id of a <datalist> of suggestions (free text stays allowed). */
  list?: string;
}

/** Free text; empty means not recorded (null). */
export function TextField({
  field,
  label,
  multiline,
  rows = 3,
  required,
  hint,
  placeholder,
  inputMode,
  type = 'text',
  autoComplete,
  maxLength,
  list,
}: TextProps) {
  const { record, readOnly, save, fieldId } = useRecordForm();
  const raw = record[field];
  const stored = typeof raw === 'string' ? raw : '';
  const { draft, change, flush, error } = useAutosaveDraft(stored, async (text) => {
    const value = text.trim() === '' ? null : text;
    const problems = await save({ [field]: value });
    return problems[field];
  });
  const common = {
    id: fieldId(field),
    className: multiline
      ? `input ${styles.textInput} ${styles.multiline}`
      : `input ${styles.textInput}`,
    value: draft,
    readOnly,
    placeholder,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(fieldId(field), hint, error),
    onBlur: () => void flush(),
  } as const;
  return (
    <FieldFrame field={field} label={label} required={required} hint={hint} error={error}>
      {multiline ? (
        <textarea {...common} rows={rows} onChange={(e) => change(e.target.value)} />
      ) : (
        <input
          {...common}
          type={type}
          inputMode={inputMode}
          list={list}
          autoComplete={autoComplete ?? 'off'}
          onChange={(e) => change(e.target.value)}
        />
      )}
    </FieldFrame>
  );
}

export interface NumberProps {
  field: string;
  label: string;
  min: number;
  max: number;
  /** Step of the − / + buttons. */
  step?: number;
  unit?: string;
  integer?: boolean;
  required?: boolean;
  hint?: ReactNode;
}

/** A number typed or nudged with − / + (gloves); out-of-range values are not saved. */
export function NumberField({
  field,
  label,
  min,
  max,
  step = 1,
  unit,
  integer = true,
  required,
  hint,
}: NumberProps) {
  const { record, readOnly, save, fieldId } = useRecordForm();
  const raw = record[field];
  const stored = typeof raw === 'number' ? String(raw) : '';
  const { draft, change, flush, error } = useAutosaveDraft(stored, async (text) => {
    const trimmed = text.trim().replace(',', '.');
    if (trimmed === '') return (await save({ [field]: null }))[field];
    const n = Number(trimmed);
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n)))
      return integer ? 'Enter a whole number' : 'Enter a number';
    if (n < min || n > max) return `Enter a number from ${String(min)} to ${String(max)}`;
    return (await save({ [field]: n }))[field];
  });
  const nudge = (delta: number) => {
    const current = Number(draft.trim().replace(',', '.'));
    const base =
      draft.trim() === '' || !Number.isFinite(current) ? (delta > 0 ? min : max) : current + delta;
    const next = Math.min(max, Math.max(min, base));
    change(String(next));
  };
  return (
    <FieldFrame
      field={field}
      label={unit ? `${label} (${unit})` : label}
      required={required}
      hint={hint}
      error={error}
    >
      <div className={styles.number}>
        <button
          type="button"
          className={`button ${styles.nudge}`}
          disabled={readOnly}
          aria-label={`${label}: decrease`}
          onClick={() => nudge(-step)}
        >
          −
        </button>
        <input
          id={fieldId(field)}
          className={`input ${styles.textInput} ${styles.numberInput}`}
          type="text"
          inputMode={integer ? 'numeric' : 'decimal'}
          autoComplete="off"
          value={draft}
          readOnly={readOnly}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(fieldId(field), hint, error)}
          onChange={(e) => change(e.target.value)}
          onBlur={() => void flush()}
        />
        <button
          type="button"
          className={`button ${styles.nudge}`}
          disabled={readOnly}
          aria-label={`${label}: increase`}
          onClick={() => nudge(step)}
        >
          +
        </button>
      </div>
    </FieldFrame>
  );
}

export interface TimeProps {
  field: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  now?: () => Date;
}

/** A date and time with a one-tap "Now" (to the minute) and a Clear. */
export function TimeField({ field, label, required, hint, now = () => new Date() }: TimeProps) {
  const { record, readOnly, save, fieldId } = useRecordForm();
  const raw = record[field];
  const stored = typeof raw === 'string' ? raw : null;
  const storedLocal = toZonedInputValue(stored);
  const [error, setError] = useState<string | undefined>();
  const write = async (value: string | null) => setError((await save({ [field]: value }))[field]);
  return (
    <FieldFrame field={field} label={label} required={required} hint={hint} error={error}>
      <div className={styles.time}>
        <TypedDateInput
          id={fieldId(field)}
          className={`input ${styles.textInput} ${styles.timeInput}`}
          value={storedLocal}
          readOnly={readOnly}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(fieldId(field), hint, error)}
          onUnreadable={setError}
          onChange={(value) => {
            if (readOnly) return;
            const d = value ? fromZonedInputValue(value) : null;
            if (d) void write(d.toISOString());
            // Emptied: not recorded.
            else if (value === '' && stored !== null) void write(null);
          }}
        />
        <button
          type="button"
          className={`button button--primary ${styles.now}`}
          disabled={readOnly}
          aria-label={`${label}: now`}
          aria-controls={fieldId(field)}
          onClick={() => {
            const d = now();
            d.setSeconds(0, 0);
            void write(d.toISOString());
          }}
        >
          Now
        </button>
        {stored && !readOnly ? (
          <button
            type="button"
            className={`button ${styles.timeClear}`}
            aria-label={`${label}: clear`}
            aria-controls={fieldId(field)}
            onClick={() => void write(null)}
          >
            Clear
          </button>
        ) : null}
      </div>
    </FieldFrame>
  );
}

interface ChoiceFieldProps<V extends string> {
  field: string;
  label: string;
  options: readonly ChoiceOption<V>[];
  required?: boolean;
  hint?: ReactNode;
  columns?: number;
  /** A class of the screen's module for the grid of options (e.g. one column on a phone). */
  optionsClassName?: string | undefined;
  /** Whether "not recorded" may be chosen again (false for a field that may not be null). */
  clearable?: boolean;
}

/** One of a few values (AVPU, triage, gender…), saved on tap. */
export function ChoiceField<V extends string>({
  field,
  label,
  options,
  required,
  hint,
  columns,
  optionsClassName,
  clearable = true,
}: ChoiceFieldProps<V>) {
  const { record, readOnly, fieldId } = useRecordForm();
  const [error, setError] = useState<string | undefined>();
  const stored = (record[field] ?? null) as V | null;
  const { shown, tap } = useTapSave(field, stored);
  return (
    <ChoiceGroup
      name={fieldId(field)}
      legend={label}
      options={options}
      value={shown}
      readOnly={readOnly}
      required={required}
      hint={hint}
      error={error}
      columns={columns}
      optionsClassName={optionsClassName}
      clearable={clearable}
      onChange={(next) => void tap(next).then(setError)}
    />
  );
}

const YES_NO: readonly ChoiceOption<boolean>[] = [
  { value: true, label: 'Yes' },
  { value: false, label: 'No' },
];

/** Yes / No / not recorded. */
export function YesNoField({
  field,
  label,
  required,
  hint,
  yes = 'Yes',
  no = 'No',
}: {
  field: string;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  yes?: string;
  no?: string;
}) {
  const { record, readOnly, fieldId } = useRecordForm();
  const value = record[field];
  const { shown, tap } = useTapSave(field, typeof value === 'boolean' ? value : null);
  const options =
    yes === 'Yes' && no === 'No'
      ? YES_NO
      : [
          { value: true, label: yes },
          { value: false, label: no },
        ];
  return (
    <ChoiceGroup
      name={fieldId(field)}
      legend={label}
      options={options}
      value={shown}
      readOnly={readOnly}
      required={required}
      hint={hint}
      columns={2}
      onChange={(next) => void tap(next)}
    />
  );
}

/** A checkbox row for an always-set boolean (interventions, "examined"), saved on tap. */
export function CheckboxField({
  field,
  label,
  warning,
  description,
}: {
  field: string;
  label: string;
  warning?: string | null;
  description?: string;
}) {
  const { record, readOnly, fieldId } = useRecordForm();
  const { shown: checked, tap } = useTapSave(field, record[field] === true);
  const id = fieldId(field);
  return (
    <div className={cx(styles.check, checked && styles.checkOn)}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={readOnly}
        aria-describedby={warning ? `${id}-warning` : undefined}
        onChange={(e) => void tap(e.target.checked)}
      />
      <label htmlFor={id} className={styles.checkLabel}>
        {label}
        {description ? <span className={styles.checkDescription}>{description}</span> : null}
      </label>
      {warning ? (
        <p className={styles.checkWarning} id={`${id}-warning`}>
          {warning}
        </p>
      ) : null}
    </div>
  );
}

/** Several of a list (symptoms, hemorrhage interventions), saved on tap. */
export function MultiSelectField({
  field,
  label,
  options,
  hint,
  optionsClassName,
}: {
  field: string;
  label: string;
  options: readonly { value: string; label: string }[];
  hint?: ReactNode;
  /** A class of the screen's module for the grid of options (e.g. one column on a phone). */
  optionsClassName?: string | undefined;
}) {
  const { record, readOnly, fieldId } = useRecordForm();
  const raw = record[field];
  const stored: readonly string[] = Array.isArray(raw) ? raw : [];
  // Quick taps build on what is shown, so a second tap cannot drop the first.
  const { shown: selected, tap } = useTapSave(field, stored, sameList);
  const name = fieldId(field);
  const toggle = (value: string, on: boolean) => {
    const next = on
      ? [...selected.filter((v) => v !== value), value]
      : selected.filter((v) => v !== value);
    void tap(next);
  };
  return (
    <fieldset
      className={styles.choice}
      id={name}
      aria-describedby={hint ? `${name}-hint` : undefined}
    >
      <legend className={styles.label}>{label}</legend>
      <div className={cx(styles.options, optionsClassName)}>
        {options.map((option) => {
          const id = `${name}-${optionIdPart(option.value)}`;
          return (
            <label key={option.value} className={styles.option} htmlFor={id}>
              <input
                id={id}
                type="checkbox"
                checked={selected.includes(option.value)}
                disabled={readOnly}
                onChange={(e) => toggle(option.value, e.target.checked)}
              />
              <span className={styles.optionText}>{option.label}</span>
            </label>
          );
        })}
      </div>
      {hint ? (
        <p className={styles.hint} id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A titled group of fields on a step (e.g. "Caller", "Hemorrhage"). */
export function FormSection({
  title,
  id,
  children,
  description,
}: {
  title: string;
  id?: string;
  children: ReactNode;
  description?: ReactNode;
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-heading`;
  return (
    <section className="card" aria-labelledby={headingId} id={id}>
      <h2 id={headingId} className={styles.sectionTitle}>
        {title}
      </h2>
      {description ? <p className={styles.sectionDescription}>{description}</p> : null}
      <div className={styles.sectionFields}>{children}</div>
    </section>
  );
}
