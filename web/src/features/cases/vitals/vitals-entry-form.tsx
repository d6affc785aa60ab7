// Quick entry of a set of vital signs: the common readings in one compact form with
// numeric keypads, one "Save readings" that records one row per filled value, all at the
// same time (now, unless changed), each flagged for the patient's age. GCS starts from the
// primary survey's total. Nothing here needs the network.
import { TypedDateInput } from '@/components/ui/typed-date-input';
import {
  classifyVital,
  parseVitalValue,
  type ParsedVital,
} from '@rescuelog/sync-protocol/cases/vital-ranges';
import { formatTime, fromZonedInputValue, toZonedInputValue } from '@rescuelog/sync-protocol/time';
import { VITAL_SIGNS, type VitalSignType } from '@rescuelog/sync-protocol/cases/clinical';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { recordVitalSign } from '../data/case-writes';
import type { LocalCase } from '../data/use-case';
import { vitalLabel } from './vital-display';
import { VitalRangeNote } from './vital-range-note';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './vitals.module.css';
import { cx } from '@/lib/cx';

type SingleType = Exclude<VitalSignType, 'bloodPressure'>;

interface EntryField {
  type: SingleType;
  inputMode: 'numeric' | 'decimal';
  optional?: boolean;
}

/** The order a crew reads them off the monitor; blood pressure sits after respiratory rate. */
const BEFORE_BP: readonly EntryField[] = [
  { type: 'heartRate', inputMode: 'numeric' },
  { type: 'respiratoryRate', inputMode: 'numeric' },
];
const AFTER_BP: readonly EntryField[] = [
  { type: 'spo2', inputMode: 'numeric' },
  { type: 'temperature', inputMode: 'decimal' },
  { type: 'bloodGlucose', inputMode: 'decimal' },
  { type: 'gcs', inputMode: 'numeric' },
  { type: 'painScore', inputMode: 'numeric' },
  { type: 'capillaryRefill', inputMode: 'decimal' },
  { type: 'etco2', inputMode: 'numeric', optional: true },
];
const SINGLE_TYPES: readonly SingleType[] = [...BEFORE_BP, ...AFTER_BP].map((f) => f.type);

type Values = Record<SingleType, string>;
const EMPTY: Values = Object.fromEntries(SINGLE_TYPES.map((t) => [t, ''])) as Values;

export interface Reentry {
  type: VitalSignType;
  timestamp: string;
  /** Changes on every request, so the same reading can be re-entered twice. */
  key: number;
}

export type VitalsCase = Pick<LocalCase, 'id' | 'approximateAge' | 'gcsTotal'>;

function unitLabel(type: VitalSignType): string {
  const unit = VITAL_SIGNS[type].unit;
  return unit ? ` (${unit})` : '';
}

/** Blood pressure as charted: '120/80', or '90/P' when only the systolic was palpated. */
function bloodPressureText(systolic: string, diastolic: string): string | { error: string } | null {
  const s = systolic.trim();
  const d = diastolic.trim();
  if (s === '' && d === '') return null;
  if (s === '') return { error: 'Enter the systolic as well' };
  return `${s}/${d === '' ? 'P' : d}`;
}

function inputId(type: VitalSignType, base: string): string {
  return `${base}-${type}`;
}

