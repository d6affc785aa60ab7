// /multi-patient: incident command. Without an incident: declare one in one tap, or open one
// that is running. /multi-patient/{id}: that incident's command board. Works offline: the
// incident is made on the device and syncs later.
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { Lock, Siren } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { Callout } from '@/components/ui/callout';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { StatusPage } from '@/components/ui/status-page';
import { useUser } from '@/lib/auth';
import { useLocalList } from '@/lib/sync/use-local-records';
import { useOnline } from '@/lib/sync/use-sync';
import { CommandBoard } from './command-board';
import { declareIncident } from './mci-writes';
import { useIncidentBoard } from './use-incident-board';
import styles from './mci.module.css';

export function NoMciPermission({ what }: { what: string }) {
  return (
    <StatusPage
      icon={<Lock size={40} />}
      title="No access"
      tone="warning"
      actions={
        <Link to="/" className="button button--primary button--block">
          Back to Home
        </Link>
      }
    >
      <p>You do not have permission to {what}. Ask your administrator for access.</p>
    </StatusPage>
  );
}

function OfflineNote() {
  const online = useOnline();
  if (online) return null;
  return (
    <Callout tone="info" as="p">
      Offline: everything is saved on this device and syncs when the connection is back.
    </Callout>
  );
}

function RunningIncidents({ canDeclare }: { canDeclare: boolean }) {
  const navigate = useNavigate();
  const [problem, setProblem] = useState<string | null>(null);
  const list = useLocalList('mciIncident', { sortBy: 'startedAt', direction: 'desc' });
  const running = list?.records.filter((i) => i.status !== 'completed') ?? [];
  return (
    <>
      {canDeclare ? (
        <button
          type="button"
          className={`button button--danger button--block ${styles.declare}`}
          onClick={() =>
            declareIncident().then(
              ({ id }) => navigate(`/multi-patient/${id}`),
              (error: unknown) =>
                setProblem(error instanceof Error ? error.message : String(error)),
            )
          }
        >
          <Siren aria-hidden="true" size={28} /> Declare a mass-casualty incident
        </button>
      ) : null}
      {problem ? (
        <p className="field__error" role="alert">
          {problem}
        </p>
      ) : null}
      <h2 className="section-title">Running incidents</h2>
      {list === undefined ? (
        <Spinner label="Loading incidents" />
      ) : running.length === 0 ? (
        <p className={styles.empty}>No incident is running on this device.</p>
      ) : (
        <ul className={styles.incidentList}>
          {running.map((i) => (
            <li key={i.id}>
              <Link to={`/multi-patient/${i.id}`} className={styles.incidentLink}>
                <strong>{i.incidentId}</strong> {i.incidentType ?? 'Type not given'}
                <span className={styles.muted}> · started {formatDateTime(i.startedAt)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

function Board({
  id,
  canTriage,
  canEdit,
  userId,
}: {
  id: string;
  canTriage: boolean;
  canEdit: boolean;
  userId: number;
}) {
  const board = useIncidentBoard(id);
  if (board === undefined) return <Spinner label="Loading the incident" />;
  if (board === null)
    return (
      <Callout tone="warning" as="p">
        This incident is not stored on this device. If it was declared on another device, it appears
        here after that device has synced and this one has pulled the changes.
      </Callout>
    );
  // The METHANE report and the close are the incident's owner's, or whoever may edit.
  const canClose = canEdit || (canTriage && board.incident.userId === userId);
  return <CommandBoard board={board} canTriage={canTriage} canClose={canClose} />;
}

export function MultiPatientPage() {
  const { incidentId } = useParams();
  const { data: user } = useUser();
  if (!user) return <Spinner label="Loading" />;
  const canRead = hasPermission(user, 'multiPatient', 'read');
  const canCreate = hasPermission(user, 'multiPatient', 'create');
  if (!canRead && !canCreate) return <NoMciPermission what="command multi-patient incidents" />;
  return (
    <>
      <PageHeader
        title="Multi-Patient Incident Command"
        back={incidentId ? { to: '/multi-patient', label: 'All running incidents' } : undefined}
      />
      <main className={`page ${styles.page}`}>
        <OfflineNote />
        {incidentId ? (
          <Board
            key={incidentId}
            id={incidentId}
            canTriage={canCreate}
            canEdit={hasPermission(user, 'multiPatient', 'edit')}
            userId={user.id}
          />
        ) : (
          <RunningIncidents canDeclare={canCreate} />
        )}
      </main>
    </>
  );
}
