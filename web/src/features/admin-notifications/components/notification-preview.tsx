// How the notification will look on a phone's screen as it is typed: the app's line, the
// type's icon in the priority's colour, the title and the message (phones shorten long ones).
import type {
  NotificationPriority,
  NotificationType,
} from '@rescuelog/sync-protocol/notifications';
import {
  NOTIFICATION_PRIORITY_LABELS,
  NOTIFICATION_TYPE_DISPLAY,
} from '@/components/notifications/notification-kind';
import { cx } from '@/lib/cx';
import styles from './notification-preview.module.css';

interface PreviewProps {
  title: string;
  message: string;
  type: NotificationType;
  priority: NotificationPriority;
  /** Shown under the notification: when it goes out. */
  when: string;
}

export function NotificationPreview({ title, message, type, priority, when }: PreviewProps) {
  const { icon: Icon, label } = NOTIFICATION_TYPE_DISPLAY[type];
  return (
    <section className={styles.preview} aria-labelledby="notification-preview-title">
      <h2 id="notification-preview-title" className="card__title">
        Preview on a phone
      </h2>
      <div className={styles.phone}>
        <div className={styles.screen}>
          <div className={cx(styles.notification, styles[priority])}>
            <span className={styles.icon} role="img" aria-label={label}>
              <Icon aria-hidden="true" size={24} />
            </span>
            <div className={styles.body}>
              <p className={styles.app}>RescueLog · {when}</p>
              <p className={cx(styles.title, title.trim() === '' && styles.placeholder)}>
                {title.trim() || 'Title'}
              </p>
              <p className={cx(styles.message, message.trim() === '' && styles.placeholder)}>
                {message.trim() || 'Message'}
              </p>
              <p className={styles.priority}>{NOTIFICATION_PRIORITY_LABELS[priority]}</p>
            </div>
          </div>
        </div>
      </div>
      <p className="text-muted">
        Phones shorten long messages; the whole message shows in the app&apos;s notifications.
      </p>
    </section>
  );
}
