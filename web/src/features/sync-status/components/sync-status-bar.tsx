// Always visible on signed-in screens, one row on a phone: online or offline, how many changes
// wait to sync, when the last sync succeeded (from tablet width), and what to do when syncing
// is blocked (sign in again, update the app, or look at changes the server refused). Offline
// is a normal state for a crew: it is said calmly, with the changes the device keeps, never
// as a failure (issue 37).
import { AlertTriangle, CloudOff, CloudUpload, RefreshCw, Wifi, WifiOff } from 'lucide-react';
import { Link } from 'react-router-dom';
import { formatDateTime, formatTime } from '@rescuelog/sync-protocol/time';
import { useSyncSession } from '@/lib/sync/use-sync';
import {
  useLastSuccessfulSync,
  useOnline,
  usePendingCount,
  useRejections,
  useSyncStatus,
} from '@/lib/sync/use-sync';
import { cx } from '@/lib/cx';
import styles from './sync-status-bar.module.css';

const changes = (count: number) => `${String(count)} ${count === 1 ? 'change' : 'changes'}`;

export function pendingLabel(count: number): string {
  if (count === 0) return 'All changes synced';
  return `${changes(count)} not yet synced`;
}

/** Without signal: what the device keeps, in words that do not sound like an error. */
export function offlineLabel(count: number): string {
  if (count === 0) return 'Offline: all changes synced';
  return `Offline: ${changes(count)} kept on this device`;
}

export function SyncStatusBar() {
  const session = useSyncSession();
  const status = useSyncStatus();
  const online = useOnline();
  const pending = usePendingCount();
  const lastSync = useLastSuccessfulSync();
  const rejections = useRejections();
  if (!session) return null;

  const openRejections = rejections?.rejections.filter((r) => r.dismissedAt === null).length ?? 0;
  // No answer at all from the server is being offline, whatever the browser's flag says.
  const offline = !online || status.unreachable;
  const tone =
    status.phase === 'auth-required' || status.phase === 'update-required'
      ? 'danger'
      : (status.phase === 'backoff' && !offline) || openRejections > 0
        ? 'warning'
        : null;

  let message: string | null = null;
  if (status.phase === 'auth-required')
    message = 'Your session has ended. Sign in again to sync your changes.';
  else if (status.phase === 'update-required')
    message =
      'This version of the app can no longer sync. Reload to update; your changes are kept.';
  else if (status.phase === 'backoff' && !offline && pending !== 0) {
    message = `Sync failed: ${status.lastError ?? 'unknown error'}.${status.nextRetryAt ? ` Retrying at ${formatTime(status.nextRetryAt)}.` : ''}`;
  }

  return (
    <section className={cx(styles.bar, tone && styles[tone])} aria-label="Sync status">
      {offline ? null : (
        <span className={cx(styles.item, styles.connection)}>
          <Wifi aria-hidden="true" size={18} />
          Online
        </span>
      )}
      <span className={styles.item} role="status">
        {offline ? (
          <WifiOff aria-hidden="true" size={18} />
        ) : pending === undefined ? null : pending === 0 ? (
          <CloudUpload aria-hidden="true" size={18} />
        ) : (
          <CloudOff aria-hidden="true" size={18} />
        )}
        {pending === undefined
          ? 'Checking for unsynced changes…'
          : offline
            ? offlineLabel(pending)
            : status.phase === 'syncing' && pending > 0
              ? `Syncing ${changes(pending)}…`
              : pendingLabel(pending)}
      </span>
      <span className={cx(styles.item, styles.lastSync)}>
        {lastSync ? `Last synced ${formatDateTime(lastSync)}` : 'Not synced yet'}
      </span>
      {message ? (
        <p className={styles.message} role="alert">
          <AlertTriangle aria-hidden="true" size={18} /> {message}
        </p>
      ) : null}
      <span className={styles.actions}>
        {openRejections > 0 ? (
          <Link to="/sync-inbox" className={`button ${styles.actionButton}`}>
            {`${String(openRejections)} not accepted`}
          </Link>
        ) : null}
        {status.phase === 'auth-required' ? (
          // A lost session normally sends the user to sign in by itself (the account is
          // re-checked); this is for a refusal that outlived that check.
          <button
            type="button"
            className={`button ${styles.actionButton}`}
            onClick={() => void session.engine.resume()}
          >
            Try again
          </button>
        ) : status.phase === 'update-required' ? (
          <button
            type="button"
            className={`button ${styles.actionButton}`}
            onClick={() => window.location.reload()}
          >
            Reload
          </button>
        ) : (
          <button
            type="button"
            className={`button ${styles.actionButton}`}
            disabled={status.phase === 'syncing'}
            onClick={() => void session.engine.sync('manual')}
          >
            <RefreshCw aria-hidden="true" size={18} />
            Sync now
          </button>
        )}
      </span>
    </section>
  );
}
