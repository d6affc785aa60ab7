// Pieces of a notification shown in the list and in its detail view: status, who it was for,
// its times and its delivery figures.
import type {
  AdminNotification,
  DeliveryFigures,
  NotificationStatus,
} from '@rescuelog/sync-protocol/notifications';
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { cx } from '@/lib/cx';
import { userLabel } from './target-picker';
import styles from './admin-notifications.module.css';

export const STATUS_LABELS: Record<NotificationStatus, string> = {
  pending: 'Pending',
  scheduled: 'Scheduled',
  sending: 'Sending',
  sent: 'Sent',
  cancelled: 'Cancelled',
};

const FIGURES: ReadonlyArray<{ key: keyof DeliveryFigures; label: string }> = [
  { key: 'recipients', label: 'Recipients' },
  { key: 'pushed', label: 'Pushed' },
  { key: 'delivered', label: 'Delivered' },
  { key: 'clicked', label: 'Clicked' },
  { key: 'read', label: 'Read' },
  { key: 'failed', label: 'Failed' },
];

export function Figures({ figures }: { figures: DeliveryFigures }) {
  return (
    <dl className={styles.figures} aria-label="Delivery figures">
      {FIGURES.map(({ key, label }) => (
        <div key={key} className={cx(key === 'failed' && figures.failed > 0 && styles.failed)}>
          <dt>{label}</dt>
          <dd>{figures[key]}</dd>
        </div>
      ))}
    </dl>
  );
}

/** 'Everyone', 'Roles: Shift lead, Member', '2 people: Thandi Nkosi (R7), Sipho Dube'. */
export function describeTargets(
  n: Pick<AdminNotification, 'targetRoles' | 'targetUserIds'>,
  roles: Role[] | undefined,
  users: User[] | undefined,
): string {
  const parts: string[] = [];
  if (n.targetRoles && n.targetRoles.length > 0) {
    const names = n.targetRoles.map(
      (name) => roles?.find((r) => r.name === name)?.displayName ?? name,
    );
    parts.push(`Roles: ${names.join(', ')}`);
  }
  if (n.targetUserIds && n.targetUserIds.length > 0) {
    const count = n.targetUserIds.length;
    const known = n.targetUserIds
      .map((id) => users?.find((u) => u.id === id))
      .filter((u): u is User => u !== undefined);
    const names = known.slice(0, 3).map(userLabel);
    const rest = count - names.length;
    parts.push(
      `${String(count)} ${count === 1 ? 'person' : 'people'}${
        names.length > 0
          ? `: ${names.join(', ')}${rest > 0 ? ` and ${String(rest)} more` : ''}`
          : ''
      }`,
    );
  }
  return parts.length > 0 ? parts.join('; ') : 'Everyone';
}

export function StatusPill({ status }: { status: NotificationStatus }) {
  return (
    <span className={cx('pill', styles.status, styles[`status-${status}`])}>
      {STATUS_LABELS[status]}
    </span>
  );
}

export function NotificationTimes({ n }: { n: AdminNotification }) {
  return (
    <ul className={styles.times}>
      <li>
        Created {formatDateTime(n.createdAt)}
        {n.createdByName ? ` by ${n.createdByName}` : ''}
      </li>
      {n.scheduledFor ? (
        <li>
          {n.status === 'scheduled' || n.status === 'pending' ? 'Goes out' : 'Scheduled for'}{' '}
          {formatDateTime(n.scheduledFor)}
        </li>
      ) : null}
      {n.sentAt ? <li>Sent {formatDateTime(n.sentAt)}</li> : null}
    </ul>
  );
}
