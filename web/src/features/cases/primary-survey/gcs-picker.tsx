// Glasgow Coma Scale: three big one-tap pickers (E, V, M) and the total, shown as the crew
// says it over the radio ('E4 V5 M6 = 15'). The total is computed here and saved in the
// same change as the part that moved it, so a stored GCS never has parts and a total that
// disagree. Under-5s get the modified verbal (and motor) descriptors; an intubated patient
// is charted 'T' for verbal (gcsVerbalIntubated, the verbal score cleared).
import {
  GCS_PAEDIATRIC_BELOW_AGE,
  computeGcsTotal,
  formatGcs,
  gcsEyeOptions,
  gcsMotorOptions,
  gcsPartsOf,
  gcsVerbalOptions,
  isGcsEmpty,
  type GcsOption,
  type GcsParts,
} from '@rescuelog/sync-protocol/cases/gcs';
import type { CaseFields } from '@rescuelog/sync-protocol/cases/case-schema';
import { useEffect, useRef, useState } from 'react';
import { caseFieldId, useCaseForm } from '../components/case-form';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './primary-survey.module.css';

type Part = 'eye' | 'verbal' | 'motor';

/**
 * The parts as stored, with the taps not yet back from the device database laid over them:
 * three quick taps must compute the total from all three, not from a stale record.
 */
