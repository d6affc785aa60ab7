// Rate limits for login and registration (System Settings), counted in PostgreSQL (table `rate_limits`) so
// every API instance sees the same counters. Fixed windows: one upsert per attempt both
// counts and, when the window has passed, starts a new one.
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import type { RateLimitRule } from '@rescuelog/sync-protocol/server/env';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { ApiError } from '../../lib/api-error';

export type { RateLimitRule };

export interface RateLimitSettings {
  loginPerIp: RateLimitRule;
  /**
   * Not a window (decision 022): `max` failed sign-ins an (email, address) pair may make
   * before it waits, `windowSeconds` the longest wait (sign-in-throttle.ts). Never consumed.
   */
  loginPerEmail: RateLimitRule;
  registerPerIp: RateLimitRule;
  /** Push receipts (POST /api/notifications/receipts, no session) per client address. */
  pushReceiptsPerIp: RateLimitRule;
  /** Test pushes a user may ask for (POST /api/user/push-subscriptions/test). */
  pushTestPerUser: RateLimitRule;
}

/** What System Settings start with (sync-protocol/settings.ts has the same numbers). */
export const DEFAULT_RATE_LIMITS: RateLimitSettings = {
  // A crew shares one NAT address at a station: per IP is generous; failures per account
  // and address slow that pair down (1 s, 2 s, 4 s ... up to 15 minutes), never the account.
  loginPerIp: { max: 50, windowSeconds: 15 * 60 },
  loginPerEmail: { max: 10, windowSeconds: 15 * 60 },
  registerPerIp: { max: 10, windowSeconds: 60 * 60 },
  // A station's devices share one address and each push brings back two receipts at most.
  pushReceiptsPerIp: { max: 600, windowSeconds: 60 },
  pushTestPerUser: { max: 10, windowSeconds: 10 * 60 },
};

export interface RateLimiter {
  /** The rules in force now: fixed ones given at build (tests), else System Settings. */
  rules(): Promise<RateLimitSettings>;
  /** Counts one attempt against `key`; throws 429 RATE_LIMITED (with Retry-After) past the limit. */
  consume(rule: keyof RateLimitSettings, key: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimiter: RateLimiter;
  }
}

export const RATE_LIMITED_MESSAGE = 'Too many attempts. Please wait before trying again.';

export const rateLimitPlugin = fp<{ settings?: Partial<RateLimitSettings> | undefined }>(
  async (fastify, options) => {
    const fixed = options.settings ?? {};
    async function rules(): Promise<RateLimitSettings> {
      const s = await fastify.settings.get();
      const login = s.loginWindowMinutes * 60;
      return {
        loginPerIp: fixed.loginPerIp ?? { max: s.loginAttemptsPerIp, windowSeconds: login },
        loginPerEmail: fixed.loginPerEmail ?? {
          max: s.loginAttemptsPerEmail,
          windowSeconds: login,
        },
        registerPerIp: fixed.registerPerIp ?? {
          max: s.registrationsPerIpPerHour,
          windowSeconds: 60 * 60,
        },
        pushReceiptsPerIp: fixed.pushReceiptsPerIp ?? DEFAULT_RATE_LIMITS.pushReceiptsPerIp,
        pushTestPerUser: fixed.pushTestPerUser ?? DEFAULT_RATE_LIMITS.pushTestPerUser,
      };
    }
    fastify.decorate('rateLimiter', {
      rules,
      async consume(ruleName, key) {
        const rule = (await rules())[ruleName];
        const window = sql`${rule.windowSeconds} * interval '1 second'`;
        const fullKey = `${ruleName}:${key}`;
        const row = await fastify.db
          .insertInto('rateLimits')
          .values({
            key: fullKey,
            count: 1,
            windowStartedAt: sql`now()`,
            expiresAt: sql`now() + ${window}`,
          })
          .onConflict((oc) =>
            oc.column('key').doUpdateSet({
              count: sql`case when rate_limits.expires_at <= now() then 1 else rate_limits.count + 1 end`,
              windowStartedAt: sql`case when rate_limits.expires_at <= now() then now() else rate_limits.window_started_at end`,
              expiresAt: sql`case when rate_limits.expires_at <= now() then now() + ${window} else rate_limits.expires_at end`,
            }),
          )
          .returning([
            'count',
            sql<string>`extract(epoch from (expires_at - now()))`.as('secondsLeft'),
          ])
          .executeTakeFirstOrThrow();
        if (row.count > rule.max) {
          const retryAfterSeconds = Math.max(1, Math.ceil(Number(row.secondsLeft)));
          throw new ApiError(
            429,
            ErrorCode.RATE_LIMITED,
            RATE_LIMITED_MESSAGE,
            { retryAfterSeconds },
            { 'retry-after': String(retryAfterSeconds) },
          );
        }
      },
    } satisfies RateLimiter);
  },
  { name: 'rate-limit', dependencies: ['database', 'settings'] },
);
