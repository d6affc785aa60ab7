// Triage status on the South African Triage Scale: one tap, each option a coloured badge
// that also says its colour and meaning in words (never colour alone; the badge colours
// pass 7:1 with their text).
import { useState } from 'react';
import { caseFieldId, useCaseForm } from '../components/case-form';
import { SATS_TRIAGE } from './primary-survey-options';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './primary-survey.module.css';
import { cx } from '@/lib/cx';

export function TriageChoice({ required }: { required?: boolean }) {
  const { record, readOnly, save } = useCaseForm();
  const [error, setError] = useState<string | undefined>();
  const value = record.triageStatus ?? null;
  // Matched without case: 'Yellow' typed elsewhere is the same colour as 'YELLOW'.
  const selected = value === null ? null : value.trim().toUpperCase();
  const name = caseFieldId('triageStatus');
  const write = (next: string | null) => {
    void save({ triageStatus: next }).then((problems) => setError(problems.triageStatus));
  };
  const known = selected === null || SATS_TRIAGE.some((t) => t.value === selected);
  return (
    <fieldset
      className={`${formStyles.choice} ${formStyles.wide}`}
      id={name}
      aria-describedby={`${name}-hint`}
    >
      <legend className={formStyles.label}>
        Triage status (South African Triage Scale)
        {required ? <span className={formStyles.required}> (required to complete)</span> : null}
      </legend>
      <p className={formStyles.hint} id={`${name}-hint`}>
        Colour and urgency of care.
        {!known ? ` Recorded as ${value ?? ''}.` : null}
      </p>
      <div className={styles.triageOptions}>
        {SATS_TRIAGE.map((option) => {
          const id = `${name}-${option.value}`;
          return (
            <label
              key={option.value}
              className={`${formStyles.option} ${styles.triageOption}`}
              htmlFor={id}
            >
              <input
                id={id}
                type="radio"
                name={name}
                checked={selected === option.value}
                disabled={readOnly}
                onChange={() => write(option.value)}
              />
              <span className={cx(styles.triageBadge, styles[option.value.toLowerCase()])}>
                {option.value}
              </span>
              <span className={formStyles.optionText}>{option.description}</span>
            </label>
          );
        })}
      </div>
      {!readOnly && value !== null ? (
        <button
          type="button"
          className={`button ${formStyles.choiceClear}`}
          onClick={() => write(null)}
        >
          Clear triage status
        </button>
      ) : null}
      {error ? (
        <p className={formStyles.error} role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
