// System settings (issue 11, /system-settings): what an administrator may change without a
// restart, each with its range and the message a form and the API show. Stored one row per
// key in `system_settings`; a key never written uses the default below. The API re-reads
// them at most SETTINGS_CACHE_TTL_MS after a change on another instance (decision 021).
import { z } from 'zod';
import { objectUrlSchema } from './accounts/uploads';
import { DEFAULT_SERVICE_TIME_ZONE, isValidTimeZone } from './time';
import './zod-config';

/** How long an API instance trusts its copy of the settings: every instance agrees within it. */
export const SETTINGS_CACHE_TTL_MS = 15_000;

function whole(label: string, min: number, max: number, unit = '') {
  const message = `${label} must be a whole number from ${String(min)} to ${String(max)}${unit}`;
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
}

/** Each setting with its default. Flat keys: one row, one audit line, one form field each. */
export const settingFields = {
  organisationName: z
    .string({ error: 'Organisation name is required' })
    .trim()
    .min(1, 'Organisation name is required')
    .max(100, 'Organisation name must be at most 100 characters')
    .default('RescueLog'),
  /** An uploaded image (POST /api/objects/upload) printed on reports; null: no logo. */
  organisationLogoUrl: objectUrlSchema.nullable().default(null),
  serviceTimeZone: z
    .string({ error: 'Choose a time zone' })
    .trim()
    .refine(isValidTimeZone, 'Unknown time zone; use a name like Africa/Johannesburg')
    .default(DEFAULT_SERVICE_TIME_ZONE),
  /** The role an approval picks unless the administrator chooses another; null: Responder (decision 059). */
  defaultRoleId: z
    .number({ error: 'Choose a role' })
    .int('Choose a role')
    .positive('Choose a role')
    .nullable()
    .default(null),
  /** Whether the first account on an empty system becomes its administrator; null: FIRST_USER_ADMIN. */
  firstUserAdmin: z.boolean({ error: 'Choose on or off' }).nullable().default(null),
  sessionInactivityMinutes: whole('Inactivity timeout', 5, 1440, ' minutes').default(720),
  sessionAbsoluteHours: whole('Session lifetime', 1, 720, ' hours').default(168),
  /** Failed sign-ins an (email, address) pair makes before it must wait (decision 022). */
  loginAttemptsPerEmail: whole('Sign-in attempts per account', 3, 100).default(10),
  loginAttemptsPerIp: whole('Sign-in attempts per address', 10, 1000).default(50),
  /** The per-address window, and the longest wait a failing pair can reach (decision 022). */
  loginWindowMinutes: whole('Sign-in window', 1, 1440, ' minutes').default(15),
  registrationsPerIpPerHour: whole('Registrations per address', 1, 1000).default(10),
  cprMetronomeRate: whole('Metronome rate', 100, 120, ' per minute').default(110),
  cprAdrenalineIntervalMinutes: whole('Adrenaline interval', 3, 5, ' minutes').default(4),
  cprDefaultShockEnergyJoules: whole('Default shock energy', 50, 360, ' J').default(150),
  uploadMaxFileMiB: whole('Largest upload', 1, 10, ' MiB').default(10),
  uploadMaxCertifications: whole('Certification files', 1, 5).default(5),
  /** How long clinical records are kept after their last change (HPCSA: at least 6 years). */
  dataRetentionYears: whole('Retention period', 6, 100, ' years').default(7),
  /** A batch expiring within this many days is flagged "expires soon" (issue 38). */
  inventoryExpiryWindowDays: whole('Expiry warning', 1, 365, ' days').default(30),
};

export type SettingKey = keyof typeof settingFields;
export const SETTING_KEYS = Object.keys(settingFields) as SettingKey[];

export const systemSettingsSchema = z.object(settingFields);
export type SystemSettings = z.output<typeof systemSettingsSchema>;

export const DEFAULT_SETTINGS: SystemSettings = systemSettingsSchema.parse({});

