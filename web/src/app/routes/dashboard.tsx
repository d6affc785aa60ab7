import { lazy, Suspense } from 'react';
import { Dashboard } from '@/features/dashboard/components/dashboard';
import { useUser } from '@/lib/auth';

// The bell (a dialog with tabs) loads beside the home screen instead of before it.
const NotificationBell = lazy(async () => ({
  default: (await import('@/features/notifications/components/notification-bell')).NotificationBell,
}));

export function DashboardRoute() {
  const { data: user } = useUser();
  // The guard renders this route only for an approved user.
  if (!user) return null;
  return (
    <Dashboard
      user={user}
      notifications={
        <Suspense fallback={null}>
          <NotificationBell />
        </Suspense>
      }
    />
  );
}
