import { lazy, Suspense } from 'react';
import { ProfilePage } from '@/features/profile/components/profile-page';

// Notifications on this device (push state, on/off, a test) load with the page, not before.
const DevicePushSection = lazy(async () => ({
  default: (await import('@/features/notifications/components/device-push-section'))
    .DevicePushSection,
}));

export function ProfileRoute() {
  return (
    <ProfilePage
      deviceNotifications={(userId) => (
        <Suspense fallback={null}>
          <DevicePushSection userId={userId} />
        </Suspense>
      )}
    />
  );
}