const CROSS_FIELD_MESSAGE = 'Session lifetime must be at least as long as the inactivity timeout';

/** Rules between settings, checked on the merged result of a change. */
export function settingsCrossFieldIssues(
  settings: SystemSettings,
): Array<{ path: SettingKey; message: string }> {
  return settings.sessionAbsoluteHours * 60 < settings.sessionInactivityMinutes
    ? [{ path: 'sessionAbsoluteHours', message: CROSS_FIELD_MESSAGE }]
    : [];
}

/**
 * PATCH /api/admin/settings: any subset of the settings, no defaults filled in, unknown keys
 * refused. `null` is a value only where the setting allows it.
 */
export const settingsPatchSchema = z
  .strictObject(
    Object.fromEntries(
      SETTING_KEYS.map((key) => [key, settingFields[key].removeDefault().optional()]),
    ) as {
      [K in SettingKey]: z.ZodOptional<ReturnType<(typeof settingFields)[K]['removeDefault']>>;
    },
    {
      error: (iss) =>
        iss.code === 'unrecognized_keys'
          ? `Unknown setting: ${iss.keys.map((k) => `'${k}'`).join(', ')}`
          : undefined,
    },
  )
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change' });
export type SettingsPatch = z.output<typeof settingsPatchSchema>;

/**
 * Reads stored rows: each key parsed alone, so one unreadable value (written by an older
 * version, or by hand) falls back to its default instead of hiding every other setting.
 */
export function settingsFromStored(stored: Record<string, unknown>): SystemSettings {
  const out: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const parsed = settingFields[key].safeParse(stored[key]);
    out[key] = parsed.success ? parsed.data : DEFAULT_SETTINGS[key];
  }
  return out as SystemSettings;
}

export const adminSettingsResponseSchema = z.object({
  settings: systemSettingsSchema,
  updatedAt: z.string().nullable(),
});

/** What every signed-in device reads (GET /api/settings): no security settings. */
export const publicSettingsSchema = systemSettingsSchema.pick({
  organisationName: true,
  organisationLogoUrl: true,
  serviceTimeZone: true,
  cprMetronomeRate: true,
  cprAdrenalineIntervalMinutes: true,
  cprDefaultShockEnergyJoules: true,
  uploadMaxFileMiB: true,
  uploadMaxCertifications: true,
  inventoryExpiryWindowDays: true,
});
export type PublicSettings = z.output<typeof publicSettingsSchema>;
export const publicSettingsResponseSchema = z.object({ settings: publicSettingsSchema });

export function toPublicSettings(settings: SystemSettings): PublicSettings {
  return publicSettingsSchema.parse(settings);
}

export const SETTING_LABELS: Record<SettingKey, string> = {
  organisationName: 'Organisation name',
  organisationLogoUrl: 'Logo on reports',
  serviceTimeZone: 'Service time zone',
  defaultRoleId: 'Default role for new members',
  firstUserAdmin: 'First account becomes administrator',
  sessionInactivityMinutes: 'Sign out after inactivity (minutes)',
  sessionAbsoluteHours: 'Longest session (hours)',
  loginAttemptsPerEmail: 'Failed sign-ins per account and address before a wait',
  loginAttemptsPerIp: 'Sign-in attempts per network address',
  loginWindowMinutes: 'Sign-in window and longest wait (minutes)',
  registrationsPerIpPerHour: 'Registrations per network address per hour',
  cprMetronomeRate: 'Metronome rate (per minute)',
  cprAdrenalineIntervalMinutes: 'Adrenaline interval (minutes)',
  cprDefaultShockEnergyJoules: 'Default shock energy (J)',
  uploadMaxFileMiB: 'Largest upload (MiB)',
  uploadMaxCertifications: 'Certification files per member',
  dataRetentionYears: 'Keep clinical records (years)',
  inventoryExpiryWindowDays: 'Warn of expiring stock (days ahead)',
};

export { CROSS_FIELD_MESSAGE as SESSION_LIFETIME_MESSAGE };
