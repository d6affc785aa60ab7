// The incident report's form: the common fields, GPS, and the type's own fields (from its
// schema's field list, incident-types.ts), each saved as the user goes through the form kit.
// A completed report is read-only (the kit's lock); corrections are addenda.
import { incidentReportRecord } from '@rescuelog/sync-protocol/incidents/incident-report';
import {
  INCIDENT_TYPE_FIELDS,
  incidentTypeLabel,
  isIncidentReportType,
  typeDataProblems,
  type TypeField,
} from '@rescuelog/sync-protocol/incidents/incident-types';
import { REPORT_PRIORITIES } from '@rescuelog/sync-protocol/cases/clinical';
import { Crosshair } from 'lucide-react';
import { useCallback } from 'react';
import { formKit } from '@/components/record-form/form-kit';
import {
  ChoiceField,
  MultiSelectField,
  NumberField,
  TextField,
  YesNoField,
} from '@/components/record-form/controls';
import { NestedFields } from '@/components/record-form/nested-fields';
import { Callout } from '@/components/ui/callout';
import { LOCATE_FAILURE_MESSAGES, useGeolocation } from '@/lib/geolocation';
import styles from './incident-reports.module.css';

export const Report = formKit(incidentReportRecord);

export const PRIORITY_LABELS: Record<(typeof REPORT_PRIORITIES)[number], string> = {
  low: 'Low',
  normal: 'Normal',
  high: 'High',
  critical: 'Critical',
};
const PRIORITY_OPTIONS = REPORT_PRIORITIES.map((p) => ({ value: p, label: PRIORITY_LABELS[p] }));

function TypeFieldControl({ spec }: { spec: TypeField }) {
  const common = { field: spec.key, label: spec.label, required: spec.required, hint: spec.hint };
  switch (spec.input) {
    case 'text':
      return <TextField {...common} />;
    case 'longText':
      return <TextField {...common} multiline />;
    case 'count':
      return (
        <NumberField
          {...common}
          min={0}
          max={10_000_000}
          {...(spec.unit ? { unit: spec.unit } : {})}
        />
      );
    case 'decimal':
      return (
        <NumberField
          {...common}
          min={0}
          max={5000}
          integer={false}
          {...(spec.unit ? { unit: spec.unit } : {})}
        />
      );
    case 'yesNo':
      return <YesNoField {...common} />;
    case 'choice':
      return (
        <ChoiceField {...common} options={spec.options.map((o) => ({ value: o, label: o }))} />
      );
    case 'multi':
      return (
        <MultiSelectField
          field={spec.key}
          label={spec.label}
          options={spec.options.map((o) => ({ value: o, label: o }))}
        />
      );
  }
}

/** The type's own fields, saved into typeSpecificData and checked by the type's schema. */
export function TypeFields({ type }: { type: string | undefined }) {
  const validate = useCallback(
    (value: Record<string, unknown>) =>
      Object.fromEntries(typeDataProblems(type, value).map((p) => [p.field, p.message])),
    [type],
  );
  if (!isIncidentReportType(type))
    return (
      <Callout tone="danger" as="p">
        This report has an unknown type ({String(type)}), so its own fields cannot be shown.
      </Callout>
    );
  return (
    <Report.Section title={`${incidentTypeLabel(type)} details`} id="type-details">
      <NestedFields field="typeSpecificData" validate={validate}>
        {INCIDENT_TYPE_FIELDS[type].map((spec) => (
          <TypeFieldControl key={spec.key} spec={spec} />
        ))}
      </NestedFields>
    </Report.Section>
  );
}

function GpsButton() {
  const { readOnly, save } = Report.useForm();
  const { state, locate, cancel } = useGeolocation((p) => {
    void save({ latitude: p.latitude, longitude: p.longitude });
  });
  const locating = state.status === 'locating';
  return (
    <div className={styles.gps}>
      <button
        type="button"
        className="button button--primary"
        disabled={readOnly || locating}
        aria-busy={locating || undefined}
        onClick={locate}
      >
        <Crosshair size={22} aria-hidden="true" />
        {locating ? 'Finding your position…' : 'Use my location (GPS)'}
      </button>
      {locating ? (
        <button type="button" className="button" onClick={cancel}>
          Cancel
        </button>
      ) : null}
      <div aria-live="polite">
        {state.status === 'found' ? (
          <p className={styles.muted}>
            Position captured, accurate to about {Math.round(state.accuracy)} m.
          </p>
        ) : null}
      </div>
      {state.status === 'failed' ? (
        <Callout as="p" tone="danger" compact role="alert">
          {LOCATE_FAILURE_MESSAGES[state.reason]}
        </Callout>
      ) : null}
    </div>
  );
}

/** Every field of the report; the type's own fields after the common ones. */
export function ReportFields({ type }: { type: string | undefined }) {
  return (
    <>
      <Report.Section title="Report" id="report-details">
        <Report.TextField field="title" label="Title" required />
        <Report.TextField field="description" label="Description" multiline required />
        <ChoiceField field="priority" label="Priority" options={PRIORITY_OPTIONS} columns={4} />
      </Report.Section>
      <Report.Section title="Where and when" id="report-where">
        <Report.TextField
          field="location"
          label="Location"
          required
          hint="An address, landmark or km marker; or use GPS."
        />
        <GpsButton />
        <Report.NumberField field="latitude" label="Latitude" min={-90} max={90} integer={false} />
        <Report.NumberField
          field="longitude"
          label="Longitude"
          min={-180}
          max={180}
          integer={false}
        />
        <Report.TimeField field="incidentStartTime" label="Start time" required />
        <Report.TimeField field="incidentEndTime" label="End time" required />
      </Report.Section>
      <Report.Section title="Responder" id="report-responder">
        <Report.TextField field="responderName" label="Responder" required autoComplete="name" />
        <Report.TextField field="responderCallSign" label="Call sign" />
      </Report.Section>
      <TypeFields type={type} />
      <Report.Section title="Additional notes" id="report-notes">
        <Report.TextField field="additionalNotes" label="Additional notes" multiline />
      </Report.Section>
    </>
  );
}
