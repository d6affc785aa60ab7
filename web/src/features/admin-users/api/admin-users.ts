import {
  currentUserResponseSchema,
  userListResponseSchema,
  type AdminUserPatch,
  type UserStatus,
} from '@rescuelog/sync-protocol/accounts/users';
import { userDocumentsResponseSchema } from '@rescuelog/sync-protocol/accounts/uploads';
import type { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage, getJson, parsedQuery, sendJson } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { rolesQuery } from '@/lib/roles-query';

type UserDocumentsResponse = z.output<typeof userDocumentsResponseSchema>;

export type StatusFilter = UserStatus | 'all';

export const ADMIN_USERS_KEY = '/api/admin/users';

export function useAdminUsers(filter: StatusFilter) {
  return useQuery({
    queryKey: [ADMIN_USERS_KEY, filter],
    queryFn: ({ signal }) =>
      getJson(
        filter === 'all' ? ADMIN_USERS_KEY : `${ADMIN_USERS_KEY}?status=${filter}`,
        userListResponseSchema,
        signal,
      ),
    select: (d) => d.users,
    staleTime: 0,
  });
}

/** The roles an administrator can give and the one an approval gives by default
 * (GET /api/admin/roles; the Roles screen reads the same entry). */
export function useRoleOptions() {
  return useQuery(rolesQuery);
}

type UserAction =
  | { kind: 'approve'; id: number; roleId?: number | undefined }
  | { kind: 'suspend'; id: number }
  | { kind: 'patch'; id: number; patch: AdminUserPatch };

const SUCCESS_TEXT: Record<UserAction['kind'], string> = {
  approve: 'User approved',
  suspend: 'User suspended',
  patch: 'User updated',
};

export function useUserAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: UserAction) =>
      action.kind === 'patch'
        ? sendJson(
            'PATCH',
            `${ADMIN_USERS_KEY}/${action.id}`,
            currentUserResponseSchema,
            action.patch,
          )
        : sendJson(
            'POST',
            `${ADMIN_USERS_KEY}/${action.id}/${action.kind}`,
            currentUserResponseSchema,
            action.kind === 'approve' && action.roleId !== undefined
              ? { roleId: action.roleId }
              : undefined,
          ),
    onSuccess: ({ user }, action) => {
      toast({ title: SUCCESS_TEXT[action.kind], description: user.fullName || user.email });
      void queryClient.invalidateQueries({ queryKey: [ADMIN_USERS_KEY] });
      void queryClient.invalidateQueries({ queryKey: rolesQuery.queryKey });
    },
    onError: (error) => {
      toast({ title: 'Action failed', description: errorMessage(error), variant: 'destructive' });
    },
  });
}

/** GET /api/admin/users/:id/documents, fetched when the administrator opens the list. */
export function useUserDocuments(userId: number, enabled: boolean) {
  return useQuery({
    queryKey: [ADMIN_USERS_KEY, userId, 'documents'],
    queryFn: parsedQuery(userDocumentsResponseSchema),
    select: (d: UserDocumentsResponse) => d.documents,
    enabled,
    staleTime: 0,
  });
}
