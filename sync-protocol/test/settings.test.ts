import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SETTINGS,
  SETTING_KEYS,
  settingsCrossFieldIssues,
  settingsFromStored,
  settingsPatchSchema,
  toPublicSettings,
} from '../src/settings';

describe('system settings schema', () => {
  it('has a default and a label-worthy message for every setting', () => {
    expect(Object.keys(DEFAULT_SETTINGS).sort()).toEqual([...SETTING_KEYS].sort());
    expect(DEFAULT_SETTINGS.serviceTimeZone).toBe('Africa/Johannesburg');
    expect(DEFAULT_SETTINGS.uploadMaxFileMiB).toBe(10);
  });

  it('reads stored values one by one: an unreadable one falls back to its default', () => {
    const settings = settingsFromStored({
      organisationName: 'Hillcrest Rescue',
      cprMetronomeRate: 999,
      serviceTimeZone: 'Nowhere/Atlantis',
      strayOldKey: true,
    });
    expect(settings.organisationName).toBe('Hillcrest Rescue');
    expect(settings.cprMetronomeRate).toBe(110);
    expect(settings.serviceTimeZone).toBe('Africa/Johannesburg');
    expect(settings).not.toHaveProperty('strayOldKey');
  });

  it('patches: any subset, no defaults filled in, unknown keys and bad values refused', () => {
    expect(settingsPatchSchema.parse({ cprMetronomeRate: 100 })).toEqual({ cprMetronomeRate: 100 });
    expect(settingsPatchSchema.parse({ defaultRoleId: null })).toEqual({ defaultRoleId: null });
    expect(settingsPatchSchema.safeParse({}).error?.issues[0]?.message).toBe('Nothing to change');
    expect(settingsPatchSchema.safeParse({ colour: 'red' }).error?.issues[0]?.message).toBe(
      "Unknown setting: 'colour'",
    );
    expect(settingsPatchSchema.safeParse({ organisationName: null }).success).toBe(false);
    expect(settingsPatchSchema.safeParse({ uploadMaxFileMiB: 11 }).success).toBe(false);
  });

  it('checks that a session lives at least as long as its inactivity timeout', () => {
    expect(settingsCrossFieldIssues(DEFAULT_SETTINGS)).toEqual([]);
    expect(
      settingsCrossFieldIssues({
        ...DEFAULT_SETTINGS,
        sessionInactivityMinutes: 180,
        sessionAbsoluteHours: 2,
      }),
    ).toEqual([
      {
        path: 'sessionAbsoluteHours',
        message: 'Session lifetime must be at least as long as the inactivity timeout',
      },
    ]);
  });

  it('gives devices no security settings', () => {
    const pub = toPublicSettings(DEFAULT_SETTINGS);
    expect(pub).not.toHaveProperty('loginAttemptsPerEmail');
    expect(pub).not.toHaveProperty('sessionInactivityMinutes');
    expect(pub).not.toHaveProperty('defaultRoleId');
    expect(pub.serviceTimeZone).toBe('Africa/Johannesburg');
  });
});
