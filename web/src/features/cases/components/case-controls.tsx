// Autosaving controls for case fields, built for gloved hands: 48 px targets, big choice
// buttons instead of small selects, a "Now" button on every time. Each control reads its
// value from the case record and writes through useCaseForm().save.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { CaseField, CaseFields } from '@rescuelog/sync-protocol/records/case';
import { caseFieldId, useCaseForm } from './case-form';
import { fromZonedInputValue, toZonedInputValue } from '@rescuelog/sync-protocol/time';
import './case-form.css';

type ValueOf<K extends CaseField> = NonNullable<CaseFields[K]>;
type FieldsOfType<T> = { [K in CaseField]-?: ValueOf<K> extends T ? K : never }[CaseField];

export type TextCaseField = FieldsOfType<string>;
export type NumberCaseField = FieldsOfType<number>;
export type BooleanCaseField = FieldsOfType<boolean>;
export type ListCaseField = FieldsOfType<readonly string[]>;

const TEXT_SAVE_DELAY_MS = 600;

interface FieldFrameProps {
  field: CaseField;
  label: string;
  required?: boolean | undefined;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}

function FieldFrame({ field, label, required, hint, error, children }: FieldFrameProps) {
  const id = caseFieldId(field);
  return (
    <div className="case-field">
      <label className="case-field__label" htmlFor={id}>
        {label}
        {required ? <span className="case-field__required"> (required to complete)</span> : null}
      </label>
      {children}
      {hint ? (
        <p className="case-field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="case-field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(
  field: CaseField,
  hint: unknown,
  error: string | undefined,
): string | undefined {
  const id = caseFieldId(field);
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

/**
 * What a tapped control shows until the device's copy catches up: a save is a moment
 * (IndexedDB transaction, then the live query), and without this a tapped choice would
 * look untapped meanwhile, and a second quick tap would build on the stale value.
 * `same` compares stored values (lists arrive as new arrays on every read).
 *
 * `expect(value)` returns the function to call once that save has settled. While a save of
 * this control is still on its way, the stored value moving is an earlier tap landing (or
 * another tab, which the later save overwrites), not the last tap: the last tap stays shown.
 * Otherwise three quick taps on a list (tap, tap, first lands, tap) would show the second
 * untapped for a moment and build the third on it, dropping the second.
 */
export function useShownValue<T>(stored: T, same: (a: T, b: T) => boolean = Object.is) {
  const [pending, setPending] = useState<{ value: T } | null>(null);
  const [inFlight, setInFlight] = useState(0);
  const [seen, setSeen] = useState(stored);
  if (!same(seen, stored)) {
    // The stored value moved (the last save landed, or another tab/a pull): it wins.
    setSeen(stored);
    if (inFlight === 0) setPending(null);
  } else if (pending !== null && inFlight === 0 && same(pending.value, stored)) {
    // The last save settled after its value had arrived.
    setPending(null);
  }
  return {
    shown: pending ? pending.value : stored,
    expect: (value: T): (() => void) => {
      setPending({ value });
      setInFlight((n) => n + 1);
      let settled = false;
      return () => {
        if (settled) return;
        settled = true;
        setInFlight((n) => n - 1);
      };
    },
    /** The save was refused (validation): show the stored value again. */
    settle: () => setPending(null),
  };
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((v, i) => v === b[i]);

/**
 * Local draft text that saves after a pause, on blur and when the control unmounts (leaving
 * the step). While the user is not editing, the draft follows the stored value (another
 * tab, a pull, an addendum).
 */
export function useAutosaveDraft(
  stored: string,
  commit: (text: string) => Promise<string | undefined>,
) {
  const [draft, setDraft] = useState(stored);
  const [error, setError] = useState<string | undefined>();
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ draft, stored, commit });
  useLayoutEffect(() => {
    latest.current = { draft, stored, commit };
  });

  useEffect(() => {
    if (!dirty.current) setDraft(stored);
  }, [stored]);

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!dirty.current) return;
    dirty.current = false;
    const { draft: text, stored: saved, commit: save } = latest.current;
    if (text === saved) return;
    setError(await save(text));
  }, []);

  // Leaving the step (unmount) saves what was typed; so does the page being hidden (phone
  // locked, another app opened, tab closed) inside the pause before the timed save.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') void flush();
    };
    const onPageHide = () => void flush();
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onPageHide);
      void flush();
    };
  }, [flush]);

  const change = (text: string) => {
    dirty.current = true;
    latest.current = { ...latest.current, draft: text };
    setDraft(text);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), TEXT_SAVE_DELAY_MS);
  };
  return { draft, change, flush, error };
}

