// One case in the Cases Logged list: what its card shows, and where it opens.
import { stepPath } from '@rescuelog/sync-protocol/cases/steps';
import type { CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { STATUS_LABELS } from './case-search-form';
import styles from './case-search.module.css';
import { cx } from '@/lib/cx';

/**
 * Where a case opens: an in-progress case on this device resumes at the primary survey; a
 * completed case, or any case this device does not hold (the server's read-only view,
 * GET /api/cases/:caseId), opens the completed-case screen.
 */
export function caseResultLink(
  c: Pick<CaseSummary, 'caseId' | 'status'>,
  onDevice: boolean,
): string {
  return stepPath(
    c.status === 'in_progress' && onDevice ? 'primary-survey' : 'case-completed',
    c.caseId,
  );
}

function responderText(c: CaseSummary): string | null {
  if (c.responderName && c.responderCallSign) return `${c.responderName} (${c.responderCallSign})`;
  return c.responderName || c.responderCallSign || null;
}

/** What a case's card shows (the card, its link and its sync mark: components/record-list). */
export function CaseResultCard({ summary: c }: { summary: CaseSummary }) {
  const inProgress = c.status === 'in_progress';
  const responder = responderText(c);
  return (
    <>
      <span className={styles.cardTop}>
        <span className={styles.cardId}>{c.caseId}</span>
        <span className={`pill ${inProgress ? 'pill--progress' : 'pill--done'}`}>
          {STATUS_LABELS[c.status]}
        </span>
      </span>
      <span className={cx(styles.cardPatient, !c.patientName && styles.cardPatientUnknown)}>
        {c.patientName || 'Unknown patient'}
      </span>
      <span className={styles.cardType}>{c.incidentType || 'Unknown Incident'}</span>
      <span className={styles.cardMeta}>
        <span>{formatDateTime(c.createdAt)}</span>
        {responder ? <span>{responder}</span> : null}
      </span>
    </>
  );
}