export function VitalsEntryForm({
  caseRecord,
  reentry,
  now = () => new Date(),
}: {
  caseRecord: VitalsCase;
  reentry?: Reentry | null;
  now?: () => Date;
}) {
  const base = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const age = caseRecord.approximateAge ?? null;
  const caseGcs = typeof caseRecord.gcsTotal === 'number' ? String(caseRecord.gcsTotal) : '';
  const [typed, setTyped] = useState<Values>(EMPTY);
  // GCS starts as the primary survey's total until the responder types their own.
  const [gcsTouched, setGcsTouched] = useState(false);
  const values: Values = gcsTouched ? typed : { ...typed, gcs: caseGcs };
  const [systolic, setSystolic] = useState('');
  const [diastolic, setDiastolic] = useState('');
  const [errors, setErrors] = useState<Partial<Record<VitalSignType | 'time' | 'form', string>>>(
    {},
  );
  const [customTime, setCustomTime] = useState('');
  const [tick, setTick] = useState(() => now());
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const [reentryNote, setReentryNote] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);

  // "Now" keeps up while the form is open.
  useEffect(() => {
    const timer = setInterval(() => setTick(now()), 30_000);
    return () => clearInterval(timer);
  }, [now]);

  // After a void: the time of the voided reading, ready for the right value (adjusted while
  // rendering, once per request), and its box focused.
  const [appliedReentry, setAppliedReentry] = useState<number | null>(null);
  if (reentry && reentry.key !== appliedReentry) {
    setAppliedReentry(reentry.key);
    setCustomTime(toZonedInputValue(reentry.timestamp));
    setReentryNote(
      `Enter the correct ${vitalLabel(reentry.type).toLowerCase()} taken at ${formatTime(reentry.timestamp, '')}.`,
    );
    setSaved(null);
  }
  useEffect(() => {
    if (!reentry) return;
    formRef.current?.querySelector<HTMLInputElement>(`#${inputId(reentry.type, base)}`)?.focus();
  }, [reentry, base]);

  const setValue = (type: SingleType, text: string) => {
    if (type === 'gcs') setGcsTouched(true);
    setTyped((v) => ({ ...v, [type]: text }));
    setErrors((e) => ({ ...e, [type]: undefined, form: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (saving) return;
    const problems: Partial<Record<VitalSignType | 'time' | 'form', string>> = {};
    const readings: { type: VitalSignType; parsed: ParsedVital }[] = [];
    for (const type of SINGLE_TYPES) {
      const text = values[type].trim();
      if (text === '') continue;
      const parsed = parseVitalValue(type, text);
      if ('error' in parsed) problems[type] = parsed.error;
      else readings.push({ type, parsed });
    }
    const bp = bloodPressureText(systolic, diastolic);
    if (bp !== null) {
      const parsed = typeof bp === 'string' ? parseVitalValue('bloodPressure', bp) : bp;
      if ('error' in parsed) problems.bloodPressure = parsed.error;
      else readings.splice(2, 0, { type: 'bloodPressure', parsed });
    }
    const at = (customTime ? fromZonedInputValue(customTime) : null) ?? now();
    if (Number.isNaN(at.getTime()))
      problems.time = 'Enter the date and time the readings were taken';
    else if (at.getTime() > now().getTime() + 5 * 60_000)
      problems.time = 'The time is in the future';
    if (readings.length === 0 && Object.keys(problems).length === 0)
      problems.form = 'Enter at least one reading';
    if (Object.keys(problems).length > 0) {
      setErrors(problems);
      setSaved(null);
      const first = Object.keys(problems)[0];
      const target =
        first === 'form'
          ? null
          : formRef.current?.querySelector<HTMLElement>(
              `#${first === 'time' ? `${base}-time` : inputId(first as VitalSignType, base)}`,
            );
      target?.focus();
      return;
    }
    setSaving(true);
    setSaved(null);
    // What was submitted: only these boxes are emptied afterwards, so anything typed while
    // the set was being stored stays for the next one.
    const submitted = { typed: values, systolic, diastolic, customTime };
    const keep = (current: string, sent: string) => (current === sent ? '' : current);
    try {
      for (const { type, parsed } of readings) {
        await recordVitalSign(caseRecord.id, {
          type,
          value: parsed.value,
          numericValue: parsed.numericValue,
          status: classifyVital(type, parsed.value, age),
          timestamp: at,
        });
      }
      setTyped(
        (current) =>
          Object.fromEntries(
            SINGLE_TYPES.map((t) => [t, keep(current[t], submitted.typed[t])]),
          ) as Values,
      );
      setGcsTouched(false);
      setSystolic((current) => keep(current, submitted.systolic));
      setDiastolic((current) => keep(current, submitted.diastolic));
      setCustomTime((current) => keep(current, submitted.customTime));
      setErrors({});
      setReentryNote(null);
      const count = readings.length === 1 ? '1 reading' : `${String(readings.length)} readings`;
      setSaved(`Saved ${count} taken at ${formatTime(at, '')}.`);
    } catch (error) {
      setErrors({
        form: `Could not save on this device: ${error instanceof Error ? error.message : String(error)}`,
      });
    } finally {
      setSaving(false);
    }
  };

  const described = (type: VitalSignType) =>
    [`${inputId(type, base)}-hint`, errors[type] ? `${inputId(type, base)}-error` : null]
      .filter(Boolean)
      .join(' ');

  const single = (field: EntryField) => {
    const id = inputId(field.type, base);
    const prefilled =
      field.type === 'gcs' && !gcsTouched && caseGcs !== '' && values.gcs === caseGcs;
    return (
      <div className={styles.entryField} key={field.type}>
        <label className={formStyles.label} htmlFor={id}>
          {vitalLabel(field.type)}
          {unitLabel(field.type)}
          {field.optional ? <span className={formStyles.required}> (optional)</span> : null}
        </label>
        <input
          id={id}
          className={`input ${formStyles.textInput} ${styles.entryInput}`}
          type="text"
          inputMode={field.inputMode}
          autoComplete="off"
          value={values[field.type]}
          aria-invalid={errors[field.type] ? true : undefined}
          aria-describedby={described(field.type)}
          onChange={(e) => setValue(field.type, e.target.value)}
        />
        <span className={formStyles.hint} id={`${id}-hint`}>
          {prefilled ? (
            <span className={styles.entryPrefill}>From the primary survey. </span>
          ) : null}
          <VitalRangeNote type={field.type} value={values[field.type]} ageYears={age} />
        </span>
        {errors[field.type] ? (
          <span className={formStyles.error} id={`${id}-error`}>
            {errors[field.type]}
          </span>
        ) : null}
      </div>
    );
  };

  const bpId = inputId('bloodPressure', base);
  const bpText = bloodPressureText(systolic, diastolic);
  const errorCount = Object.values(errors).filter(Boolean).length;
  return (
    <form
      ref={formRef}
      className={styles.entry}
      aria-labelledby={`${base}-title`}
      noValidate
      onSubmit={(e) => void submit(e)}
    >
      <h3 className={styles.entryTitle} id={`${base}-title`}>
        Add a set of readings
      </h3>
      <p className={formStyles.hint}>Fill in what you measured; empty boxes are skipped.</p>
      {reentryNote ? (
        <p className={styles.entryNote} role="status">
          {reentryNote}
        </p>
      ) : null}
      <div className={styles.entryGrid}>
        {BEFORE_BP.map(single)}
        <fieldset
          className={cx(styles.entryField, styles.entryBp)}
          aria-describedby={`${bpId}-hint${errors.bloodPressure ? ` ${bpId}-error` : ''}`}
        >
          <legend className={formStyles.label}>Blood pressure (mmHg)</legend>
          <div className={styles.entryBpInputs}>
            <label className="sr-only" htmlFor={bpId}>
              Systolic
            </label>
            <input
              id={bpId}
              className={`input ${formStyles.textInput} ${styles.entryInput}`}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              placeholder="Sys"
              value={systolic}
              aria-invalid={errors.bloodPressure ? true : undefined}
              onChange={(e) => {
                setSystolic(e.target.value);
                setErrors((er) => ({ ...er, bloodPressure: undefined, form: undefined }));
              }}
            />
            <span className={styles.entrySlash} aria-hidden="true">
              /
            </span>
            <label className="sr-only" htmlFor={`${bpId}-diastolic`}>
              Diastolic
            </label>
            <input
              id={`${bpId}-diastolic`}
              className={`input ${formStyles.textInput} ${styles.entryInput}`}
              type="text"
              inputMode="numeric"
              autoComplete="off"
              placeholder="Dia"
              value={diastolic}
              aria-invalid={errors.bloodPressure ? true : undefined}
              onChange={(e) => {
                setDiastolic(e.target.value);
                setErrors((er) => ({ ...er, bloodPressure: undefined, form: undefined }));
              }}
            />
          </div>
          <span className={formStyles.hint} id={`${bpId}-hint`}>
            <VitalRangeNote
              type="bloodPressure"
              value={typeof bpText === 'string' ? bpText : ''}
              ageYears={age}
            />{' '}
            Diastolic empty: palpated.
          </span>
          {errors.bloodPressure ? (
            <span className={formStyles.error} id={`${bpId}-error`}>
              {errors.bloodPressure}
            </span>
          ) : null}
        </fieldset>
        {AFTER_BP.map(single)}
      </div>

      <div className={styles.entryFooter}>
        <div className={styles.entryTime}>
          <label className={formStyles.label} htmlFor={`${base}-time`}>
            Taken at
          </label>
          <div className={formStyles.time}>
            <TypedDateInput
              id={`${base}-time`}
              className={`input ${formStyles.textInput} ${formStyles.timeInput}`}
              value={customTime || toZonedInputValue(tick.toISOString())}
              aria-describedby={`${base}-time-hint${errors.time ? ` ${base}-time-error` : ''}`}
              aria-invalid={errors.time ? true : undefined}
              onUnreadable={(message) => setErrors((er) => ({ ...er, time: message }))}
              onChange={(value) => {
                setCustomTime(value);
                setErrors((er) => ({ ...er, time: undefined }));
              }}
            />
            <button
              type="button"
              className={`button ${formStyles.now}`}
              aria-label="Taken at: now"
              onClick={() => {
                setCustomTime('');
                setTick(now());
              }}
            >
              Now
            </button>
          </div>
          <span className={formStyles.hint} id={`${base}-time-hint`}>
            {customTime ? 'Time set by hand.' : 'Now, unless you change it.'}
          </span>
          {errors.time ? (
            <span className={formStyles.error} id={`${base}-time-error`}>
              {errors.time}
            </span>
          ) : null}
        </div>
        <button
          type="submit"
          className={`button button--primary ${styles.entrySave}`}
          disabled={saving}
        >
          {saving ? 'Saving…' : 'Save readings'}
        </button>
      </div>
      <div role="alert" className={styles.entryAlert}>
        {errors.form ? (
          <p className={formStyles.error}>{errors.form}</p>
        ) : errorCount > 0 ? (
          <p className={formStyles.error}>
            Check the {errorCount === 1 ? 'reading' : `${String(errorCount)} readings`} marked
            above: nothing was saved.
          </p>
        ) : null}
      </div>
      <p role="status" className={styles.entrySaved}>
        {saved}
      </p>
    </form>
  );
}
