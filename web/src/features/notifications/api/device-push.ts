// This device's push state for the offer card and the profile section: one query, so both
// show the same thing, and the actions that change it (lib/push-device.ts does the work).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  disableDevicePush,
  enableDevicePush,
  readDevicePush,
  sendTestPush,
  type DevicePushState,
} from '@/lib/push-device';

export const devicePushKey = (userId: number) => ['device-push', userId] as const;

export function useDevicePush(userId: number) {
  return useQuery({
    queryKey: devicePushKey(userId),
    queryFn: (): Promise<DevicePushState> => readDevicePush(userId),
    staleTime: 0,
  });
}

export function useTurnOnPush(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => enableDevicePush(userId),
    onSuccess: (state) => queryClient.setQueryData(devicePushKey(userId), state),
  });
}

export function useTurnOffPush(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      await disableDevicePush();
      return readDevicePush(userId);
    },
    onSuccess: (state) => queryClient.setQueryData(devicePushKey(userId), state),
  });
}

export function useSendTestPush() {
  return useMutation({ mutationFn: sendTestPush });
}

/** What a turned-down permission means, said plainly. */
export const PERMISSION_MESSAGES = {
  denied:
    'Notifications are blocked for RescueLog in this browser. To get alerts while the app is closed, allow notifications for this site in the browser settings, then turn them on here.',
  default:
    "Notifications stay off: the browser's question was closed without an answer. Turn them on again to be asked once more.",
} as const;

export const UNAVAILABLE_MESSAGES = {
  'no-push-api':
    'This browser cannot receive notifications while RescueLog is closed. New notifications still show on the bell while the app is open.',
  'no-worker':
    "Notifications need RescueLog's offline support (its service worker), which is not running in this browser. New notifications still show on the bell while the app is open.",
} as const;
