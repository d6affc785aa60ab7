import { lazy, Suspense } from 'react';
import { Dashboard } from '@/features/dashboard/components/dashboard';
import { useAfterFirstLoad } from '@/hooks/use-after-first-load';
import { useUser } from '@/lib/auth';

// The bell (a dialog with tabs) loads beside the home screen instead of before it.
const NotificationBell = lazy(async () => ({
  default: (await import('@/features/notifications/components/notification-bell')).NotificationBell,
}));
// The offer to turn on notifications on this device comes once the home screen has loaded.
const PushOffer = lazy(async () => ({
  default: (await import('@/features/notifications/components/push-offer')).PushOffer,
}));

export function DashboardRoute() {
  const { data: user } = useUser();
  const afterLoad = useAfterFirstLoad();
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
      notices={
        afterLoad ? (
          <Suspense fallback={null}>
            <PushOffer userId={user.id} />
          </Suspense>
        ) : null
      }
    />
  );
}
