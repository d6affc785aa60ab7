import { Dashboard } from '@/features/dashboard/components/dashboard';
import { NotificationBell } from '@/features/notifications/components/notification-bell';
import { useUser } from '@/lib/auth';

export function DashboardRoute() {
  const { data: user } = useUser();
  // The guard renders this route only for an approved user.
  if (!user) return null;
  return <Dashboard user={user} notifications={<NotificationBell />} />;
}
