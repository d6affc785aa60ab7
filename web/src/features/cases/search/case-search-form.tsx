// The Cases Logged filter form. The two filters used most (case number, patient name) and
// status and "Only my cases" are always shown; the rest open under "More filters" (on a
// phone the results would otherwise start two screens down). Applying writes the URL.
import { TypedDateInput } from '@/components/ui/typed-date-input';
import type { CaseSearchFilters } from '@rescuelog/sync-protocol/cases/search';
import { CASE_STATUSES, type CaseStatus } from '@rescuelog/sync-protocol/cases/api';
import { ChevronDown, ChevronUp } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { INCIDENT_TYPE_OPTIONS } from '../patient-details/options';
import type { FilterKey } from './search-params';
import { ListFormActions } from '@/components/record-list/list-search-form';
import listStyles from '@/components/record-list/record-list.module.css';
import styles from './case-search.module.css';

export const STATUS_LABELS: Record<CaseStatus, string> = {
  in_progress: 'In Progress',
  completed: 'Completed',
};

interface FormValues {
  caseId: string;
  patientName: string;
  incidentType: string;
  from: string;
  to: string;
  status: '' | CaseStatus;
  responder: string;
  mine: boolean;
}

function toValues(f: CaseSearchFilters): FormValues {
  return {
    caseId: f.caseId ?? '',
    patientName: f.patientName ?? '',
    incidentType: f.incidentType ?? '',
    from: f.from ?? '',
    to: f.to ?? '',
    status: f.status ?? '',
    responder: f.responder ?? '',
    mine: f.mine === true,
  };
}

function toFilters(v: FormValues): CaseSearchFilters {
  const text = (s: string) => (s.trim() === '' ? undefined : s.trim());
  const filters: CaseSearchFilters = {};
  const set = <K extends keyof CaseSearchFilters>(
    key: K,
    value: CaseSearchFilters[K] | undefined,
  ) => {
    if (value !== undefined) filters[key] = value;
  };
  set('caseId', text(v.caseId));
  set('patientName', text(v.patientName));
  set('incidentType', text(v.incidentType));
  set('from', text(v.from));
  set('to', text(v.to));
  set('status', v.status === '' ? undefined : v.status);
  set('responder', text(v.responder));
  set('mine', v.mine ? true : undefined);
  return filters;
}

interface CaseSearchFormProps {
  filters: CaseSearchFilters;
  /** Problems with values that came in the URL. */
  errors: Partial<Record<FilterKey, string>>;
  onSearch: (filters: CaseSearchFilters) => void;
}

