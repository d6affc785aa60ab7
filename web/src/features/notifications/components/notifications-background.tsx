// Mounted for a signed-in, approved user once the first screen has loaded: the bell's count
// and lists refresh the moment the service worker says a push arrived, a clicked notification
// opens its address in this window, and this device's push subscription is checked against
// the server (lib/push-device.ts keepDevicePushCurrent).
import { useEffect } from 'react';
import { useOpenUrlFromWorker, useRefreshOnPush } from '../api/notifications';

export function NotificationsBackground({ userId }: { userId: number }) {
  useRefreshOnPush();
  useOpenUrlFromWorker();
  useEffect(() => {
    void import('@/lib/push-device')
      .then((push) => push.keepDevicePushCurrent(userId))
      .catch((error: unknown) => {
        // Not fatal: the profile's section shows the device's state and can turn it on again.
        console.warn('Could not check this device for notifications', error);
      });
  }, [userId]);
  return null;
}
