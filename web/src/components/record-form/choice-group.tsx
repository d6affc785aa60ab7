// Big radio buttons in a fieldset: one tap, readable in sunlight, keyboard and screen-reader
// friendly. Used by choice and yes/no controls and by screens with their own choices.
import type { CSSProperties, ReactNode } from 'react';
import { cx } from '@/lib/cx';
import styles from './record-form.module.css';

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
  /** A class of the screen's module for the grid of options (e.g. one column on a phone). */
  optionsClassName?: string | undefined;
}

/** A DOM id part for an option value ('Priority 1 (red)' → 'Priority-1-red'): ids hold no spaces. */
export function optionIdPart(value: string | boolean): string {
  return (
    String(value)
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'option'
  );
}

/** `columns` cards a row where their words fit (fewer where not: a card never breaks a word). */
function columnsStyle(columns: number): CSSProperties {
  const gaps = `${String(columns - 1)} * var(--space-2)`;
  return { '--option-basis': `calc((100% - ${gaps}) / ${String(columns)})` } as CSSProperties;
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
  optionsClassName,
}: ChoiceGroupProps<V>) {
  return (
    <fieldset
      className={styles.choice}
      id={name}
      aria-describedby={hint ? `${name}-hint` : undefined}
    >
      <legend className={styles.label}>
        {legend}
        {required ? <span className={styles.required}> (required to complete)</span> : null}
      </legend>
      <div
        className={cx(styles.options, optionsClassName)}
        style={columns ? columnsStyle(columns) : undefined}
      >
        {options.map((option) => {
          const id = `${name}-${optionIdPart(option.value)}`;
          return (
            <label key={String(option.value)} className={styles.option} htmlFor={id}>
              <input
                id={id}
                type="radio"
                name={name}
                checked={value === option.value}
                disabled={readOnly}
                onChange={() => onChange(option.value)}
              />
              <span className={styles.optionText}>
                {option.label}
                {option.description ? (
                  <span className={styles.optionDescription}>{option.description}</span>
                ) : null}
              </span>
            </label>
          );
        })}
      </div>
      {clearable && !readOnly && value !== null && value !== undefined ? (
        <button
          type="button"
          className={`button ${styles.choiceClear}`}
          onClick={() => onChange(null)}
        >
          Clear {legend.toLowerCase()}
        </button>
      ) : null}
      {hint ? (
        <p className={styles.hint} id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className={styles.error} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