interface TextProps {
  field: TextCaseField;
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
export function CaseTextField({
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
  const { record, readOnly, save } = useCaseForm();
  const raw = record[field];
  const stored = typeof raw === 'string' ? raw : '';
  const { draft, change, flush, error } = useAutosaveDraft(stored, async (text) => {
    const value = text.trim() === '' ? null : text;
    const problems = await save({ [field]: value } as CaseFields);
    return problems[field];
  });
  const common = {
    id: caseFieldId(field),
    className: multiline ? 'input case-input case-input--multiline' : 'input case-input',
    value: draft,
    readOnly,
    placeholder,
    maxLength,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(field, hint, error),
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

interface NumberProps {
  field: NumberCaseField;
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
export function CaseNumberField({
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
  const { record, readOnly, save } = useCaseForm();
  const raw = record[field];
  const stored = typeof raw === 'number' ? String(raw) : '';
  const { draft, change, flush, error } = useAutosaveDraft(stored, async (text) => {
    const trimmed = text.trim().replace(',', '.');
    if (trimmed === '') return (await save({ [field]: null } as CaseFields))[field];
    const n = Number(trimmed);
    if (!Number.isFinite(n) || (integer && !Number.isInteger(n)))
      return integer ? 'Enter a whole number' : 'Enter a number';
    if (n < min || n > max) return `Enter a number from ${String(min)} to ${String(max)}`;
    return (await save({ [field]: n } as CaseFields))[field];
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
      <div className="case-number">
        <button
          type="button"
          className="button case-number__nudge"
          disabled={readOnly}
          aria-label={`${label}: decrease`}
          onClick={() => nudge(-step)}
        >
          −
        </button>
        <input
          id={caseFieldId(field)}
          className="input case-input case-number__input"
          type="text"
          inputMode={integer ? 'numeric' : 'decimal'}
          autoComplete="off"
          value={draft}
          readOnly={readOnly}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(field, hint, error)}
          onChange={(e) => change(e.target.value)}
          onBlur={() => void flush()}
        />
        <button
          type="button"
          className="button case-number__nudge"
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

type TimeCaseField = FieldsOfType<string> & `${string}Time${string}`;

interface TimeProps {
  field: TimeCaseField;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  now?: () => Date;
}

/** A date and time with a one-tap "Now" (to the minute) and a Clear. */
export function CaseTimeField({ field, label, required, hint, now = () => new Date() }: TimeProps) {
  const { record, readOnly, save } = useCaseForm();
  const raw = record[field];
  const stored = typeof raw === 'string' ? raw : null;
  const storedLocal = toZonedInputValue(stored);
  const [error, setError] = useState<string | undefined>();
  // The input's own text: while a date or time is being typed it is incomplete (the input
  // reports ''), which must neither clear the stored time nor be overwritten by it.
  const [draft, setDraft] = useState(storedLocal);
  const [seen, setSeen] = useState(storedLocal);
  if (seen !== storedLocal) {
    setSeen(storedLocal);
    setDraft(storedLocal);
  }
  const write = async (value: string | null) =>
    setError((await save({ [field]: value } as CaseFields))[field]);
  return (
    <FieldFrame field={field} label={label} required={required} hint={hint} error={error}>
      <div className="case-time">
        <input
          id={caseFieldId(field)}
          className="input case-input case-time__input"
          type="datetime-local"
          value={draft}
          readOnly={readOnly}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(field, hint, error)}
          onChange={(e) => {
            const text = e.target.value;
            setDraft(text);
            const d = fromZonedInputValue(text);
            if (d) void write(d.toISOString());
          }}
          onBlur={() => {
            // Emptied by keyboard (not mid-typing any more): not recorded.
            if (!readOnly && draft === '' && stored !== null) void write(null);
          }}
        />
        <button
          type="button"
          className="button button--primary case-time__now"
          disabled={readOnly}
          aria-label={`${label}: now`}
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
            className="button case-time__clear"
            aria-label={`${label}: clear`}
            onClick={() => void write(null)}
          >
            Clear
          </button>
        ) : null}
      </div>
    </FieldFrame>
  );
}

export interface ChoiceOption<V extends string | boolean> {
  value: V;
  label: string;
  /** Shown under the label, e.g. what AVPU 'P' means. */
  description?: string;
}

interface ChoiceGroupProps<V extends string | boolean> {
  name: string;
  legend: string;
  options: readonly ChoiceOption<V>[];
  value: V | null | undefined;
  onChange: (value: V | null) => void;
  readOnly: boolean;
  required?: boolean | undefined;
  hint?: ReactNode;
  error?: string | undefined;
  /** Offer "Clear" to go back to not recorded. */
  clearable?: boolean;
  columns?: number;
}

/** A DOM id part for an option value ('Priority 1 (red)' → 'Priority-1-red'): ids hold no spaces. */
export function optionIdPart(value: string | boolean): string {
  return (
    String(value)
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'option'
  );
}

/** Big radio buttons in a fieldset (one tap, readable, keyboard and screen-reader friendly). */
export function ChoiceGroup<V extends string | boolean>({
  name,
  legend,
  options,
  value,
  onChange,
  readOnly,
  required,
  hint,
  error,
  clearable = true,
  columns,
}: ChoiceGroupProps<V>) {
  return (
    <fieldset
      className="case-choice"
      id={name}
      aria-describedby={hint ? `${name}-hint` : undefined}
    >
      <legend className="case-field__label">
        {legend}
        {required ? <span className="case-field__required"> (required to complete)</span> : null}
      </legend>
      <div
        className="case-choice__options"
        style={
          columns
            ? { gridTemplateColumns: `repeat(${String(columns)}, minmax(0, 1fr))` }
            : undefined
        }
      >
        {options.map((option) => {
          const id = `${name}-${optionIdPart(option.value)}`;
          return (
            <label key={String(option.value)} className="case-choice__option" htmlFor={id}>
              <input
                id={id}
                type="radio"
                name={name}
                checked={value === option.value}
                disabled={readOnly}
                onChange={() => onChange(option.value)}
              />
              <span className="case-choice__text">
                {option.label}
                {option.description ? (
                  <span className="case-choice__description">{option.description}</span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      {clearable && !readOnly && value !== null && value !== undefined ? (
        <button type="button" className="button case-choice__clear" onClick={() => onChange(null)}>
          Clear {legend.toLowerCase()}
        </button>
      ) : null}
      {hint ? (
        <p className="case-field__hint" id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="case-field__error" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

type NullableChoiceField = {
  [K in CaseField]-?: null extends CaseFields[K] ? (ValueOf<K> extends string ? K : never) : never;
}[CaseField];

interface CaseChoiceProps<K extends NullableChoiceField> {
  field: K;
  label: string;
  options: readonly ChoiceOption<ValueOf<K> & string>[];
  required?: boolean;
  hint?: ReactNode;
  columns?: number;
}

/**
 * A value saved on tap: shown at once (useShownValue), and the stored one again when the save
 * is refused or the device could not store it. `tap` resolves to the field's problem, if any.
 */
function useTapSave<T>(field: CaseField, stored: T, same?: (a: T, b: T) => boolean) {
  const { save } = useCaseForm();
  const { shown, expect, settle } = useShownValue(stored, same);
  const tap = async (next: T): Promise<string | undefined> => {
    const saved = expect(next);
    try {
      const problem = (await save({ [field]: next } as CaseFields))[field];
      if (problem) settle();
      return problem;
    } finally {
      saved();
    }
  };
  return { shown, tap };
}

/** One of a few values (AVPU, triage, gender…), saved on tap. */
export function CaseChoice<K extends NullableChoiceField>({
  field,
  label,
  options,
  required,
  hint,
  columns,
}: CaseChoiceProps<K>) {
  const { record, readOnly } = useCaseForm();
  const [error, setError] = useState<string | undefined>();
  const stored = (record[field] ?? null) as (ValueOf<K> & string) | null;
  const { shown, tap } = useTapSave(field, stored);
  return (
    <ChoiceGroup
      name={caseFieldId(field)}
      legend={label}
      options={options}
      value={shown}
      readOnly={readOnly}
      required={required}
      hint={hint}
      error={error}
      columns={columns}
      onChange={(next) => void tap(next).then(setError)}
    />
  );
}

type NullableBooleanField = {
  [K in CaseField]-?: null extends CaseFields[K] ? (ValueOf<K> extends boolean ? K : never) : never;
}[CaseField];

const YES_NO: readonly ChoiceOption<boolean>[] = [
  { value: true, label: 'Yes' },
  { value: false, label: 'No' },
];

/** Yes / No / not recorded. */
export function CaseYesNo({
  field,
  label,
  required,
  hint,
  yes = 'Yes',
  no = 'No',
}: {
  field: NullableBooleanField;
  label: string;
  required?: boolean;
  hint?: ReactNode;
  yes?: string;
  no?: string;
}) {
  const { record, readOnly } = useCaseForm();
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
      name={caseFieldId(field)}
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

type RequiredBooleanField = {
  [K in CaseField]-?: null extends CaseFields[K] ? never : ValueOf<K> extends boolean ? K : never;
}[CaseField];

/** A checkbox row for an always-set boolean (interventions, "examined"), saved on tap. */
export function CaseCheckbox({
  field,
  label,
  warning,
  description,
}: {
  field: RequiredBooleanField;
  label: string;
  warning?: string | null;
  description?: string;
}) {
  const { record, readOnly } = useCaseForm();
  const { shown: checked, tap } = useTapSave(field, record[field] === true);
  const id = caseFieldId(field);
  return (
    <div className={`case-check${checked ? ' case-check--on' : ''}`}>
      <input
        id={id}
        type="checkbox"
        checked={checked}
        disabled={readOnly}
        aria-describedby={warning ? `${id}-warning` : undefined}
        onChange={(e) => void tap(e.target.checked)}
      />
      <label htmlFor={id} className="case-check__label">
        {label}
        {description ? <span className="case-check__description">{description}</span> : null}
      </label>
      {warning ? (
        <p className="case-check__warning" id={`${id}-warning`}>
          {warning}
        </p>
      ) : null}
    </div>
  );
}

/** Several of a list (symptoms, hemorrhage interventions), saved on tap. */
export function CaseMultiSelect({
  field,
  label,
  options,
  hint,
}: {
  field: ListCaseField;
  label: string;
  options: readonly { value: string; label: string }[];
  hint?: ReactNode;
}) {
  const { record, readOnly } = useCaseForm();
  const raw = record[field];
  const stored: readonly string[] = Array.isArray(raw) ? raw : [];
  // Quick taps build on what is shown, so a second tap cannot drop the first.
  const { shown: selected, tap } = useTapSave(field, stored, sameList);
  const name = caseFieldId(field);
  const toggle = (value: string, on: boolean) => {
    const next = on
      ? [...selected.filter((v) => v !== value), value]
      : selected.filter((v) => v !== value);
    void tap(next);
  };
  return (
    <fieldset
      className="case-choice"
      id={name}
      aria-describedby={hint ? `${name}-hint` : undefined}
    >
      <legend className="case-field__label">{label}</legend>
      <div className="case-choice__options">
        {options.map((option) => {
          const id = `${name}-${optionIdPart(option.value)}`;
          return (
            <label key={option.value} className="case-choice__option" htmlFor={id}>
              <input
                id={id}
                type="checkbox"
                checked={selected.includes(option.value)}
                disabled={readOnly}
                onChange={(e) => toggle(option.value, e.target.checked)}
              />
              <span className="case-choice__text">{option.label}</span>
            </label>
          );
        })}
      </div>
      {hint ? (
        <p className="case-field__hint" id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A titled group of fields on a step (e.g. "Caller", "Hemorrhage"). */
export function CaseSection({
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
    <section className="card case-section" aria-labelledby={headingId} id={id}>
      <h2 id={headingId} className="case-section__title">
        {title}
      </h2>
      {description ? <p className="case-section__description">{description}</p> : null}
      <div className="case-section__fields">{children}</div>
    </section>
  );
}
