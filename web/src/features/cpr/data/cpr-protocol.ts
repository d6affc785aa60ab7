// The CPR settings this device follows: the service's (System Settings, read from the server
// and kept on the device), else the defaults of domain.md.
import { DEFAULT_SETTINGS } from '@rescuelog/sync-protocol/settings';
import { useServiceSettings } from '@/lib/service-settings';
import { readStoredSettings } from '@/lib/stored-settings';

export interface CprSettings {
  metronomeRate: number;
  adrenalineIntervalMinutes: number;
  defaultShockEnergyJoules: number;
}

export function useCprSettings(): CprSettings {
  const { data } = useServiceSettings();
  const settings = data ?? readStoredSettings() ?? DEFAULT_SETTINGS;
  return {
    metronomeRate: settings.cprMetronomeRate,
    adrenalineIntervalMinutes: settings.cprAdrenalineIntervalMinutes,
    defaultShockEnergyJoules: settings.cprDefaultShockEnergyJoules,
  };
}
