// System settings over real HTTP (issue 11): administrators read and change them, each
// change validated (400 SETTING_INVALID, nothing written) and audited with before and after;
// devices read the public subset; a second instance sees a change within its cache time;
// the sign-in rate limit and the service time zone follow the settings without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type SystemSettings } from '@rescuelog/sync-protocol/settings';
import {
  DEFAULT_SERVICE_TIME_ZONE,
  serviceTimeZone,
  setServiceTimeZone,
} from '@rescuelog/sync-protocol/time';
import { build, loginAs, type TestApp, type TestClient, type TestUser } from './helpers';

interface ErrorBody {
  error: string;
  code: string;
  fieldErrors?: Record<string, string[]>;
}
interface SettingsBody {
  settings: SystemSettings;
  updatedAt: string | null;
}

describe('system settings', () => {
  let t: TestApp;
  let admin: TestUser;
  let client: TestClient;

  beforeAll(async () => {
    t = await build({ settingsCacheTtlMs: 200 });
    admin = await t.createUser({ role: 'administrator', status: 'approved' });
    client = await loginAs(t, admin);
  });
  afterAll(async () => {
    await t.close();
    setServiceTimeZone(DEFAULT_SERVICE_TIME_ZONE);
  });

  const patch = (json: unknown, c: TestClient = client) =>
    c.request('PATCH', '/api/admin/settings', { json });
  const auditRows = () =>
    t.db.selectFrom('auditLog').selectAll().where('action', '=', 'settings.update').execute();
  const storedRows = () => t.db.selectFrom('systemSettings').selectAll().execute();

  it('start with the defaults, for administrators only', async () => {
    const res = await client.get('/api/admin/settings');
    expect(res.status).toBe(200);
    expect((await res.json()) as SettingsBody).toEqual({
      settings: DEFAULT_SETTINGS,
      updatedAt: null,
    });

    const member = await loginAs(t, await t.createUser({ status: 'approved' }));
    expect((await member.get('/api/admin/settings')).status).toBe(403);
    const refused = await patch({ organisationName: 'Hijacked' }, member);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as ErrorBody).code).toBe('ADMIN_REQUIRED');
    expect(await storedRows()).toEqual([]);
  });

  it('refuse an administrator whose permissions withhold systemAdmin', async () => {
    const other = await t.createUser({ role: 'administrator', status: 'approved' });
    await t.db
      .updateTable('users')
      .set({ permissions: JSON.stringify({ systemAdmin: false }) })
      .where('id', '=', other.row.id)
      .execute();
    const res = await patch({ organisationName: 'Nope' }, await loginAs(t, other));
    expect(res.status).toBe(403);
    expect(((await res.json()) as ErrorBody).code).toBe('FORBIDDEN');
  });

  it.each([
    [
      { cprMetronomeRate: 200 },
      'cprMetronomeRate',
      'Metronome rate must be a whole number from 100 to 120 per minute',
    ],
    [
      { sessionInactivityMinutes: 1 },
      'sessionInactivityMinutes',
      'Inactivity timeout must be a whole number from 5 to 1440 minutes',
    ],
    [
      { uploadMaxFileMiB: 50 },
      'uploadMaxFileMiB',
      'Largest upload must be a whole number from 1 to 10 MiB',
    ],
    [
      { dataRetentionYears: 2 },
      'dataRetentionYears',
      'Retention period must be a whole number from 6 to 100 years',
    ],
    [
      { serviceTimeZone: 'Mars/Olympus_Mons' },
      'serviceTimeZone',
      'Unknown time zone; use a name like Africa/Johannesburg',
    ],
    [{ organisationName: '  ' }, 'organisationName', 'Organisation name is required'],
    [
      { cprAdrenalineIntervalMinutes: 4.5 },
      'cprAdrenalineIntervalMinutes',
      'Adrenaline interval must be a whole number from 3 to 5 minutes',
    ],
    [{ launchCodes: 1 }, '_', "Unknown setting: 'launchCodes'"],
    [
      { sessionInactivityMinutes: 600, sessionAbsoluteHours: 2 },
      'sessionAbsoluteHours',
      'Session lifetime must be at least as long as the inactivity timeout',
    ],
    [
      { defaultRoleId: 999999 },
      'defaultRoleId',
      'That role does not exist; choose another default role',
    ],
  ])('refuse %j with SETTING_INVALID and change nothing', async (body, field, message) => {
    const res = await patch(body);
    expect(res.status).toBe(400);
    const error = (await res.json()) as ErrorBody;
    expect(error.code).toBe('SETTING_INVALID');
    expect(error.fieldErrors?.[field]).toContain(message);
    expect(await storedRows()).toEqual([]);
    expect(await auditRows()).toEqual([]);
  });

  it('change, audited with who, before and after; devices read the public part', async () => {
    const res = await patch({
      organisationName: 'Hillcrest Rescue',
      cprMetronomeRate: 112,
      loginAttemptsPerEmail: 5,
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as SettingsBody;
    expect(body.settings).toMatchObject({
      organisationName: 'Hillcrest Rescue',
      cprMetronomeRate: 112,
      loginAttemptsPerEmail: 5,
      serviceTimeZone: DEFAULT_SERVICE_TIME_ZONE,
    });
    expect(body.updatedAt).not.toBeNull();

    const [entry, ...more] = await auditRows();
    expect(more).toEqual([]);
    expect(entry?.actorUserId).toBe(admin.row.id);
    expect(entry?.details).toEqual({
      keys: ['organisationName', 'loginAttemptsPerEmail', 'cprMetronomeRate'],
      before: { organisationName: 'RescueLog', cprMetronomeRate: 110, loginAttemptsPerEmail: 10 },
      after: {
        organisationName: 'Hillcrest Rescue',
        cprMetronomeRate: 112,
        loginAttemptsPerEmail: 5,
      },
    });

    // The same values again are not a change: no new audit entry.
    expect((await patch({ organisationName: 'Hillcrest Rescue' })).status).toBe(200);
    expect(await auditRows()).toHaveLength(1);

    const member = await loginAs(t, await t.createUser({ status: 'approved' }));
    const pub = (await (await member.get('/api/settings')).json()) as { settings: object };
    expect(pub.settings).toEqual({
      organisationName: 'Hillcrest Rescue',
      organisationLogoUrl: null,
      serviceTimeZone: DEFAULT_SERVICE_TIME_ZONE,
      cprMetronomeRate: 112,
      cprAdrenalineIntervalMinutes: 4,
      cprDefaultShockEnergyJoules: 150,
      uploadMaxFileMiB: 10,
      uploadMaxCertifications: 5,
      inventoryExpiryWindowDays: 30,
    });
  });

  it('the sign-in limit per account follows the setting without a restart', async () => {
    // loginAttemptsPerEmail is 5 since the test above.
    const target = await t.createUser({ status: 'approved' });
    const anonymous = t.client();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await anonymous.post('/api/login', {
        email: target.email,
        password: 'wrong one',
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('another instance on the same database sees a change within its cache time', async () => {
    const second = await build({
      database: { db: t.db, close: async () => {} },
      settingsCacheTtlMs: 300,
    });
    try {
      const member = await loginAs(second, await second.createUser({ status: 'approved' }));
      const read = async () =>
        ((await (await member.get('/api/settings')).json()) as { settings: SystemSettings })
          .settings.organisationName;
      expect(await read()).toBe('Hillcrest Rescue');
      expect((await patch({ organisationName: 'Valley Rescue' })).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(await read()).toBe('Valley Rescue');
    } finally {
      await second.close();
    }
  });

  it('the service time zone follows the setting (times and stats boundaries use it)', async () => {
    expect((await patch({ serviceTimeZone: 'Europe/London' })).status).toBe(200);
    await client.get('/api/settings');
    expect(serviceTimeZone()).toBe('Europe/London');
    expect((await patch({ serviceTimeZone: DEFAULT_SERVICE_TIME_ZONE })).status).toBe(200);
    await client.get('/api/settings');
    expect(serviceTimeZone()).toBe(DEFAULT_SERVICE_TIME_ZONE);
  });
});
