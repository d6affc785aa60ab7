import type { NotificationItem } from '@rescuelog/sync-protocol/notifications';
import { BellOff, CheckCheck } from 'lucide-react';
import {
  NOTIFICATION_PRIORITY_LABELS,
  NOTIFICATION_TYPE_DISPLAY,
} from '@/components/notifications/notification-kind';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { cx } from '@/lib/cx';
import styles from './notification-list.module.css';

function NotificationRow({ item, showRead }: { item: NotificationItem; showRead: boolean }) {
  const { icon: Icon, label } = NOTIFICATION_TYPE_DISPLAY[item.type];
  return (
    <li className={cx(styles.notification, styles[item.priority])}>
      <span className={styles.icon} role="img" aria-label={label}>
        <Icon aria-hidden="true" size={22} />
      </span>
      <div className={styles.body}>
        <h3 className={styles.title}>{item.title}</h3>
        <p className={styles.message}>{item.message}</p>
        <p className={styles.meta}>
          <span className="sr-only">{NOTIFICATION_PRIORITY_LABELS[item.priority]}. </span>
          <span>Sent {formatDateTime(item.createdAt)}</span>
          {showRead && item.readAt ? <span> · Read {formatDateTime(item.readAt)}</span> : null}
        </p>
      </div>
    </li>
  );
}

interface NotificationListProps {
  items: NotificationItem[] | undefined;
  isPending: boolean;
  error: Error | null;
  which: 'unread' | 'read';
}

export function NotificationList({ items, isPending, error, which }: NotificationListProps) {
  if (isPending) return <Spinner label="Loading notifications" />;
  if (error)
    return (
      <p className="text-danger">Notifications could not be loaded ({errorMessage(error)}).</p>
    );
  if (!items || items.length === 0) {
    return which === 'unread' ? (
      <div className="empty-state">
        <CheckCheck aria-hidden="true" size={32} />
        <p className="empty-state__title">No unread notifications</p>
        <p>You&apos;re all caught up!</p>
      </div>
    ) : (
      <div className="empty-state">
        <BellOff aria-hidden="true" size={32} />
        <p className="empty-state__title">No read notifications</p>
      </div>
    );
  }
  return (
    <ul className={styles.list}>
      {items.map((item) => (
        <NotificationRow key={item.id} item={item} showRead={which === 'read'} />
      ))}
    </ul>
  );
}
