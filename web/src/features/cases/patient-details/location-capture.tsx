// Incident coordinates: one big "Use my location" (device GPS, works offline, shows how
// accurate the fix is) or typed decimal degrees (e.g. read off another app or a km marker
// board). Both land in incidentLatitude / incidentLongitude.
import type { CaseFields } from '@rescuelog/sync-protocol/cases/case-schema';
import { Crosshair, MapPin } from 'lucide-react';
import { useState } from 'react';
import { useAutosaveDraft } from '@/components/record-form/use-autosave-draft';
import { caseFieldId, useCaseForm } from '../components/case-form';
import { LOCATE_FAILURE_MESSAGES, LOW_ACCURACY_METRES, useGeolocation } from '@/lib/geolocation';
import { formStyles } from '@/components/record-form/form-styles';
import layout from '../components/case-layout.module.css';
import { Callout } from '@/components/ui/callout';
import styles from './patient-details.module.css';

type CoordinateField = 'incidentLatitude' | 'incidentLongitude';

const RANGES: Record<CoordinateField, { min: number; max: number; message: string }> = {
  incidentLatitude: { min: -90, max: 90, message: 'Latitude must be between -90 and 90' },
  incidentLongitude: { min: -180, max: 180, message: 'Longitude must be between -180 and 180' },
};

/** Decimal degrees as typed: '-33.9249', '−33,9249' (phone keyboards), ' 18.42 '. */
export function parseCoordinate(text: string): number | null {
  const cleaned = text
    .trim()
    .replace(/[\u2212\u2013]/g, '-')
    .replace(',', '.');
  if (!/^[-+]?\d+(\.\d+)?$/.test(cleaned)) return null;
  return Number(cleaned);
}

function CoordinateInput({ field, label }: { field: CoordinateField; label: string }) {
  const { record, readOnly, save } = useCaseForm();
  const raw = record[field];
  const stored = typeof raw === 'number' ? String(raw) : '';
  const range = RANGES[field];
  const { draft, change, flush, error } = useAutosaveDraft(stored, async (text) => {
    if (text.trim() === '') return (await save({ [field]: null } as CaseFields))[field];
    const n = parseCoordinate(text);
    if (n === null)
      return `${label}: enter decimal degrees, e.g. ${field === 'incidentLatitude' ? '-33.92487' : '18.42406'}`;
    if (n < range.min || n > range.max) return range.message;
    return (await save({ [field]: n } as CaseFields))[field];
  });
  const id = caseFieldId(field);
  return (
    <div className={formStyles.field}>
      <label className={formStyles.label} htmlFor={id}>
        {label}
      </label>
      <input
        id={id}
        className={`input ${formStyles.textInput}`}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={draft}
        readOnly={readOnly}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => change(e.target.value)}
        onBlur={() => void flush()}
      />
      {error ? (
        <p className={formStyles.error} id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function LocationCapture() {
  const { record, readOnly, save } = useCaseForm();
  const [saveProblem, setSaveProblem] = useState<string | null>(null);
  const { state, locate, cancel } = useGeolocation((position) => {
    void save({ incidentLatitude: position.latitude, incidentLongitude: position.longitude }).then(
      (problems) => {
        const message = problems.incidentLatitude ?? problems.incidentLongitude;
        setSaveProblem(message ?? null);
      },
    );
  });
  const latitude = typeof record.incidentLatitude === 'number' ? record.incidentLatitude : null;
  const longitude = typeof record.incidentLongitude === 'number' ? record.incidentLongitude : null;
  const hasPosition = latitude !== null && longitude !== null;
  const locating = state.status === 'locating';

  return (
    <div
      className={`${formStyles.wide} ${layout.panel}`}
      role="group"
      aria-labelledby="location-capture-title"
    >
      <p className={formStyles.label} id="location-capture-title">
        GPS position
      </p>
      <div className={styles.captureActions}>
        <button
          type="button"
          className={`button button--primary ${styles.locate}`}
          disabled={readOnly || locating}
          aria-describedby="location-capture-hint"
          aria-busy={locating || undefined}
          onClick={() => {
            setSaveProblem(null);
            locate();
          }}
        >
          {locating ? (
            <span className={`spinner__circle ${styles.spinner}`} aria-hidden="true" />
          ) : (
            <Crosshair size={22} aria-hidden="true" />
          )}
          {locating
            ? 'Finding your position…'
            : hasPosition
              ? 'Update with my location'
              : 'Use my location'}
        </button>
        {locating ? (
          <button type="button" className="button" onClick={cancel}>
            Cancel
          </button>
        ) : null}
      </div>
      <p className={formStyles.hint} id="location-capture-hint">
        Uses the device&apos;s GPS, which works without signal. Stand in the open for the best fix.
      </p>

      <div aria-live="polite">
        {state.status === 'found' ? (
          <Callout
            as="p"
            tone={state.accuracy > LOW_ACCURACY_METRES ? 'warning' : 'success'}
            compact
            className={styles.captureNote}
          >
            <MapPin size={18} aria-hidden="true" /> Position captured, accurate to about{' '}
            {Math.round(state.accuracy)} m
            {state.accuracy > LOW_ACCURACY_METRES
              ? '. That is not very precise: try again in the open, or type the coordinates.'
              : '.'}
          </Callout>
        ) : null}
      </div>
      {state.status === 'failed' ? (
        <Callout as="p" tone="danger" compact className={styles.captureNote} role="alert">
          {LOCATE_FAILURE_MESSAGES[state.reason]}
        </Callout>
      ) : null}
      {saveProblem ? (
        <Callout as="p" tone="danger" compact className={styles.captureNote} role="alert">
          {saveProblem}
        </Callout>
      ) : null}

      <div className={styles.coords}>
        <CoordinateInput field="incidentLatitude" label="Latitude" />
        <CoordinateInput field="incidentLongitude" label="Longitude" />
      </div>
      <p className={formStyles.hint}>
        Decimal degrees. South of the equator is negative (Cape Town is about -33.92, 18.42).
        {latitude !== null && latitude > 0 ? (
          <strong> This latitude is north of the equator: check the minus sign.</strong>
        ) : null}
      </p>
      {hasPosition && !readOnly ? (
        <button
          type="button"
          className={`button ${styles.clear}`}
          onClick={() => {
            cancel();
            void save({ incidentLatitude: null, incidentLongitude: null });
          }}
        >
          Clear position
        </button>
      ) : null}
    </div>
  );
}
