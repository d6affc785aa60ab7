// One notification in full: who it was for, its times and figures, and every delivery that
// failed with the push service's or the server's error; resend to those from here.
import * as Dialog from '@radix-ui/react-dialog';
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { RefreshCw, X } from 'lucide-react';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useAdminNotificationDetail, useResendFailed } from '../api/admin-notifications';
import { describeTargets, Figures, NotificationTimes, StatusPill } from './notification-summary';
import styles from './admin-notifications.module.css';

export function NotificationDetailDialog({
  id,
  roles,
  users,
  onOpenChange,
}: {
  id: number;
  roles: Role[] | undefined;
  users: User[] | undefined;
  onOpenChange: (open: boolean) => void;
}) {
  const detail = useAdminNotificationDetail(id);
  const resend = useResendFailed();
  const n = detail.data?.notification;
  const failures = detail.data?.failures ?? [];

  return (
    <Dialog.Root open onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--wide dialog--tall">
          <div className="dialog__header">
            <Dialog.Title className="dialog__title">{n ? n.title : 'Notification'}</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <X aria-hidden="true" size={22} />
            </Dialog.Close>
          </div>
          <Dialog.Description className="dialog__description">
            Delivery figures and the deliveries that failed, with their errors.
          </Dialog.Description>
          {detail.isPending ? (
            <Spinner label="Loading the notification" />
          ) : detail.isError || !n ? (
            <p className="text-danger">
              The notification could not be loaded ({errorMessage(detail.error)}).
            </p>
          ) : (
            <>
              <div className={styles.detailHead}>
                <StatusPill status={n.status} />
                <span>To: {describeTargets(n, roles, users)}</span>
              </div>
              <p className={styles.itemMessage}>{n.message}</p>
              {n.url ? (
                <p className="text-muted">
                  Opens <span className={styles.url}>{n.url}</span>
                </p>
              ) : null}
              <NotificationTimes n={n} />
              <Figures figures={n.figures} />
              <section aria-labelledby="failures-title" className={styles.failures}>
                <h3 id="failures-title" className={styles.failuresTitle}>
                  Failed deliveries ({failures.length})
                </h3>
                {failures.length === 0 ? (
                  <p className="text-muted">No delivery has failed.</p>
                ) : (
                  <ul className={styles.failureList}>
                    {failures.map((f) => (
                      <li key={f.userId}>
                        <strong>{f.fullName || f.email}</strong>{' '}
                        <span className={styles.email}>{f.email}</span>
                        <p className="text-danger">{f.errorMessage ?? 'No error was recorded'}</p>
                        <p className="text-muted">Failed {formatDateTime(f.updatedAt)}</p>
                      </li>
                    ))}
                  </ul>
                )}
              </section>
              {failures.length > 0 && n.status === 'sent' ? (
                <div className="dialog__actions">
                  <button
                    type="button"
                    className="button button--primary"
                    disabled={resend.isPending}
                    aria-busy={resend.isPending}
                    onClick={() => resend.mutate(n, { onSuccess: () => void detail.refetch() })}
                  >
                    <RefreshCw aria-hidden="true" size={20} />
                    {resend.isPending
                      ? 'Resending...'
                      : `Resend to ${String(failures.length)} failed`}
                  </button>
                </div>
              ) : null}
            </>
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
