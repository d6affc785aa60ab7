// Pain score 0–10 as eleven big buttons: one tap saves (radio semantics, so a screen reader
// says "3 of 11").
import { useState } from 'react';
import { caseFieldId, useCaseForm } from '../components/case-form';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './secondary-survey.module.css';

const SCORES = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

function band(score: number): string {
  if (score === 0) return 'No pain';
  if (score <= 3) return 'Mild';
  if (score <= 6) return 'Moderate';
  return 'Severe';
}

export function PainScorePicker() {
  const { record, readOnly, save } = useCaseForm();
  const [error, setError] = useState<string | undefined>();
  const value = record.painScore ?? null;
  const name = caseFieldId('painScore');
  const write = (next: number | null) => {
    void save({ painScore: next }).then((problems) => setError(problems.painScore));
  };
  return (
    <fieldset
      className={`${formStyles.choice} ${formStyles.wide}`}
      id={name}
      aria-describedby={`${name}-hint`}
    >
      <legend className={formStyles.label}>Pain score (0–10)</legend>
      <p className={formStyles.hint} id={`${name}-hint`}>
        0 no pain, 10 the worst pain imaginable.
        {value !== null ? ` Recorded: ${String(value)}/10, ${band(value).toLowerCase()}.` : ''}
      </p>
      <div className={styles.painScale}>
        {SCORES.map((score) => {
          const id = `${name}-${String(score)}`;
          return (
            <label key={score} htmlFor={id} className={styles.painOption}>
              <input
                id={id}
                type="radio"
                name={name}
                className="sr-only"
                checked={value === score}
                disabled={readOnly}
                onChange={() => write(score)}
              />
              <span aria-hidden="true">{score}</span>
              <span className="sr-only">
                {score}, {band(score)}
              </span>
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
          Clear pain score
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
