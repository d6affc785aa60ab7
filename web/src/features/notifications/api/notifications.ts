import {
  markAllReadResponseSchema,
  notificationListSchema,
  unreadCountSchema,
} from '@rescuelog/sync-protocol/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { errorMessage, parsedQuery, sendJson } from '@/lib/api-client';
import { onServiceWorkerMessage } from '@/lib/pwa-register';

export const NOTIFICATIONS_POLL_MS = 30_000;
export const UNREAD_COUNT_KEY = ['/api/user/notifications/unread-count'] as const;
export const UNREAD_LIST_KEY = ['/api/user/notifications/unread'] as const;
export const READ_LIST_KEY = ['/api/user/notifications/read'] as const;

export function useUnreadCount() {
  return useQuery({
    queryKey: UNREAD_COUNT_KEY,
    queryFn: parsedQuery(unreadCountSchema),
    refetchInterval: NOTIFICATIONS_POLL_MS,
    select: (d: { count: number }) => d.count,
  });
}

/** The dialog's lists: fetched only while it is open, refreshed every 30 s (spec §7). */
export function useNotificationList(which: 'unread' | 'read', open: boolean) {
  return useQuery({
    queryKey: which === 'unread' ? UNREAD_LIST_KEY : READ_LIST_KEY,
    queryFn: parsedQuery(notificationListSchema),
    enabled: open,
    refetchInterval: open ? NOTIFICATIONS_POLL_MS : false,
    // Each opening shows the current lists, not what was there last time.
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** Closing the dialog marks everything read; a failure is only logged (spec §8). */
export function useMarkAllRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      sendJson('POST', '/api/user/notifications/mark-all-read', markAllReadResponseSchema),
    onSuccess: () => {
      queryClient.setQueryData(UNREAD_COUNT_KEY, { count: 0 });
      void queryClient.invalidateQueries({ queryKey: UNREAD_COUNT_KEY });
      void queryClient.invalidateQueries({ queryKey: UNREAD_LIST_KEY });
      void queryClient.invalidateQueries({ queryKey: READ_LIST_KEY });
    },
    onError: (error) => {
      console.warn('Failed to mark notifications as read', errorMessage(error));
    },
  });
}

/**
 * A push arrived while the app is open (the service worker's NOTIFICATION_RECEIVED): the
 * count and both lists are refetched at once instead of at the next 30 s poll. Lists not on
 * screen are marked stale and load fresh when the dialog opens.
 */
export function useRefreshOnPush(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onServiceWorkerMessage((message) => {
        if (message.type !== 'NOTIFICATION_RECEIVED') return;
        for (const queryKey of [UNREAD_COUNT_KEY, UNREAD_LIST_KEY, READ_LIST_KEY]) {
          void queryClient.invalidateQueries({ queryKey });
        }
      }),
    [queryClient],
  );
}

/**
 * A notification was clicked while the app is open (the worker's OPEN_URL): the app goes to
 * the notification's address with its own router, keeping its state, and tells the worker,
 * which otherwise navigates the window itself.
 */
export function useOpenUrlFromWorker(): void {
  const navigate = useNavigate();
  useEffect(
    () =>
      onServiceWorkerMessage((message, reply) => {
        if (message.type !== 'OPEN_URL') return;
        void navigate(message.path);
        reply({ type: 'URL_OPENED' });
      }),
    [navigate],
  );
}
