// System settings (issue 11, decision 021): `fastify.settings.get()` answers from a copy at
// most SETTINGS_CACHE_TTL_MS old and re-reads `system_settings` after that, so a change made on
// one instance reaches every other one within the TTL, without a restart. Each read also
// sets the zone sync-protocol/time.ts formats in, so stats boundaries, search filters and
// every formatted time follow the configured zone.
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import type { Database, JsonValue } from '@rescuelog/db/schema';
import {
  SETTINGS_CACHE_TTL_MS,
  settingsFromStored,
  type SettingKey,
  type SettingsPatch,
  type SystemSettings,
} from '@rescuelog/sync-protocol/settings';
import { setServiceTimeZone } from '@rescuelog/sync-protocol/time';

export interface StoredSettings {
  settings: SystemSettings;
  /** The latest change to any setting, or null when none was ever written. */
  updatedAt: Date | null;
}

export interface SettingsService {
  /** The current settings (cached for at most the TTL). */
  get(): Promise<SystemSettings>;
  /** The cached copy while it is within the TTL, synchronously; otherwise undefined (use get()). */
  peek(): SystemSettings | undefined;
  /** The settings and when they last changed, read from the database now. */
  read(): Promise<StoredSettings>;
  /**
   * Writes the given keys in `trx` (the caller validated the merged result) and drops this
   * instance's copy, so its next request sees the change at once.
   */
  write(
    trx: Transaction<Database>,
    patch: SettingsPatch,
    actorUserId: number,
  ): Promise<SettingKey[]>;
  invalidate(): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    settings: SettingsService;
  }
}

export async function readSettings(
  db: Kysely<Database> | Transaction<Database>,
): Promise<StoredSettings> {
  const rows = await db
    .selectFrom('systemSettings')
    .select(['key', 'value', 'updatedAt'])
    .execute();
  const stored: Record<string, unknown> = {};
  let updatedAt: Date | null = null;
  for (const row of rows) {
    stored[row.key] = row.value;
    if (updatedAt === null || row.updatedAt > updatedAt) updatedAt = row.updatedAt;
  }
  return { settings: settingsFromStored(stored), updatedAt };
}

export const settingsPlugin = fp<{ ttlMs?: number | undefined }>(
  async (fastify, options) => {
    const ttlMs = options.ttlMs ?? SETTINGS_CACHE_TTL_MS;
    let cached: { settings: SystemSettings; readAt: number } | undefined;
    let loading: Promise<SystemSettings> | undefined;

    async function load(): Promise<SystemSettings> {
      const { settings } = await readSettings(fastify.db);
      setServiceTimeZone(settings.serviceTimeZone);
      cached = { settings, readAt: Date.now() };
      return settings;
    }

    const fresh = (): SystemSettings | undefined =>
      cached && Date.now() - cached.readAt < ttlMs ? cached.settings : undefined;

    const service: SettingsService = {
      peek: fresh,
      async get() {
        const current = fresh();
        if (current) return current;
        // One read at a time, however many requests arrive when the copy expires.
        loading ??= load().finally(() => {
          loading = undefined;
        });
        try {
          return await loading;
        } catch (error) {
          // The database is briefly unreachable: the last known settings beat failing every
          // request (sessions, rate limits); the request's own query reports the outage.
          if (cached) return cached.settings;
          throw error;
        }
      },
      read: () => readSettings(fastify.db),
      async write(trx, patch, actorUserId) {
        const keys = (Object.keys(patch) as SettingKey[]).filter((k) => patch[k] !== undefined);
        for (const key of keys) {
          const value = JSON.stringify(patch[key] as JsonValue);
          await trx
            .insertInto('systemSettings')
            .values({ key, value, updatedBy: actorUserId })
            .onConflict((oc) =>
              oc
                .column('key')
                .doUpdateSet({ value, updatedBy: actorUserId, updatedAt: new Date() }),
            )
            .execute();
        }
        cached = undefined;
        return keys;
      },
      invalidate() {
        cached = undefined;
      },
    };
    fastify.decorate('settings', service);
    // Read once at start so the first request's times are already in the configured zone,
    // then refreshed when a request finds the copy stale: code that formats times or computes
    // day boundaries reads the zone synchronously.
    fastify.addHook('onReady', async () => {
      await service.get();
    });
    fastify.addHook('onRequest', (_request, _reply, done) => {
      // Never holds a request up (health checks must answer while the database is down): a
      // stale copy starts a refresh in the background; whoever needs a value awaits get().
      // (A callback hook: no promise per request on the hot path.)
      if (!fresh())
        service.get().catch((error: unknown) => {
          fastify.log.warn({ err: error }, 'system settings could not be read');
        });
      done();
    });
  },
  { name: 'settings', dependencies: ['database'] },
);
