import * as Dialog from '@radix-ui/react-dialog';
import * as Tabs from '@radix-ui/react-tabs';
import { Bell, X } from 'lucide-react';
import { useState } from 'react';
import { useMarkAllRead, useNotificationList, useUnreadCount } from '../api/notifications';
import { NotificationList } from './notification-list';
import styles from './notification-bell.module.css';

/** Spec §9: the badge shows at most '99+'. */
export function formatBadgeCount(count: number): string {
  return count > 99 ? '99+' : String(count);
}

function NotificationsDialogBody({ open, count }: { open: boolean; count: number }) {
  const unread = useNotificationList('unread', open);
  const read = useNotificationList('read', open);
  return (
    <Tabs.Root defaultValue="unread" className="tabs">
      <Tabs.List className="tabs__list" aria-label="Notification lists">
        <Tabs.Trigger value="unread" className="tabs__trigger">
          Unread ({unread.data?.length ?? count})
        </Tabs.Trigger>
        <Tabs.Trigger value="read" className="tabs__trigger">
          Read
        </Tabs.Trigger>
      </Tabs.List>
      <Tabs.Content value="unread" className="tabs__content">
        <NotificationList
          which="unread"
          items={unread.data}
          isPending={unread.isPending}
          error={unread.error}
        />
      </Tabs.Content>
      <Tabs.Content value="read" className="tabs__content">
        <NotificationList
          which="read"
          items={read.data}
          isPending={read.isPending}
          error={read.error}
        />
      </Tabs.Content>
    </Tabs.Root>
  );
}

export function NotificationBell() {
  const [open, setOpen] = useState(false);
  const { data: count = 0 } = useUnreadCount();
  const markAllRead = useMarkAllRead();
  const unreadList = useNotificationList('unread', open);

  function onOpenChange(next: boolean) {
    setOpen(next);
    if (!next) {
      const unreadShown = unreadList.data?.length ?? 0;
      if (unreadShown > 0 || count > 0) markAllRead.mutate();
    }
  }

  const label = count > 0 ? `Notifications, ${formatBadgeCount(count)} unread` : 'Notifications';
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Trigger className="icon-button icon-button--on-dark" aria-label={label}>
        <Bell aria-hidden="true" size={24} />
        {count > 0 ? (
          <span className={styles.count} aria-hidden="true">
            {formatBadgeCount(count)}
          </span>
        ) : null}
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--tall">
          <div className="dialog__header">
            <Dialog.Title className="dialog__title">Notifications</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <X aria-hidden="true" size={22} />
            </Dialog.Close>
          </div>
          <Dialog.Description className="sr-only">
            Unread and read notifications. Closing marks unread ones as read.
          </Dialog.Description>
          <NotificationsDialogBody open={open} count={count} />
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
