// The incident report screens (issue 41): /incident-reports (pick a type, recent reports),
// /incident-reports/new/{type} (a new report, made on the device at once), and
// /incident-reports/report/{id} (the report: its form while in progress, completion, then
// read-only with addenda; PDF through the one PDF module).
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import {
  INCIDENT_REPORT_TYPES,
  INCIDENT_REPORT_TYPE_LABELS,
  incidentTypeLabel,
  isIncidentReportType,
} from '@rescuelog/sync-protocol/incidents/incident-types';
import { formatRelativeTime } from '@rescuelog/sync-protocol/time';
import { AlertTriangle, FileWarning, List, Lock } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { StatusPage } from '@/components/ui/status-page';
import { useUser } from '@/lib/auth';
import { useLocalList } from '@/lib/sync/use-local-records';
import { useSyncSession } from '@/lib/sync/use-sync';
import { localDatabaseAvailable } from '@/lib/sync/sync-session';
import { createIncidentReport, type LocalReport } from './report-writes';
import { PRIORITY_LABELS } from './report-form';
import styles from './incident-reports.module.css';

export function reportPath(id: string): string {
  return `/incident-reports/report/${id}`;
}

function HomeLink() {
  return (
    <Link to="/" className="button button--primary button--block">
      Back to Home
    </Link>
  );
}

export function StatusPill({ status }: { status: string | undefined }) {
  const done = status === 'completed';
  return (
    <span className={`${styles.pill} ${done ? styles.pillDone : ''}`}>
      {done ? 'Completed' : 'In Progress'}
    </span>
  );
}

export function ReportSummary({ report }: { report: LocalReport }) {
  return (
    <span className={styles.summary}>
      <span className={styles.summaryTop}>
        <strong>{report.title?.trim() || incidentTypeLabel(report.incidentType)}</strong>
        <StatusPill status={report.status} />
      </span>
      <span className={styles.muted}>
        {report.incidentId} · {incidentTypeLabel(report.incidentType)} · Priority{' '}
        {report.priority ? PRIORITY_LABELS[report.priority] : 'Normal'} ·{' '}
        {formatRelativeTime(report.createdAt)}
      </span>
      {report.responderName ? <span className={styles.muted}>{report.responderName}</span> : null}
    </span>
  );
}

function TypeTiles() {
  return (
    <ul className={styles.tiles} aria-label="Report types">
      {INCIDENT_REPORT_TYPES.map((type) => (
        <li key={type}>
          <Link className={styles.tile} to={`/incident-reports/new/${type}`}>
            {INCIDENT_REPORT_TYPE_LABELS[type]}
          </Link>
        </li>
      ))}
    </ul>
  );
}

function RecentReports() {
  const list = useLocalList('incidentReport', { sortBy: 'createdAt', direction: 'desc', limit: 5 });
  if (list === undefined) return <Spinner label="Loading recent reports" />;
  if (list.records.length === 0)
    return <p className={styles.muted}>No incident reports on this device yet.</p>;
  return (
    <ul className={styles.recent}>
      {list.records.map((r) => (
        <li key={r.id}>
          <Link className={styles.recentLink} to={reportPath(r.id)}>
            <ReportSummary report={r} />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** /incident-reports */
export function IncidentReportsHome() {
  const { data: user } = useUser();
  const canCreate = user ? hasPermission(user, 'incidentReports', 'create') : false;
  return (
    <>
      <PageHeader title="Incident Reports" back={{ to: '/', label: 'Dashboard' }} />
      <main className={`page ${styles.page}`}>
        {canCreate ? (
          <section className="card" aria-labelledby="new-report-heading">
            <h2 id="new-report-heading" className={styles.heading}>
              Start a report
            </h2>
            <p className={styles.muted}>Pick the kind of operation. It works without signal.</p>
            <TypeTiles />
          </section>
        ) : (
          <p className={styles.muted}>
            Your account cannot start incident reports. Ask your administrator if you need to.
          </p>
        )}
        <section className="card" aria-labelledby="recent-reports-heading">
          <div className={styles.sectionTop}>
            <h2 id="recent-reports-heading" className={styles.heading}>
              Recent reports
            </h2>
            <Link to="/incident-reports/list" className="button">
              <List size={20} aria-hidden="true" /> All reports
            </Link>
          </div>
          <RecentReports />
        </section>
      </main>
    </>
  );
}

/** /incident-reports/new/{type}: makes the report on the device, then shows it. */
export function NewIncidentReport() {
  const { type } = useParams();
  const { data: user } = useUser();
  const session = useSyncSession();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const started = useRef(false);
  const known = isIncidentReportType(type);
  const canCreate = user ? hasPermission(user, 'incidentReports', 'create') : false;

  useEffect(() => {
    if (!known || !user || !canCreate || !session || started.current) return;
    started.current = true;
    let live = true;
    createIncidentReport(type, { fullName: user.fullName, callSign: user.callSign ?? null }).then(
      (id) => {
        if (live) void navigate(reportPath(id), { replace: true });
      },
      (error: unknown) => {
        if (live) setFailure(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      live = false;
    };
  }, [known, type, user, canCreate, session, navigate]);

  if (!known)
    return (
      <StatusPage
        icon={<FileWarning size={40} />}
        title="Unknown report type"
        tone="warning"
        actions={<HomeLink />}
      >
        <p>“{type}” is not a type of incident report. Pick one of these to start a report:</p>
        <TypeTiles />
      </StatusPage>
    );
  if (user && !canCreate)
    return (
      <StatusPage
        icon={<Lock size={40} />}
        title="You cannot create incident reports"
        tone="warning"
        actions={<HomeLink />}
      >
        <p>Your account does not have permission to start an incident report.</p>
      </StatusPage>
    );
  if (failure)
    return (
      <StatusPage
        icon={<AlertTriangle size={40} />}
        title="Could not start the report"
        tone="danger"
        actions={<HomeLink />}
      >
        <p>{failure}</p>
      </StatusPage>
    );
  if (!localDatabaseAvailable())
    return (
      <StatusPage
        icon={<AlertTriangle size={40} />}
        title="This browser keeps no data on the device"
        tone="warning"
        actions={<HomeLink />}
      >
        <p>
          Incident reports are written on the device first. Leave private browsing and try again.
        </p>
      </StatusPage>
    );
  return <Spinner label={`Starting a ${incidentTypeLabel(type).toLowerCase()} report`} />;
}
