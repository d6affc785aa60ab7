// The frame of every case screen: which case (its number, big, to read over the radio),
// the steps (tap any to jump; capture is not linear on scene), whether the device still
// holds unsynced changes, a lock banner on completed cases, and Back / Next at the bottom.
// It also handles the states a case screen can be in before the form shows: loading, not
// on this device, unreadable, no local database.
import {
  CASE_STEPS,
  adjacentStep,
  stepPath,
  type CaseStepKey,
} from '@rescuelog/sync-protocol/cases/steps';
import { AlertTriangle, ArrowLeft, ArrowRight, CloudOff, Home, Lock } from 'lucide-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { RecordSyncMark } from '@/components/record-form/record-sync-mark';
import { RecordConflicts } from '@/components/record-form/record-conflicts';
import { RecordFormProvider, RecordSaveError } from '@/components/record-form/record-form-provider';
import { PageSpinner } from '@/components/ui/spinner';
import { AwaitFirstSync } from './await-first-sync';
import { StatusPage } from '@/components/ui/status-page';
import { discardCaseIfUntouched, recordCaseAccess } from '../data/case-writes';
import type { CaseLookup, LocalCase } from '../data/use-case';
import { useCaseForm } from './case-form';
import { Callout } from '@/components/ui/callout';
import styles from './case-layout.module.css';

interface CaseStepLayoutProps {
  step: CaseStepKey;
  lookup: CaseLookup;
  /** What to show for a case this device does not hold (the completed screen can fetch it). */
  missing?: (caseId: string) => ReactNode;
  children: (record: LocalCase & { caseId: string }) => ReactNode;
}

export function CaseStepLayout({ step, lookup, missing, children }: CaseStepLayoutProps) {
  switch (lookup.state) {
    case 'loading':
      return <PageSpinner />;
    case 'no-device-store':
      return (
        <StatusPage
          icon={<CloudOff size={40} />}
          title="Cases need this device's storage"
          tone="warning"
          actions={<HomeLink />}
        >
          <p>
            This browser is not keeping data on the device (private browsing, or storage is switched
            off), so cases cannot be captured here. Use the installed app or a normal browser
            window.
          </p>
        </StatusPage>
      );
    case 'missing':
      return (
        <AwaitFirstSync>
          {missing ? (
            missing(lookup.caseId)
          ) : (
            <StatusPage
              icon={<AlertTriangle size={40} />}
              title="Case not on this device"
              tone="warning"
              actions={<HomeLink />}
            >
              <p>
                Case <strong className={styles.caseNumber}>{lookup.caseId || '(no number)'}</strong>{' '}
                is not stored on this device. If it was started on another device, it appears here
                after that device has synced and this one has pulled the changes.
              </p>
            </StatusPage>
          )}
        </AwaitFirstSync>
      );
    case 'unreadable':
      return (
        <StatusPage
          icon={<AlertTriangle size={40} />}
          title="This case cannot be shown"
          tone="danger"
          actions={<HomeLink />}
        >
          <p>
            The copy of case <strong className={styles.caseNumber}>{lookup.caseId}</strong> on this
            device could not be read ({lookup.message}). Nothing has been deleted. Update the app,
            or report this to your administrator.
          </p>
        </StatusPage>
      );
    case 'ready':
      return (
        <RecordFormProvider kind="case" record={lookup.record}>
          <StepFrame step={step} record={lookup.record}>
            {children(lookup.record)}
          </StepFrame>
        </RecordFormProvider>
      );
  }
}

function HomeLink() {
  return (
    <Link to="/" className="button button--primary button--block">
      Back to Home
    </Link>
  );
}

/**
 * A completion problem links to `/<step>/<caseId>#field-<name>`: bring that field into view
 * and focus it (the first input of a fieldset), once the step has rendered.
 */
function useFocusFieldFromHash(): void {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash.startsWith('#field-')) return;
    const frame = requestAnimationFrame(() => {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (!target) return;
      target.scrollIntoView({ block: 'center' });
      const focusable = target.matches('input, textarea, select, button')
        ? target
        : target.querySelector<HTMLElement>('input, textarea, select, button');
      focusable?.focus({ preventScroll: true });
    });
    return () => cancelAnimationFrame(frame);
  }, [hash]);
}

