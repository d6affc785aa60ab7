// The service's public settings (GET /api/settings): the time zone every time is shown in,
// the organisation's name and logo, CPR defaults and upload limits. The last answer is kept on
// the device, so an app started without signal still shows times in the service's zone; a
// change reaches a device at its next start or when the settings are read again (every
// 5 minutes while signed in).
import {
  publicSettingsResponseSchema,
  publicSettingsSchema,
  type PublicSettings,
} from '@rescuelog/sync-protocol/settings';
import { setServiceTimeZone } from '@rescuelog/sync-protocol/time';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getJson } from './api-client';
import { useUser } from './auth';

// The organisation's name heads the handover (screen and PDF: case-record-view.tsx); read
// settings with useServiceSettings() (or readStoredSettings() offline).
export const SETTINGS_QUERY_KEY = ['/api/settings'] as const;
const STORED_KEY = 'rescuelog.settings';

export function readStoredSettings(): PublicSettings | null {
  try {
    const raw = localStorage.getItem(STORED_KEY);
    if (raw === null) return null;
    const parsed = publicSettingsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function apply(settings: PublicSettings): void {
  setServiceTimeZone(settings.serviceTimeZone);
  try {
    localStorage.setItem(STORED_KEY, JSON.stringify(settings));
  } catch {
    // Storage disabled: the zone still applies for this session.
  }
}

/** Called once at start, before the first render: the zone the device last heard of. */
export function applyStoredSettings(): void {
  const stored = readStoredSettings();
  if (stored) setServiceTimeZone(stored.serviceTimeZone);
}

export function useServiceSettings() {
  const { data: user } = useUser();
  return useQuery({
    queryKey: SETTINGS_QUERY_KEY,
    queryFn: async ({ signal }): Promise<PublicSettings> =>
      (await getJson('/api/settings', publicSettingsResponseSchema, signal)).settings,
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
