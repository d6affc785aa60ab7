// The METHANE report of an incident: its fields as a form (each saves as the responder goes,
// through the kit), and the report as text to read aloud on the radio or copy into a message.
// Number of casualties is counted from the casualty rows beside the estimate typed here.
import { mciIncidentRecord } from '@rescuelog/sync-protocol/mci/mci-incident';
import {
  methaneLines,
  methaneText,
  type IncidentCounts,
} from '@rescuelog/sync-protocol/mci/triage';
import { Copy, Volume2 } from 'lucide-react';
import { useState } from 'react';
import { formKit } from '@/components/record-form/form-kit';
import type { IncidentRecord } from './use-incident-board';
import { speak } from './speech';
import styles from './mci.module.css';

const Incident = formKit(mciIncidentRecord);

export function methaneOf(incident: IncidentRecord) {
  return {
    majorIncident: incident.majorIncident ?? null,
    location: incident.location ?? null,
    latitude: incident.latitude ?? null,
    longitude: incident.longitude ?? null,
    incidentType: incident.incidentType ?? null,
    hazards: incident.hazards ?? null,
    access: incident.access ?? null,
    casualtyEstimate: incident.casualtyEstimate ?? null,
    emergencyServices: incident.emergencyServices ?? null,
  };
}

/** The report as text, with Read aloud and Copy. */
export function MethaneReport({
  incident,
  counts,
}: {
  incident: IncidentRecord;
  counts: IncidentCounts;
}) {
  const [copied, setCopied] = useState<string | null>(null);
  const text = methaneText(methaneOf(incident), counts);
  const copy = () => {
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) {
      setCopied('Copying is not available here: select the text instead.');
      return;
    }
    clipboard.writeText(text).then(
      () => setCopied('METHANE report copied.'),
      () => setCopied('Copying is not available here: select the text instead.'),
    );
  };
  return (
    <section className={styles.methaneReport} aria-label="METHANE report">
      <pre className={styles.methaneText}>
        {methaneLines(methaneOf(incident), counts).join('\n')}
      </pre>
      <div className={styles.actions}>
        <button type="button" className="button button--secondary" onClick={() => speak(text)}>
          <Volume2 aria-hidden="true" size={20} /> Read aloud
        </button>
        <button type="button" className="button button--secondary" onClick={copy}>
          <Copy aria-hidden="true" size={20} /> Copy
        </button>
      </div>
      <p role="status" className={styles.status}>
        {copied}
      </p>
    </section>
  );
}

/** The METHANE fields as a form (read-only once the incident is closed). */
export function MethaneForm({ incident }: { incident: IncidentRecord }) {
  return (
    <Incident.Form record={incident}>
      <Incident.YesNo field="majorIncident" label="M: Major incident" yes="Declared" no="Standby" />
      <Incident.TextField field="location" label="E: Exact location" />
      <Incident.TextField
        field="incidentType"
        label="T: Type of incident"
        list="mci-incident-types"
      />
      <datalist id="mci-incident-types">
        {MCI_INCIDENT_TYPES.map((t) => (
          <option key={t} value={t} />
        ))}
      </datalist>
      <Incident.TextField field="hazards" label="H: Hazards" multiline rows={2} />
      <Incident.TextField field="access" label="A: Access" multiline rows={2} />
      <Incident.NumberField
        field="casualtyEstimate"
        label="N: Number of casualties (estimate)"
        min={0}
        max={100000}
        hint="The board counts the casualties triaged; this is the estimate on arrival."
      />
      <Incident.TextField
        field="emergencyServices"
        label="E: Emergency services present and required"
        multiline
        rows={2}
      />
    </Incident.Form>
  );
}

export const MCI_INCIDENT_TYPES = [
  'Road traffic collision',
  'Bus crash',
  'Train incident',
  'Building collapse',
  'Fire',
  'Explosion',
  'Hazardous materials',
  'Crowd crush',
  'Flood',
  'Other',
];
