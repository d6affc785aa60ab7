// /case-completed/{caseId}: the case as this device holds it (live: it follows every change,
// a pull, an addendum), or, for a case this device does not hold (opened from the server's
// case search), the server's copy, read-only and online only.
import { AlertTriangle, CloudOff, Home } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { StatusPage } from '@/components/ui/status-page';
import { HttpError, errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';
import { useOnline, useSyncSession } from '@/lib/sync/use-sync';
import { useCaseAddenda, useCaseVitalSigns, type LocalCase } from '../data/use-case';
import { fetchServerFhir, useServerCase } from './case-api';
import { CaseRecordView } from './case-record-view';
import styles from '../components/case-layout.module.css';

// The export code (FHIR builder, file saving) loads when someone exports, not with the screen.
async function download(fileName: string, blob: Blob): Promise<void> {
  const { downloadBlob } = await import('../export/fhir-export');
  downloadBlob(fileName, blob);
}

export function DeviceCase({ record }: { record: LocalCase & { caseId: string } }) {
  const vitals = useCaseVitalSigns(record.id);
  const addenda = useCaseAddenda(record.id);
  const session = useSyncSession();
  const { data: user } = useUser();
  const exportFhir = async () => {
    if (!session) throw new Error('This device has no local database open: sign in again.');
    const { exportCaseAsFhir } = await import('../export/fhir-export');
    // The signed-in responder is named when the case names none.
    const file = await exportCaseAsFhir(session.db, record.id, {
      responder: { name: user?.fullName ?? null, callSign: user?.callSign ?? null },
    });
    return { ...file, recorded: false };
  };
  return (
    <CaseRecordView
      record={record}
      vitals={vitals}
      addenda={addenda}
      source="device"
      download={download}
      exportFhir={exportFhir}
    />
  );
}

export function ServerCase({ caseId }: { caseId: string }) {
  const online = useOnline();
  const query = useServerCase(caseId, online);
  const caseLineId = useId();

  if (query.data) {
    const { case: record, vitalSigns, addenda } = query.data;
    return (
      <main className={styles.page}>
        <header className={styles.header} role="group" aria-labelledby={caseLineId}>
          <Link to="/" className={`button ${styles.home}`} aria-label="Dashboard">
            <Home size={22} aria-hidden="true" />
          </Link>
          <div className={styles.ids}>
            <h1 className={styles.title}>Case Completed</h1>
            <p className={styles.caseLine} id={caseLineId}>
              Case <span className={styles.caseNumber}>{record.caseId}</span>
              {record.patientName ? <span> · {record.patientName}</span> : null}
            </p>
          </div>
        </header>
        <div className={styles.body}>
          <CaseRecordView
            record={record}
            vitals={vitalSigns}
            addenda={addenda}
            source="server"
            download={download}
            exportFhir={async () => {
              const { fhirFileName } = await import('../export/fhir-export');
              return {
                fileName: fhirFileName(record.caseId),
                blob: await fetchServerFhir(record.caseId),
                recorded: true,
              };
            }}
          />
        </div>
      </main>
    );
  }
  if (!online) {
    return (
      <StatusPage
        icon={<CloudOff size={40} />}
        title="Case not on this device"
        tone="warning"
        actions={<HomeLink />}
      >
        <p>
          Case <strong className={styles.caseNumber}>{caseId || '(no number)'}</strong> is not
          stored on this device, and the device is offline. Connect to the internet to open it from
          the server.
        </p>
      </StatusPage>
    );
  }
  if (query.isError) {
    const status = query.error instanceof HttpError ? query.error.status : null;
    const title =
      status === 404
        ? 'Case not found'
        : status === 403
          ? 'No access to this case'
          : 'The case could not be loaded';
    return (
      <StatusPage
        icon={<AlertTriangle size={40} />}
        title={title}
        tone={status === 404 ? 'warning' : 'danger'}
        actions={<HomeLink />}
      >
        <p>
          Case <strong className={styles.caseNumber}>{caseId}</strong>: {errorMessage(query.error)}
        </p>
        {status !== 404 && status !== 403 ? (
          <button
            type="button"
            className="button button--secondary button--block"
            onClick={() => void query.refetch()}
          >
            Try again
          </button>
        ) : null}
      </StatusPage>
    );
  }
  return <PageSpinner />;
}

function HomeLink() {
  return (
    <Link to="/" className="button button--primary button--block">
      Back to Home
    </Link>
  );
}
