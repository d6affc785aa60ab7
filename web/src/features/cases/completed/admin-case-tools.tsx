// Administrator tools on a case (online only; the server enforces who may): unlock a
// completed case with a reason (audited; devices reopen it when they next pull), and the
// case's access history from the audit log, newest first, a page at a time.
import { caseUnlockSchema, type CaseAccessEntry } from '@rescuelog/sync-protocol/cases/api';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { CloudOff, History, Unlock } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '@/lib/api-client';
import { useOnline } from '@/lib/sync/use-sync';
import { useAccessHistory, useUnlockCase } from './case-api';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './completed.module.css';

export function AdminCaseTools({ caseId, completed }: { caseId: string; completed: boolean }) {
  const online = useOnline();
  return (
    <section className={`card ${styles.completedCard}`} aria-labelledby="admin-case-tools-heading">
      <h2 id="admin-case-tools-heading" className={formStyles.sectionTitle}>
        Administrator
      </h2>
      {!online ? (
        <p className={styles.completedOffline} role="status">
          <CloudOff size={20} aria-hidden="true" /> Unlocking a case and its access history need a
          connection to the server.
        </p>
      ) : (
        <>
          {completed ? <UnlockCase caseId={caseId} /> : null}
          <AccessHistory caseId={caseId} />
        </>
      )}
    </section>
  );
}

function UnlockCase({ caseId }: { caseId: string }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const unlock = useUnlockCase(caseId);
  const reasonId = useId();

  if (unlock.isSuccess) {
    return (
      <p className={styles.completedSuccess} role="status">
        Case {caseId} is unlocked on the server. This device reopens it after its next sync; other
        devices when they next sync.
      </p>
    );
  }
  if (!open) {
    return (
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        <Unlock size={20} aria-hidden="true" /> Unlock case
      </button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = caseUnlockSchema.safeParse({ reason });
    if (!parsed.success) {
      setReasonError(parsed.error.issues[0]?.message ?? 'A reason is required');
      return;
    }
    setReasonError(null);
    unlock.mutate(parsed.data.reason);
  };
  return (
    <form className={styles.unlockForm} onSubmit={submit} noValidate aria-labelledby="unlock-title">
      <h3 id="unlock-title" className={styles.completedSubtitle}>
        Unlock case
      </h3>
      <p className="field__hint">
        Unlocking reopens the record for editing on every device. It is recorded in the audit log
        with your reason.
      </p>
      <div className="field">
        <label htmlFor={reasonId} className="field__label">
          Reason for unlocking <span className="field__required">(required)</span>
        </label>
        <textarea
          id={reasonId}
          className={`input ${formStyles.textInput} ${formStyles.multiline}`}
          rows={3}
          maxLength={2000}
          value={reason}
          aria-invalid={reasonError ? true : undefined}
          aria-describedby={reasonError ? `${reasonId}-error` : undefined}
          onChange={(e) => setReason(e.target.value)}
        />
        {reasonError ? (
          <p className="field__error" id={`${reasonId}-error`} role="alert">
            {reasonError}
          </p>
        ) : null}
      </div>
      {unlock.isError ? (
        <p className="field__error" role="alert">
          Could not unlock: {errorMessage(unlock.error)}
        </p>
      ) : null}
      <div className={styles.unlockFormActions}>
        <button type="button" className="button button--secondary" onClick={() => setOpen(false)}>
          Cancel
        </button>
        <button type="submit" className="button button--danger" disabled={unlock.isPending}>
          {unlock.isPending ? 'Unlocking…' : 'Unlock'}
        </button>
      </div>
    </form>
  );
}

function who(entry: CaseAccessEntry): string {
  if (!entry.actor) return 'Unknown';
  return entry.actor.callSign
    ? `${entry.actor.fullName} (${entry.actor.callSign})`
    : entry.actor.fullName;
}

function what(entry: CaseAccessEntry): string {
  const parts = [entry.label];
  if (entry.detail) parts.push(entry.detail);
  if (entry.fields.length > 0) parts.push(`fields: ${entry.fields.join(', ')}`);
  if (entry.outcome !== 'success') parts.push(entry.outcome === 'denied' ? 'refused' : 'failed');
  return parts.join(' · ');
}

function AccessHistory({ caseId }: { caseId: string }) {
  const [open, setOpen] = useState(false);
  const history = useAccessHistory(caseId, open);
  const entries = history.data?.pages.flatMap((p) => p.entries) ?? [];

  if (!open) {
    return (
      <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
        <History size={20} aria-hidden="true" /> Access history
      </button>
    );
  }
  return (
    <div className={styles.accessHistory}>
      <h3 className={styles.completedSubtitle}>Access history</h3>
      {history.isPending ? (
        <p role="status">Loading the access history…</p>
      ) : history.isError ? (
        <div role="alert">
          <p className="field__error">
            Could not load the access history: {errorMessage(history.error)}
          </p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void history.refetch()}
          >
            Try again
          </button>
        </div>
      ) : entries.length === 0 ? (
        <p className={styles.completedEmpty}>No access recorded yet.</p>
      ) : (
        <>
          <div
            className={styles.accessHistoryWrap}
            role="region"
            aria-label="Access history entries"
            tabIndex={0}
          >
            <table className={styles.accessHistoryTable}>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Who</th>
                  <th scope="col">What</th>
                  <th scope="col">From</th>
                </tr>
              </thead>
              <tbody>
                {entries.map((entry) => (
                  <tr key={entry.id}>
                    <td>
                      {formatDateTime(entry.occurredAt ?? entry.at, entry.at)}
                      {entry.occurredAt && entry.occurredAt !== entry.at ? (
                        <span className={styles.accessHistoryNote}>
                          {' '}
                          (on a device; synced {formatDateTime(entry.at)})
                        </span>
                      ) : null}
                    </td>
                    <td>{who(entry)}</td>
                    <td>
                      {what(entry)}
                      {entry.reason ? (
                        <span className={styles.accessHistoryNote}> Reason: {entry.reason}</span>
                      ) : null}
                    </td>
                    <td>
                      {[entry.source === 'device' ? 'Device' : 'Server', entry.ip]
                        .filter(Boolean)
                        .join(' · ')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {history.hasNextPage ? (
            <button
              type="button"
              className="button button--secondary"
              onClick={() => void history.fetchNextPage()}
              disabled={history.isFetchingNextPage}
            >
              {history.isFetchingNextPage ? 'Loading…' : 'Show older entries'}
            </button>
          ) : (
            <p className={styles.completedEmpty}>That is the whole history.</p>
          )}
        </>
      )}
    </div>
  );
}
