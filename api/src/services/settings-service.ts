// Changing system settings (issue 11): the patch is checked by its schema, then the merged
// result by the rules between settings and against the database (the default role must
// exist); any refusal is 400 SETTING_INVALID and nothing is written.
import { sql, type Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  settingsCrossFieldIssues,
  type SettingKey,
  type SettingsPatch,
  type SystemSettings,
} from '@rescuelog/sync-protocol/settings';
import { ApiError } from '../lib/api-error';
import { findRoleById } from '../repositories/roles-repository';
import { readSettings, type SettingsService } from '../plugins/external/settings';

export interface SettingsChange {
  keys: SettingKey[];
  before: Partial<SystemSettings>;
  after: Partial<SystemSettings>;
  settings: SystemSettings;
  updatedAt: Date | null;
}

const invalid = (key: string, message: string) =>
  new ApiError(400, ErrorCode.SETTING_INVALID, message, { fieldErrors: { [key]: [message] } });

export const DEFAULT_ROLE_MISSING = 'That role does not exist; choose another default role';

export async function updateSettings(
  db: Kysely<Database>,
  service: SettingsService,
  actorUserId: number,
  patch: SettingsPatch,
): Promise<SettingsChange> {
  return db.transaction().execute(async (trx) => {
    // One writer at a time: the rules between settings are checked on what is really there.
    await sql`lock table system_settings in share row exclusive mode`.execute(trx);
    const current = await readSettings(trx);
    const merged = { ...current.settings } as Record<SettingKey, unknown>;
    for (const [key, value] of Object.entries(patch)) {
      if (value !== undefined) merged[key as SettingKey] = value;
    }
    const next = merged as SystemSettings;
    const [crossField] = settingsCrossFieldIssues(next);
    if (crossField) throw invalid(crossField.path, crossField.message);
    if (
      patch.defaultRoleId !== undefined &&
      patch.defaultRoleId !== null &&
      (await findRoleById(trx, patch.defaultRoleId)) === undefined
    ) {
      throw invalid('defaultRoleId', DEFAULT_ROLE_MISSING);
    }
    const changed = (Object.keys(patch) as SettingKey[]).filter(
      (k) =>
        patch[k] !== undefined && JSON.stringify(patch[k]) !== JSON.stringify(current.settings[k]),
    );
    const changes = Object.fromEntries(changed.map((k) => [k, patch[k]])) as SettingsPatch;
    if (changed.length > 0) await service.write(trx, changes, actorUserId);
    const after = await readSettings(trx);
    return {
      keys: changed,
      before: Object.fromEntries(changed.map((k) => [k, current.settings[k]])),
      after: Object.fromEntries(changed.map((k) => [k, after.settings[k]])),
      settings: after.settings,
      updatedAt: after.updatedAt,
    };
  });
}
