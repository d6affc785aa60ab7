import { AdminNotificationsPage } from '@/features/admin-notifications/components/admin-notifications-page';

export function AdminNotificationsRoute() {
  return <AdminNotificationsPage />;
}