function StepFrame({
  step,
  record,
  children,
}: {
  step: CaseStepKey;
  record: LocalCase & { caseId: string };
  children: ReactNode;
}) {
  const { readOnly } = useCaseForm();
  const current = CASE_STEPS.find((s) => s.key === step);
  const previous = adjacentStep(step, -1);
  const next = adjacentStep(step, 1);

  useEffect(() => {
    void recordCaseAccess(record.id, 'view', step).catch(() => undefined);
  }, [record.id, step]);
  // Leaving the case (not just changing step) with nothing written into it discards it: an
  // untouched New Case leaves nothing behind (issue 37). The URL has moved on by cleanup.
  // Anything typed or tapped on this screen keeps it, whatever the device has stored yet: a
  // field's last words are saved as the screen closes, after this check could read them.
  const touched = useRef(false);
  useEffect(
    () => () => {
      if (touched.current || window.location.pathname.endsWith(`/${record.caseId}`)) return;
      void discardCaseIfUntouched(record.id).catch(() => undefined);
    },
    [record.id, record.caseId],
  );
  useFocusFieldFromHash();
  const caseLineId = useId();

  return (
    <main className={styles.page}>
      <header className={styles.header} role="group" aria-labelledby={caseLineId}>
        <Link to="/" className={`button ${styles.home}`} aria-label="Dashboard">
          <Home size={22} aria-hidden="true" />
        </Link>
        <div className={styles.ids}>
          <h1 className={styles.title}>{current?.title ?? 'Case'}</h1>
          <p className={styles.caseLine} id={caseLineId}>
            Case <span className={styles.caseNumber}>{record.caseId}</span>
            {record.patientName ? <span> · {record.patientName}</span> : null}
          </p>
        </div>
        <RecordSyncMark recordId={record.id} showSynced />
      </header>
      <RecordConflicts kind="case" recordId={record.id} />

      <nav className={styles.steps} aria-label="Case steps">
        <ol>
          {CASE_STEPS.map((s, index) => (
            <li key={s.key}>
              <Link
                to={stepPath(s.key, record.caseId)}
                className={styles.stepLink}
                aria-current={s.key === step ? 'step' : undefined}
              >
                <span className={styles.stepNumber} aria-hidden="true">
                  {index + 1}
                </span>
                <span className={styles.stepLabel}>{s.short}</span>
              </Link>
            </li>
          ))}
        </ol>
      </nav>

      {readOnly && step !== 'case-completed' ? (
        <Callout tone="info" className={styles.banner} role="note">
          <Lock size={20} aria-hidden="true" />
          <p>
            This case is completed and locked. Corrections are added as addenda on the{' '}
            <Link to={stepPath('case-completed', record.caseId)}>completed case</Link>.
          </p>
        </Callout>
      ) : null}
      <RecordSaveError className={styles.banner} />

      <div
        className={styles.body}
        onInputCapture={() => {
          touched.current = true;
        }}
        onClickCapture={(event) => {
          if (event.target instanceof Element && event.target.closest('button, input, label'))
            touched.current = true;
        }}
      >
        {children}
      </div>

      <nav className={styles.footer} aria-label="Previous and next step">
        {previous ? (
          <Link to={stepPath(previous.key, record.caseId)} className="button">
            <ArrowLeft size={20} aria-hidden="true" /> {previous.title}
          </Link>
        ) : (
          <Link to="/" className="button">
            <ArrowLeft size={20} aria-hidden="true" /> Dashboard
          </Link>
        )}
        {next ? (
          <Link
            to={stepPath(next.key, record.caseId)}
            className={`button button--primary ${styles.next}`}
          >
            {next.key === 'case-completed' ? 'Review and complete' : next.title}{' '}
            <ArrowRight size={20} aria-hidden="true" />
          </Link>
        ) : null}
      </nav>
    </main>
  );
}
