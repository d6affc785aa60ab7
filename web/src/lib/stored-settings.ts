// The device's copy of the service's settings (written by lib/service-settings.ts), parsed
// with the settings schema before use. Kept apart from service-settings.ts, which every page
// loads, so that zod is only part of the screens that read the whole copy.
import { publicSettingsSchema, type PublicSettings } from '@rescuelog/sync-protocol/settings';
import { STORED_SETTINGS_KEY } from './service-settings';

export function readStoredSettings(): PublicSettings | null {
  try {
    const raw = localStorage.getItem(STORED_SETTINGS_KEY);
    if (raw === null) return null;
    const parsed = publicSettingsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
