// System settings for administrators (issue 11): GET/PATCH /api/admin/settings.
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import {
  adminSettingsResponseSchema,
  type SettingsPatch,
  type SystemSettings,
} from '@rescuelog/sync-protocol/settings';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '@/lib/api-client';
import { SETTINGS_QUERY_KEY } from '@/lib/service-settings';
import { rolesQuery } from '@/lib/roles-query';

export const ADMIN_SETTINGS_KEY = '/api/admin/settings';

export function useSystemSettings() {
  return useQuery({
    queryKey: [ADMIN_SETTINGS_KEY],
    queryFn: async ({ signal }): Promise<{ settings: SystemSettings; updatedAt: string | null }> =>
      getJson(ADMIN_SETTINGS_KEY, adminSettingsResponseSchema, signal),
    staleTime: 0,
  });
}

export function useRoleChoices() {
  return useQuery({ ...rolesQuery, select: (answer): Role[] => answer.roles });
}

export function useSaveSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (patch: SettingsPatch) =>
      sendJson('PATCH', ADMIN_SETTINGS_KEY, adminSettingsResponseSchema, patch),
    onSuccess: (data) => {
      queryClient.setQueryData([ADMIN_SETTINGS_KEY], data);
      // The device's own copy (time zone, CPR defaults) follows at once.
      void queryClient.invalidateQueries({ queryKey: SETTINGS_QUERY_KEY });
    },
  });
}