export function CaseSearchForm({ filters, errors: urlErrors, onSearch }: CaseSearchFormProps) {
  const id = useId();
  const [values, setValues] = useState<FormValues>(() => toValues(filters));
  const [errors, setErrors] = useState<Partial<Record<FilterKey, string>>>(urlErrors);
  const moreSet =
    filters.incidentType !== undefined ||
    filters.responder !== undefined ||
    filters.from !== undefined ||
    filters.to !== undefined;
  const [moreOpen, setMoreOpen] = useState(
    moreSet ||
      Object.keys(urlErrors).some(
        (k) => k === 'from' || k === 'to' || k === 'incidentType' || k === 'responder',
      ),
  );

  const change = <K extends keyof FormValues>(key: K, value: FormValues[K]) =>
    setValues((v) => ({ ...v, [key]: value }));
  const fieldId = (key: FilterKey) => `${id}-${key}`;
  const errorOf = (key: FilterKey) => errors[key];
  const describedBy = (key: FilterKey) => (errors[key] ? `${fieldId(key)}-error` : undefined);

  function submit(event: FormEvent) {
    event.preventDefault();
    const next = toFilters(values);
    if (next.from !== undefined && next.to !== undefined && next.from > next.to) {
      setErrors({ to: "The 'To' date is before the 'From' date" });
      setMoreOpen(true);
      return;
    }
    setErrors({});
    onSearch(next);
  }

  function clear() {
    const empty = toValues({});
    setValues(empty);
    setErrors({});
    onSearch({});
  }

  const incidentChoices = INCIDENT_TYPE_OPTIONS.map((o) => o.value);
  if (
    values.incidentType !== '' &&
    !incidentChoices.some((c) => c.toLowerCase() === values.incidentType.toLowerCase())
  )
    incidentChoices.push(values.incidentType);

  const textField = (
    key: 'caseId' | 'patientName' | 'responder',
    label: string,
    extra: { placeholder?: string; autoCapitalize?: string } = {},
  ) => (
    <div className="field">
      <label className="field__label" htmlFor={fieldId(key)}>
        {label}
      </label>
      <input
        id={fieldId(key)}
        className="input"
        type="search"
        autoComplete="off"
        spellCheck={false}
        maxLength={key === 'caseId' ? 40 : 200}
        value={values[key]}
        aria-invalid={errorOf(key) ? true : undefined}
        aria-describedby={describedBy(key)}
        onChange={(e) => change(key, e.target.value)}
        {...extra}
      />
      <FieldError id={`${fieldId(key)}-error`} message={errorOf(key)} />
    </div>
  );

  const dateField = (key: 'from' | 'to', label: string) => (
    <div className="field">
      <label className="field__label" htmlFor={fieldId(key)}>
        {label}
      </label>
      <TypedDateInput
        mode="date"
        id={fieldId(key)}
        className="input"
        value={values[key]}
        aria-invalid={errorOf(key) ? true : undefined}
        aria-describedby={describedBy(key)}
        onChange={(value) => change(key, value)}
        onUnreadable={(message) => setErrors((current) => ({ ...current, [key]: message }))}
      />
      <FieldError id={`${fieldId(key)}-error`} message={errorOf(key)} />
    </div>
  );

  return (
    <form
      className={`card ${listStyles.form}`}
      role="search"
      aria-label="Filter cases"
      noValidate
      onSubmit={submit}
    >
      <div className={listStyles.formGrid}>
        {textField('caseId', 'Case number', {
          placeholder: 'e.g. C-2611-7Q4M',
          autoCapitalize: 'characters',
        })}
        {textField('patientName', 'Patient name')}
        <div className="field">
          <label className="field__label" htmlFor={fieldId('status')}>
            Status
          </label>
          <select
            id={fieldId('status')}
            className="input"
            value={values.status}
            aria-invalid={errorOf('status') ? true : undefined}
            aria-describedby={describedBy('status')}
            onChange={(e) => change('status', e.target.value as FormValues['status'])}
          >
            <option value="">Any status</option>
            {CASE_STATUSES.map((s) => (
              <option key={s} value={s}>
                {STATUS_LABELS[s]}
              </option>
            ))}
          </select>
          <FieldError id={`${fieldId('status')}-error`} message={errorOf('status')} />
        </div>
        <label className={styles.formCheck} htmlFor={fieldId('mine')}>
          <input
            id={fieldId('mine')}
            type="checkbox"
            checked={values.mine}
            onChange={(e) => change('mine', e.target.checked)}
          />
          Only my cases
        </label>
      </div>

      <div id={`${id}-more`} className={listStyles.formGrid} hidden={!moreOpen}>
        <div className="field">
          <label className="field__label" htmlFor={fieldId('incidentType')}>
            Incident type
          </label>
          <select
            id={fieldId('incidentType')}
            className="input"
            value={values.incidentType}
            aria-invalid={errorOf('incidentType') ? true : undefined}
            aria-describedby={describedBy('incidentType')}
            onChange={(e) => change('incidentType', e.target.value)}
          >
            <option value="">Any incident type</option>
            {incidentChoices.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
          <FieldError id={`${fieldId('incidentType')}-error`} message={errorOf('incidentType')} />
        </div>
        {textField('responder', 'Responder name or call sign')}
        {dateField('from', 'Date from')}
        {dateField('to', 'Date to')}
      </div>

      <ListFormActions onClear={clear}>
        <button
          type="button"
          className="button button--secondary"
          aria-expanded={moreOpen}
          aria-controls={`${id}-more`}
          onClick={() => setMoreOpen((o) => !o)}
        >
          {moreOpen ? (
            <ChevronUp aria-hidden="true" size={20} />
          ) : (
            <ChevronDown aria-hidden="true" size={20} />
          )}
          More filters
        </button>
      </ListFormActions>
    </form>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p className="field__error" id={id} role="alert">
      {message}
    </p>
  );
}
