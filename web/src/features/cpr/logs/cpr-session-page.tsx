// /cpr-logs/{sessionId}: one session's summary and merged timeline (every device's events in
// time order, with their authors), from the device. An open session can be joined from here
// (a scribe beside the team leader); any session can be printed. Views and prints are audited.
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import type { CprEventLike } from '@rescuelog/sync-protocol/cpr/cpr-timeline';
import { AlertTriangle } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { StatusPage } from '@/components/ui/status-page';
import { useUser } from '@/lib/auth';
import { CprSummaryView } from '../components/cpr-summary-view';
import { authorOf, CprTimelineList } from '../components/cpr-timeline-list';
import { useServiceSettings } from '@/lib/service-settings';
import { readStoredSettings } from '@/lib/stored-settings';
import { recordCprAccess } from '../data/cpr-writes';
import {
  useCprEvents,
  useCprSessionBySessionId,
  type LocalCprSession,
} from '../data/use-cpr-session';
import styles from '../cpr.module.css';

export function CprSessionPage({ sessionId }: { sessionId: string }) {
  const lookup = useCprSessionBySessionId(sessionId);
  if (lookup.state === 'loading')
    return (
      <main className="page-center" aria-busy="true">
        <Spinner label="Opening the CPR session" />
      </main>
    );
  if (lookup.state !== 'ready')
    return (
      <StatusPage
        icon={<AlertTriangle size={40} />}
        title={`CPR session ${sessionId} is not on this device`}
        tone="warning"
        actions={
          <Link to="/cpr-logs" className="button button--primary button--block">
            Back to CPR Logs
          </Link>
        }
      >
        <p>
          {lookup.state === 'unreadable'
            ? `It could not be read: ${lookup.message}`
            : 'It has not reached this device, or you may not see it.'}
        </p>
      </StatusPage>
    );
  return <SessionRecord session={lookup.record as LocalCprSession} />;
}

function SessionRecord({ session }: { session: LocalCprSession }) {
  const { data: user } = useUser();
  const rows = useCprEvents(session.id);
  const events = useMemo<CprEventLike[]>(
    () =>
      (rows ?? []).map((e) => ({
        id: e.id,
        type: e.type ?? 'note',
        at: e.at ?? session.startTime ?? '',
        details: (e.details ?? {}) as Record<string, unknown>,
        voidsEventId: e.voidsEventId ?? null,
        userId: e.userId ?? 0,
      })),
    [rows, session.startTime],
  );
  // One audit entry per opening of the record.
  const viewed = useRef(false);
  useEffect(() => {
    if (viewed.current) return;
    viewed.current = true;
    void recordCprAccess(session.id, 'view', 'cpr-logs').catch(() => undefined);
  }, [session.id]);
  const { data: settings } = useServiceSettings();
  const [pdfState, setPdfState] = useState<'idle' | 'working' | string>('idle');
  const downloadPdf = async () => {
    setPdfState('working');
    try {
      const [{ reportPdfBlob, reportFileName }, { downloadBlob }, { cprReport }] =
        await Promise.all([
          import('@/lib/pdf/report-pdf'),
          import('@/lib/download'),
          import('./cpr-report'),
        ]);
      const org = settings ?? readStoredSettings();
      const blob = await reportPdfBlob(
        cprReport(session, events, (e) => authorOf(e, user?.id)),
        { organisation: org?.organisationName ?? null, logoUrl: org?.organisationLogoUrl ?? null },
      );
      downloadBlob(reportFileName('cpr', session.sessionId ?? 'session'), blob);
      void recordCprAccess(session.id, 'pdf').catch(() => undefined);
      setPdfState('idle');
    } catch (error) {
      setPdfState(
        `The PDF could not be made: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  };
  const open = session.status !== 'completed';
  const canJoin =
    open && user
      ? hasPermission(user, 'cprLogger', 'edit') ||
        (session.userId === user.id && hasPermission(user, 'cprLogger', 'create'))
      : false;
  return (
    <div className="page">
      <PageHeader
        title={`CPR session ${session.sessionId ?? ''}`}
        back={{ to: '/cpr-logs', label: 'Back to CPR Logs' }}
      />
      <main className={styles.main}>
        <section className={styles.card} aria-labelledby="cpr-summary-title">
          <h2 id="cpr-summary-title" className={styles.sectionTitle}>
            Summary
          </h2>
          <p className={styles.muted}>
            Started {formatDateTime(session.startTime)}
            {session.endTime ? ` · ended ${formatDateTime(session.endTime)}` : ' · in progress'}
            {session.incidentLocation ? ` · ${session.incidentLocation}` : ''}
            {session.patientAge ? ` · patient age ${session.patientAge}` : ''}
          </p>
          <CprSummaryView session={session} events={events} />
          <div className={styles.buttons}>
            {canJoin ? (
              <Link
                to={`/cpr-logger/${session.sessionId ?? ''}`}
                className="button button--primary"
              >
                {session.userId === user?.id ? 'Back to the logger' : 'Join this session'}
              </Link>
            ) : null}
            <button
              type="button"
              className="button"
              onClick={() => {
                void recordCprAccess(session.id, 'print').catch(() => undefined);
                window.print();
              }}
            >
              Print
            </button>
            <button
              type="button"
              className="button"
              disabled={pdfState === 'working'}
              onClick={() => void downloadPdf()}
            >
              {pdfState === 'working' ? 'Making the PDF…' : 'Download PDF'}
            </button>
          </div>
          {pdfState !== 'idle' && pdfState !== 'working' ? (
            <p role="alert" className={styles.muted}>
              {pdfState}
            </p>
          ) : null}
        </section>
        <section className={styles.card} aria-labelledby="cpr-timeline-title">
          <h2 id="cpr-timeline-title" className={styles.sectionTitle}>
            Timeline
          </h2>
          <CprTimelineList
            startTime={session.startTime ?? ''}
            events={events}
            currentUserId={user?.id}
          />
        </section>
      </main>
    </div>
  );
}
