// A record's sync state, where the record is shown: "Saving…" while a change is being written
// on the device, "Not yet synced" while the server has not acknowledged its changes, "Synced"
// (on the record's own screen, `showSynced`), and, when the server refused or could not store
// changes to it, a link to the sync inbox that says how many. Any record kind.
import { AlertTriangle, Check, CloudOff, RefreshCw } from 'lucide-react';
import { Link } from 'react-router-dom';
import { cx } from '@/lib/cx';
import { useHasPendingChanges, useRejections } from '@/lib/sync/use-sync';
import { useOptionalRecordForm } from './record-form';
import styles from './record-sync-mark.module.css';

/** Changes to this record the server refused or could not store, not yet dismissed. */
function useNotAccepted(recordId: string): number {
  const list = useRejections();
  if (!list) return 0;
  return list.rejections.filter(
    (r) => r.dismissedAt === null && r.mutation.entityIds.includes(recordId),
  ).length;
}

export function RecordSyncMark({
  recordId,
  showSynced = false,
}: {
  recordId: string;
  /** Say "Synced" too (on the record's own screen); a list row shows only what needs notice. */
  showSynced?: boolean;
}) {
  const pending = useHasPendingChanges(recordId);
  const notAccepted = useNotAccepted(recordId);
  const form = useOptionalRecordForm();
  const saving = form?.record.id === recordId && form.saving === true;
  if (pending === undefined && !saving) return null;
  return (
    <SyncMarks
      pending={pending === true}
      notAccepted={notAccepted}
      saving={saving}
      showSynced={showSynced}
    />
  );
}

/**
 * The marks themselves, for a list that reads the outbox and the refusals once for all its
 * rows (components/record-list) instead of once per row. In a list row (`inRow`) the marks
 * are plain text: the row is a link already, and a change of one row's state is not news
 * read out to the whole screen.
 */
export function SyncMarks({
  pending,
  notAccepted,
  saving = false,
  showSynced = false,
  inRow = false,
}: {
  pending: boolean;
  notAccepted: number;
  saving?: boolean;
  showSynced?: boolean;
  inRow?: boolean;
}) {
  const role = inRow ? undefined : 'status';
  const refusedText =
    notAccepted === 1 ? '1 change not accepted' : `${String(notAccepted)} changes not accepted`;
  return (
    <span className={styles.marks}>
      {notAccepted > 0 && inRow ? (
        <span className={cx(styles.mark, styles.refusedInRow)}>
          <AlertTriangle size={16} aria-hidden="true" />
          {refusedText}
        </span>
      ) : notAccepted > 0 ? (
        <Link to="/sync-inbox" className={cx(styles.mark, styles.refused)}>
          <AlertTriangle size={16} aria-hidden="true" />
          {refusedText}
        </Link>
      ) : null}
      {saving ? (
        <span className={cx(styles.mark, styles.pending)} role={role}>
          <RefreshCw size={16} aria-hidden="true" /> Saving…
        </span>
      ) : pending ? (
        <span className={cx(styles.mark, styles.pending)} role={role}>
          <CloudOff size={16} aria-hidden="true" /> Not yet synced
        </span>
      ) : showSynced ? (
        <span className={cx(styles.mark, styles.done)} role={role}>
          <Check size={16} aria-hidden="true" /> Synced
        </span>
      ) : null}
    </span>
  );
}
