// Roles administration (issue 11): GET/POST /api/admin/roles, PATCH/DELETE …/:id.
import {
  roleDeleteResponseSchema,
  roleSchema,
  type Role,
  type RoleCreateInput,
  type RoleUpdateInput,
} from '@rescuelog/sync-protocol/accounts/roles';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { sendJson } from '@/lib/api-client';
import { ROLES_PATH, rolesQuery } from '@/lib/roles-query';

export const ADMIN_ROLES_KEY = ROLES_PATH;
const roleResponseSchema = z.object({ role: roleSchema });

/** GET /api/admin/roles, the entry User Management reads too (the whole answer is cached). */
export function useRoles() {
  return useQuery({ ...rolesQuery, select: (answer): Role[] => answer.roles, staleTime: 0 });
}

export type RoleChange =
  | { kind: 'create'; input: RoleCreateInput }
  | { kind: 'update'; id: number; input: RoleUpdateInput };

export function useSaveRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: RoleChange) =>
      change.kind === 'create'
        ? sendJson('POST', ADMIN_ROLES_KEY, roleResponseSchema, change.input)
        : sendJson('PATCH', `${ADMIN_ROLES_KEY}/${change.id}`, roleResponseSchema, change.input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_ROLES_KEY] }),
  });
}

export function useDeleteRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reassignTo }: { id: number; reassignTo?: number | undefined }) =>
      sendJson(
        'DELETE',
        `${ADMIN_ROLES_KEY}/${id}${reassignTo === undefined ? '' : `?reassignTo=${reassignTo}`}`,
        roleDeleteResponseSchema,
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [ADMIN_ROLES_KEY] }),
  });
}
