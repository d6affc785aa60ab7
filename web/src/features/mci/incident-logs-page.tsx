// /multi-patient-logs: past and running incidents on the list scaffold (newest first, search
// and filters, over what this device holds, online and offline). /multi-patient-logs/{id}:
// one incident's record: its board as it ended, the METHANE report, every casualty with its
// triage history and linked case. Seeing it is recorded in the audit log (views).
import { mciIncidentRecord } from '@rescuelog/sync-protocol/mci/mci-incident';
import { TRIAGE_SCALE_LABELS } from '@rescuelog/sync-protocol/mci/triage';
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { FileDown, Printer } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { KindList } from '@/components/record-list/kind-list';
import { Callout } from '@/components/ui/callout';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/lib/auth';
import { downloadBlob } from '@/lib/download';
import { useServiceSettings } from '@/lib/service-settings';
import { newRecordId } from '@/lib/records/record-writes';
import { requireSyncSession, saveChange } from '@/lib/sync/sync-session';
import { BoardCounts, CasualtyList, IncidentClock, Responders, elapsed } from './command-board';
import { TriageHistory } from './casualty-panel';
import { MCI_INCIDENT_TYPES, MethaneReport } from './methane-panel';
import { NoMciPermission } from './multi-patient-page';
import { sortBoard, useIncidentBoard } from './use-incident-board';
import styles from './mci.module.css';

const NOUN = { one: 'incident', many: 'incidents' };
const FILTERS = [
  {
    field: 'status' as const,
    label: 'Status',
    options: [
      { value: 'in_progress', label: 'Running' },
      { value: 'completed', label: 'Closed' },
    ],
  },
  {
    field: 'incidentType' as const,
    label: 'Type',
    options: MCI_INCIDENT_TYPES.map((t) => ({ value: t, label: t })),
  },
  {
    field: 'triageScale' as const,
    label: 'Triage scale',
    options: [
      { value: 'START', label: TRIAGE_SCALE_LABELS.START },
      { value: 'SATS', label: TRIAGE_SCALE_LABELS.SATS },
    ],
  },
];

export function IncidentLogsPage() {
  const { data: user } = useUser();
  if (!user) return <Spinner label="Loading" />;
  if (!hasPermission(user, 'multiPatientLogs', 'view'))
    return <NoMciPermission what="see multi-patient logs" />;
  return (
    <>
      <PageHeader title="Multi-Patient Logs" />
      <main className={`page ${styles.page}`}>
        <KindList
          kind={mciIncidentRecord}
          noun={NOUN}
          searchFields={['incidentId', 'incidentType', 'location', 'description']}
          filters={FILTERS}
          sortBy="startedAt"
          hrefOf={(i) => `/multi-patient-logs/${i.id}`}
          renderRow={(i) => (
            <span className={styles.logRow}>
              <strong>{i.incidentId}</strong> {i.incidentType ?? 'Type not given'}
              <span className={styles.muted}>
                {' '}
                · {formatDateTime(i.startedAt)} ·{' '}
                {i.status === 'completed'
                  ? `closed, ${elapsed(i.startedAt, i.endedAt, 0)}`
                  : 'running'}
              </span>
            </span>
          )}
          emptyHint="Incidents declared on this device or synced to it appear here."
        />
      </main>
    </>
  );
}

/** Records a view, print or PDF of an incident's record in the audit log (through the
 * outbox: offline access reaches the server too). */
function recordAccess(mciIncidentId: string, action: 'view' | 'print' | 'pdf'): void {
  const session = requireSyncSession();
  void saveChange({
    name: 'mciIncident.access',
    args: { id: newRecordId(), mciIncidentId, action },
    baseVersion: null,
    actorUserId: session.userId,
  }).catch(() => undefined);
}

/** Records one view of the incident's record (once per visit). */
function useAuditedView(id: string | undefined) {
  const done = useRef<string | null>(null);
  useEffect(() => {
    if (!id || done.current === id) return;
    done.current = id;
    recordAccess(id, 'view');
  }, [id]);
}

export function IncidentRecordPage() {
  const { incidentId } = useParams();
  const { data: user } = useUser();
  const board = useIncidentBoard(incidentId);
  useAuditedView(incidentId);
  const { data: settings } = useServiceSettings();
  const [pdfMessage, setPdfMessage] = useState<string | null>(null);
  if (!user) return <Spinner label="Loading" />;
  if (!hasPermission(user, 'multiPatientLogs', 'view'))
    return <NoMciPermission what="see multi-patient logs" />;
  return (
    <>
      <PageHeader
        title="Incident record"
        back={{ to: '/multi-patient-logs', label: 'Back to Multi-Patient Logs' }}
        actions={
          <button
            type="button"
            className="icon-button icon-button--on-dark"
            aria-label="Print"
            onClick={() => {
              if (incidentId) recordAccess(incidentId, 'print');
              window.print();
            }}
          >
            <Printer aria-hidden="true" size={24} />
          </button>
        }
      />
      <main className={`page ${styles.page}`}>
        {board === undefined ? (
          <Spinner label="Loading the incident" />
        ) : board === null ? (
          <Callout tone="warning" as="p">
            This incident is not stored on this device.
          </Callout>
        ) : (
          <>
            <h2 className={styles.incidentTitle}>
              Incident {board.incident.incidentId}
              {board.incident.incidentType ? `: ${board.incident.incidentType}` : ''}
            </h2>
            {board.incident.status !== 'completed' ? (
              <p>
                Running:{' '}
                <Link to={`/multi-patient/${board.incident.id}`}>open its command board</Link>.
              </p>
            ) : null}
            <IncidentClock board={board} />
            <button
              type="button"
              className="button button--secondary"
              onClick={() => {
                recordAccess(board.incident.id, 'pdf');
                import('./incident-pdf')
                  .then(async ({ incidentPdfBlob, incidentPdfFileName }) => {
                    const name = incidentPdfFileName(board.incident.incidentId);
                    const blob = await incidentPdfBlob(
                      board,
                      settings?.organisationName ?? null,
                      settings?.organisationLogoUrl ?? null,
                    );
                    downloadBlob(name, blob);
                    setPdfMessage(`Saved ${name}.`);
                  })
                  .catch((error: unknown) =>
                    setPdfMessage(
                      `The PDF could not be made: ${error instanceof Error ? error.message : String(error)}`,
                    ),
                  );
              }}
            >
              <FileDown aria-hidden="true" size={20} /> Save summary as PDF
            </button>
            <p role="status" className={styles.status}>
              {pdfMessage}
            </p>
            <BoardCounts board={board} />
            <h2 className="section-title">METHANE</h2>
            <MethaneReport incident={board.incident} counts={board.counts} />
            <h2 className="section-title">Casualties</h2>
            <CasualtyList board={board} />
            <h2 className="section-title">Triage history</h2>
            {sortBoard(board.rows, 'tag').map((row) => (
              <section key={row.casualty.id} aria-label={`Casualty ${row.tag}`}>
                <h3 className={styles.subTitle}>{row.tag}</h3>
                <TriageHistory row={row} scale={board.incident.triageScale ?? 'START'} />
              </section>
            ))}
            <Responders board={board} />
          </>
        )}
      </main>
    </>
  );
}
