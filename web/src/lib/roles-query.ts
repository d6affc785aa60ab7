// GET /api/admin/roles as one query entry: User Management, Roles, System Settings and the
// notification composer all read it, so they must agree on what the entry holds (the whole
// answer: the roles and the role an approval gives by default, decision 059). Each screen
// picks what it needs with `select`.
import { roleListResponseSchema } from '@rescuelog/sync-protocol/accounts/roles';
import { queryOptions } from '@tanstack/react-query';
import { getJson } from './api-client';

export const ROLES_PATH = '/api/admin/roles';

export const rolesQuery = queryOptions({
  queryKey: [ROLES_PATH],
  queryFn: ({ signal }) => getJson(ROLES_PATH, roleListResponseSchema, signal),
  staleTime: 30_000,
});