function useGcsParts(stored: GcsParts) {
  const [pending, setPending] = useState<Partial<GcsParts>>({});
  const pendingRef = useRef(pending);
  const current: GcsParts = { ...stored, ...pending };
  const storedKey = JSON.stringify(stored);
  useEffect(() => {
    // Drop what the stored record now reflects.
    const next = Object.fromEntries(
      Object.entries(pendingRef.current).filter(([k, v]) => stored[k as keyof GcsParts] !== v),
    ) as Partial<GcsParts>;
    pendingRef.current = next;
    setPending(next);
    // storedKey stands for `stored` (a new object every render).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [storedKey]);
  const apply = (change: Partial<GcsParts>): GcsParts => {
    const next = { ...pendingRef.current, ...change };
    pendingRef.current = next;
    setPending(next);
    return { ...stored, ...next };
  };
  const forget = () => {
    pendingRef.current = {};
    setPending({});
  };
  return { current, apply, forget };
}

/** The fields a change of parts writes: only what changed, and the total with them. */
function changedFields(before: GcsParts, after: GcsParts, storedTotal: number | null): CaseFields {
  const fields: CaseFields = {};
  if (after.eye !== before.eye) fields.gcsEyeOpening = after.eye;
  if (after.verbal !== before.verbal) fields.gcsVerbalResponse = after.verbal;
  if (after.motor !== before.motor) fields.gcsMotorResponse = after.motor;
  if (after.verbalIntubated !== before.verbalIntubated)
    fields.gcsVerbalIntubated = after.verbalIntubated;
  const total = computeGcsTotal(after);
  if (total !== storedTotal) fields.gcsTotal = total;
  return fields;
}

interface ScalePickerProps {
  part: Part;
  letter: 'E' | 'V' | 'M';
  legend: string;
  options: readonly GcsOption[];
  value: number | null;
  intubated?: boolean;
  readOnly: boolean;
  hint?: string | null;
  onPick: (score: number | 'T') => void;
}

function ScalePicker({
  part,
  letter,
  legend,
  options,
  value,
  intubated,
  readOnly,
  hint,
  onPick,
}: ScalePickerProps) {
  const field =
    part === 'eye' ? 'gcsEyeOpening' : part === 'verbal' ? 'gcsVerbalResponse' : 'gcsMotorResponse';
  const id = caseFieldId(field);
  const name = `gcs-${part}`;
  return (
    <fieldset
      className={`${formStyles.choice} gcs-scale`}
      id={id}
      aria-describedby={hint ? `${id}-hint` : undefined}
    >
      <legend className={`${formStyles.label} ${styles.scaleLegend}`}>
        <span className={styles.scaleLetter} aria-hidden="true">
          {letter}
        </span>{' '}
        {legend}
      </legend>
      {hint ? (
        <p className={formStyles.hint} id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <div className={styles.scaleOptions}>
        {options.map((option) => {
          const optionId = `${name}-${String(option.score)}`;
          return (
            <label
              key={option.score}
              className={`${formStyles.option} ${styles.gcsOption}`}
              htmlFor={optionId}
            >
              <input
                id={optionId}
                type="radio"
                name={name}
                checked={!intubated && value === option.score}
                disabled={readOnly}
                onChange={() => onPick(option.score)}
              />
              <span className={styles.optionScore} aria-hidden="true">
                {option.score}
              </span>
              <span className={formStyles.optionText}>
                <span className="sr-only">
                  {letter}
                  {option.score}:{' '}
                </span>
                {option.label}
              </span>
            </label>
          );
        })}
        {part === 'verbal' ? (
          <label
            className={`${formStyles.option} ${styles.gcsOption}`}
            htmlFor={caseFieldId('gcsVerbalIntubated')}
          >
            <input
              id={caseFieldId('gcsVerbalIntubated')}
              type="radio"
              name={name}
              checked={intubated === true}
              disabled={readOnly}
              onChange={() => onPick('T')}
            />
            <span className={styles.optionScore} aria-hidden="true">
              T
            </span>
            <span className={formStyles.optionText}>
              <span className="sr-only">VT: </span>
              Intubated (verbal not testable)
            </span>
          </label>
        ) : null}
      </div>
    </fieldset>
  );
}

export function GcsPicker() {
  const { record, readOnly, save } = useCaseForm();
  const stored = gcsPartsOf(record);
  const storedTotal = record.gcsTotal ?? null;
  const { current, apply, forget } = useGcsParts(stored);
  const [error, setError] = useState<string | null>(null);
  const age = record.approximateAge ?? null;
  const paediatric = age !== null && age < GCS_PAEDIATRIC_BELOW_AGE;

  const write = async (change: Partial<GcsParts>) => {
    const before = current;
    const after = apply(change);
    const fields = changedFields(before, after, storedTotal);
    if (Object.keys(fields).length === 0) return;
    const problems = await save(fields);
    const message = Object.values(problems)[0];
    if (message) {
      forget();
      setError(message);
    } else setError(null);
  };

  const pick = (part: Part) => (score: number | 'T') => {
    if (score === 'T') void write({ verbalIntubated: true, verbal: null });
    else if (part === 'verbal') void write({ verbal: score, verbalIntubated: false });
    else void write({ [part]: score });
  };

  const summary = formatGcs(current);
  const total = computeGcsTotal(current);
  return (
    <div className={`${styles.gcs} ${formStyles.wide}`}>
      <div className={styles.score}>
        <span className={styles.scoreLabel} id="gcs-score-label">
          GCS
        </span>
        <output
          id={caseFieldId('gcsTotal')}
          className={styles.scoreValue}
          aria-labelledby="gcs-score-label"
          aria-live="polite"
        >
          {summary === '' ? 'Not scored' : summary}
        </output>
        {!isGcsEmpty(current) && total === null ? (
          <span className={styles.scoreNote}>Score all three for a total</span>
        ) : null}
      </div>
      {error ? (
        <p className={formStyles.error} role="alert">
          {error}
        </p>
      ) : null}
      <div className={styles.scales}>
        <ScalePicker
          part="eye"
          letter="E"
          legend="Eye opening"
          options={gcsEyeOptions(age)}
          value={current.eye}
          readOnly={readOnly}
          onPick={pick('eye')}
        />
        <ScalePicker
          part="verbal"
          letter="V"
          legend="Verbal response"
          options={gcsVerbalOptions(age)}
          value={current.verbal}
          intubated={current.verbalIntubated}
          readOnly={readOnly}
          hint={
            paediatric
              ? `Modified scale for a child under ${String(GCS_PAEDIATRIC_BELOW_AGE)}`
              : null
          }
          onPick={pick('verbal')}
        />
        <ScalePicker
          part="motor"
          letter="M"
          legend="Motor response"
          options={gcsMotorOptions(age)}
          value={current.motor}
          readOnly={readOnly}
          onPick={pick('motor')}
        />
      </div>
      {!readOnly && !isGcsEmpty(current) ? (
        <button
          type="button"
          className={`button ${formStyles.choiceClear}`}
          onClick={() =>
            void write({ eye: null, verbal: null, motor: null, verbalIntubated: false })
          }
        >
          Clear GCS
        </button>
      ) : null}
    </div>
  );
}
