// What was sent and what is scheduled: per notification its status, who it was for, its
// times and delivery figures, with its failed deliveries in a detail view, cancelling a
// scheduled one (asked first) and resending to those it failed to reach.
import type { AdminNotification } from '@rescuelog/sync-protocol/notifications';
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { Inbox, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { NOTIFICATION_TYPE_DISPLAY } from '@/components/notifications/notification-kind';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { cx } from '@/lib/cx';
import {
  useAdminNotifications,
  useCancelNotification,
  useResendFailed,
  useTargetRoles,
  useTargetUsers,
} from '../api/admin-notifications';
import { NotificationDetailDialog } from './notification-detail-dialog';
import { describeTargets, Figures, NotificationTimes, StatusPill } from './notification-summary';
import styles from './admin-notifications.module.css';

/** Notifications shown at once; the rest come a page at a time. */
const PAGE_SIZE = 20;

function NotificationCard({
  n,
  roles,
  users,
  onDetails,
  onCancel,
  onResend,
  resending,
}: {
  n: AdminNotification;
  roles: Role[] | undefined;
  users: User[] | undefined;
  onDetails: () => void;
  onCancel: () => void;
  onResend: () => void;
  resending: boolean;
}) {
  const { icon: Icon, label } = NOTIFICATION_TYPE_DISPLAY[n.type];
  const canResend = n.figures.failed > 0 && n.status === 'sent';
  return (
    <li className={cx('card', styles.item, styles[`priority-${n.priority}`])}>
      <div className={styles.itemHead}>
        <span className={styles.typeIcon} role="img" aria-label={label}>
          <Icon aria-hidden="true" size={22} />
        </span>
        <h3 className={styles.itemTitle}>{n.title}</h3>
        <StatusPill status={n.status} />
      </div>
      <p className={styles.itemMessage}>{n.message}</p>
      <p className="text-muted">
        {n.priority[0]?.toUpperCase()}
        {n.priority.slice(1)} priority · To: {describeTargets(n, roles, users)}
      </p>
      <NotificationTimes n={n} />
      <Figures figures={n.figures} />
      <div className={styles.itemActions}>
        <button type="button" className="button button--secondary" onClick={onDetails}>
          Details<span className="sr-only"> of {n.title}</span>
        </button>
        {canResend ? (
          <button
            type="button"
            className="button button--secondary"
            disabled={resending}
            aria-busy={resending}
            onClick={onResend}
          >
            <RefreshCw aria-hidden="true" size={20} />
            {resending ? 'Resending...' : `Resend to ${String(n.figures.failed)} failed`}
            <span className="sr-only"> of {n.title}</span>
          </button>
        ) : null}
        {n.status === 'scheduled' ? (
          <button type="button" className="button button--danger" onClick={onCancel}>
            Cancel sending<span className="sr-only"> of {n.title}</span>
          </button>
        ) : null}
      </div>
    </li>
  );
}

export function SentList() {
  const list = useAdminNotifications(true);
  const roles = useTargetRoles(true);
  const users = useTargetUsers(true);
  const cancel = useCancelNotification();
  const resend = useResendFailed();
  const [detailId, setDetailId] = useState<number | null>(null);
  const [shown, setShown] = useState(PAGE_SIZE);
  const [cancelling, setCancelling] = useState<AdminNotification | null>(null);

  let body;
  if (list.isPending) body = <Spinner label="Loading notifications" />;
  else if (list.isError)
    body = (
      <div className={styles.problem}>
        <p className="text-danger">
          Notifications could not be loaded ({errorMessage(list.error)}).
        </p>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void list.refetch()}
        >
          Try again
        </button>
      </div>
    );
  else if (list.data.length === 0)
    body = (
      <div className="empty-state">
        <Inbox aria-hidden="true" size={32} />
        <p className="empty-state__title">No notifications yet</p>
        <p>Notifications you send or schedule show here with their delivery figures.</p>
      </div>
    );
  else {
    const more = list.data.length - shown;
    body = (
      <>
        <ul className={styles.list}>
          {list.data.slice(0, shown).map((n) => (
            <NotificationCard
              key={n.id}
              n={n}
              roles={roles.data}
              users={users.data}
              onDetails={() => setDetailId(n.id)}
              onCancel={() => setCancelling(n)}
              onResend={() => resend.mutate(n)}
              resending={resend.isPending && resend.variables.id === n.id}
            />
          ))}
        </ul>
        {more > 0 ? (
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setShown((n) => n + PAGE_SIZE)}
          >
            Show {Math.min(more, PAGE_SIZE)} more of {more}
          </button>
        ) : null}
      </>
    );
  }

  return (
    <section
      className={styles.sentSection}
      aria-labelledby="sent-title"
      aria-busy={list.isFetching}
    >
      <h2 id="sent-title" className="card__title">
        Sent and scheduled
      </h2>
      {body}
      {detailId !== null ? (
        <NotificationDetailDialog
          id={detailId}
          roles={roles.data}
          users={users.data}
          onOpenChange={(open) => {
            if (!open) setDetailId(null);
          }}
        />
      ) : null}
      <ConfirmDialog
        open={cancelling !== null}
        onOpenChange={(open) => {
          if (!open) setCancelling(null);
        }}
        title="Cancel this scheduled notification?"
        description={
          cancelling
            ? `“${cancelling.title}” will not be sent${
                cancelling.scheduledFor ? ` on ${formatDateTime(cancelling.scheduledFor)}` : ''
              }. This cannot be undone.`
            : ''
        }
        confirmLabel="Cancel sending"
        cancelLabel="Keep it scheduled"
        destructive
        onConfirm={() => {
          if (cancelling) cancel.mutate(cancelling.id);
        }}
      />
    </section>
  );
}
