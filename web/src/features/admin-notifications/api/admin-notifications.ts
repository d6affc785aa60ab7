// Notification administration (issue 16): what was sent and scheduled, one notification's
// failed deliveries, sending, cancelling a scheduled one and resending to those who failed.
// Targets come from the roles (GET /api/admin/roles) and the approved users.
import {
  adminNotificationDetailSchema,
  adminNotificationListSchema,
  adminNotificationResponseSchema,
  resendFailedResponseSchema,
  type AdminNotification,
  type NotificationCreateInput,
} from '@rescuelog/sync-protocol/notifications';
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import { userListResponseSchema, type User } from '@rescuelog/sync-protocol/accounts/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage, getJson, sendJson } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { rolesQuery } from '@/lib/roles-query';

export const ADMIN_NOTIFICATIONS_KEY = '/api/admin/notifications';
/** Figures change as devices report deliveries and clicks; scheduled ones go out on time. */
export const ADMIN_NOTIFICATIONS_REFRESH_MS = 30_000;

export function useAdminNotifications(enabled: boolean) {
  return useQuery({
    queryKey: [ADMIN_NOTIFICATIONS_KEY],
    queryFn: async ({ signal }): Promise<AdminNotification[]> =>
      (await getJson(ADMIN_NOTIFICATIONS_KEY, adminNotificationListSchema, signal)).notifications,
    enabled,
    staleTime: 0,
    refetchInterval: enabled ? ADMIN_NOTIFICATIONS_REFRESH_MS : false,
  });
}

export function useAdminNotificationDetail(id: number) {
  return useQuery({
    queryKey: [ADMIN_NOTIFICATIONS_KEY, id],
    queryFn: ({ signal }) =>
      getJson(`${ADMIN_NOTIFICATIONS_KEY}/${String(id)}`, adminNotificationDetailSchema, signal),
    staleTime: 0,
  });
}

/** The roles a notification can target (their `name` is what targetRoles holds). */
export function useTargetRoles(enabled: boolean) {
  return useQuery({ ...rolesQuery, select: (answer): Role[] => answer.roles, enabled });
}

/** The people a notification can reach: approved accounts. */
export function useTargetUsers(enabled: boolean) {
  return useQuery({
    // The same entry (and shape) as User Management's "Approved" filter.
    queryKey: ['/api/admin/users', 'approved'],
    queryFn: ({ signal }) =>
      getJson('/api/admin/users?status=approved', userListResponseSchema, signal),
    select: (d): User[] => d.users,
    enabled,
    staleTime: 30_000,
  });
}

export function useSendNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: NotificationCreateInput) =>
      sendJson('POST', ADMIN_NOTIFICATIONS_KEY, adminNotificationResponseSchema, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_NOTIFICATIONS_KEY] }),
  });
}

export function useCancelNotification() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      sendJson(
        'POST',
        `${ADMIN_NOTIFICATIONS_KEY}/${String(id)}/cancel`,
        adminNotificationResponseSchema,
      ),
    onSuccess: ({ notification }) => {
      toast({ title: 'Scheduled notification cancelled', description: notification.title });
      void queryClient.invalidateQueries({ queryKey: [ADMIN_NOTIFICATIONS_KEY] });
    },
    onError: (error) => {
      toast({
        title: 'Could not cancel',
        description: errorMessage(error),
        variant: 'destructive',
      });
      void queryClient.invalidateQueries({ queryKey: [ADMIN_NOTIFICATIONS_KEY] });
    },
  });
}

export function useResendFailed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (notification: AdminNotification) =>
      sendJson(
        'POST',
        `${ADMIN_NOTIFICATIONS_KEY}/${String(notification.id)}/resend-failed`,
        resendFailedResponseSchema,
      ),
    onSuccess: ({ requeued }, notification) => {
      toast({
        title: requeued > 0 ? 'Sending again' : 'Nothing to resend',
        description:
          requeued > 0
            ? `${notification.title}: ${String(requeued)} failed ${requeued === 1 ? 'delivery' : 'deliveries'} queued again.`
            : `${notification.title}: no failed deliveries are left.`,
      });
      void queryClient.invalidateQueries({ queryKey: [ADMIN_NOTIFICATIONS_KEY] });
    },
    onError: (error) => {
      toast({
        title: 'Could not resend',
        description: errorMessage(error),
        variant: 'destructive',
      });
    },
  });
}
