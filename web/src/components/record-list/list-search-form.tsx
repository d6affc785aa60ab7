// The kit's filter form for a log screen: one search box and the choice filters the screen
// declares. It edits a copy; "Search" writes the URL (the list follows it), "Clear filters"
// empties it. Screens with filters of another shape bring their own form (Cases Logged).
import { Search, X } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import styles from './record-list.module.css';

export interface ChoiceFilter<F extends string = string> {
  /** The field it matches (and its name in the URL). */
  field: F;
  label: string;
  options: readonly { value: string; label: string }[];
}

/** Words that must be in one of some fields (e.g. the responder's name or call sign). */
export interface TextFilter<F extends string = string> {
  /** Its name in the URL. */
  param: string;
  label: string;
  fields: readonly F[];
}

/** A date range over one field: `from` and `to` (days, both in) in the URL. */
export interface DateFilter<F extends string = string> {
  field: F;
  /** e.g. 'Reported'; the inputs read "<label> from" and "<label> to". */
  label: string;
}

export interface ListSearchValues {
  q: string;
  [field: string]: string;
}

export function ListSearchForm({
  label,
  searchLabel,
  filters,
  textFilters = [],
  dateFilter,
  values: initial,
  onSearch,
}: {
  /** The form's name for assistive technology, e.g. "Filter items". */
  label: string;
  searchLabel: string;
  filters: readonly ChoiceFilter[];
  textFilters?: readonly TextFilter[] | undefined;
  dateFilter?: DateFilter | undefined;
  values: ListSearchValues;
  onSearch: (values: ListSearchValues) => void;
}) {
  const id = useId();
  const [values, setValues] = useState(initial);
  const set = (field: string, value: string) => setValues((v) => ({ ...v, [field]: value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    onSearch({ ...values, q: values.q.trim() });
  }

  function clear() {
    const empty: ListSearchValues = { q: '' };
    for (const f of filters) empty[f.field] = '';
    for (const f of textFilters) empty[f.param] = '';
    if (dateFilter) Object.assign(empty, { from: '', to: '' });
    setValues(empty);
    onSearch(empty);
  }

  return (
    <form
      className={`card ${styles.form}`}
      role="search"
      aria-label={label}
      noValidate
      onSubmit={submit}
    >
      <div className={styles.formGrid}>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-q`}>
            {searchLabel}
          </label>
          <input
            id={`${id}-q`}
            className="input"
            type="search"
            autoComplete="off"
            maxLength={200}
            value={values.q}
            onChange={(e) => set('q', e.target.value)}
          />
        </div>
        {textFilters.map((f) => (
          <div className="field" key={f.param}>
            <label className="field__label" htmlFor={`${id}-${f.param}`}>
              {f.label}
            </label>
            <input
              id={`${id}-${f.param}`}
              className="input"
              type="text"
              autoComplete="off"
              maxLength={200}
              value={values[f.param] ?? ''}
              onChange={(e) => set(f.param, e.target.value)}
            />
          </div>
        ))}
        {dateFilter
          ? (['from', 'to'] as const).map((end) => (
              <div className="field" key={end}>
                <label className="field__label" htmlFor={`${id}-${end}`}>
                  {dateFilter.label} {end}
                </label>
                <input
                  id={`${id}-${end}`}
                  className="input"
                  type="date"
                  value={values[end] ?? ''}
                  onChange={(e) => set(end, e.target.value)}
                />
              </div>
            ))
          : null}
        {filters.map((f) => (
          <div className="field" key={f.field}>
            <label className="field__label" htmlFor={`${id}-${f.field}`}>
              {f.label}
            </label>
            <select
              id={`${id}-${f.field}`}
              className="input"
              value={values[f.field] ?? ''}
              onChange={(e) => set(f.field, e.target.value)}
            >
              <option value="">Any</option>
              {f.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
        ))}
      </div>
      <ListFormActions onClear={clear} />
    </form>
  );
}

/** A filter form's buttons: the screen's own first (e.g. "More filters"), Clear, Search. */
export function ListFormActions({
  onClear,
  children,
}: {
  onClear: () => void;
  children?: ReactNode;
}) {
  return (
    <div className={styles.formActions}>
      {children}
      <button type="button" className="button button--secondary" onClick={onClear}>
        <X aria-hidden="true" size={20} />
        Clear filters
      </button>
      <button type="submit" className={`button button--primary ${styles.formSubmit}`}>
        <Search aria-hidden="true" size={20} />
        Search
      </button>
    </div>
  );
}
