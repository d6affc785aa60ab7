// The service's public settings (GET /api/settings): the time zone every time is shown in,
// the organisation's name and logo, CPR defaults and upload limits. The last answer is kept on
// the device, so an app started without signal still shows times in the service's zone; a
// change reaches a device at its next start or when the settings are read again (every
// 5 minutes while signed in).
// The schemas come from their own chunk (lib/boundary-schemas.ts, lib/stored-settings.ts),
// so this module, which every page loads, does not bring zod into the first render.
import type { PublicSettings } from '@rescuelog/sync-protocol/settings';
import { setServiceTimeZone } from '@rescuelog/sync-protocol/time';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { boundarySchemas, getJson } from './api-client';
import { useUser } from './auth';

// The organisation's name heads the handover (screen and PDF: case-record-view.tsx); read
// settings with useServiceSettings() (or readStoredSettings() offline).
export const SETTINGS_QUERY_KEY = ['/api/settings'] as const;
export const STORED_SETTINGS_KEY = 'rescuelog.settings';
const STORED_KEY = STORED_SETTINGS_KEY;

function apply(settings: PublicSettings): void {
  setServiceTimeZone(settings.serviceTimeZone);
  try {
    localStorage.setItem(STORED_KEY, JSON.stringify(settings));
  } catch {
    // Storage disabled: the zone still applies for this session.
  }
}

/**
 * Called once at start, before the first render: the zone the device last heard of. Only that
 * one field is used here, and setServiceTimeZone accepts nothing but a time zone the platform
 * knows (anything else is ignored); the whole copy is parsed where it is read
 * (lib/stored-settings.ts).
 */
export function applyStoredSettings(): void {
  try {
    const raw = localStorage.getItem(STORED_KEY);
    if (raw === null) return;
    const stored: unknown = JSON.parse(raw);
    if (typeof stored !== 'object' || stored === null || !('serviceTimeZone' in stored)) return;
    const zone = stored.serviceTimeZone;
    if (typeof zone === 'string') setServiceTimeZone(zone);
  } catch {
    // Storage disabled or an unreadable copy: the device's own zone until the server answers.
  }
}

export function useServiceSettings() {
  const { data: user } = useUser();
  return useQuery({
    queryKey: SETTINGS_QUERY_KEY,
    queryFn: async ({ signal }): Promise<PublicSettings> =>
      (
        await getJson(
          '/api/settings',
          () => boundarySchemas().then((s) => s.publicSettingsResponseSchema),
          signal,
        )
      ).settings,
    enabled: Boolean(user),
    staleTime: 5 * 60_000,
    refetchInterval: 5 * 60_000,
  });
}

/** Keeps the device's copy of the settings current while someone is signed in. */
export function ServiceSettingsSync() {
  const { data } = useServiceSettings();
  useEffect(() => {
    if (data) apply(data);
  }, [data]);
  return null;
}
