// Sign-in throttling (docs/decisions/022-sign-in-throttling.md). A failed password slows down
// whoever made it, never the account as a whole: counters are kept per (email, address) pair,
// per known device, and per account for unknown devices only (with a short cap), in
// `rate_limits` beside the fixed-window counters, so every API instance sees them.
//
// Each attempt is counted before the password is checked and forgiven when it was right, so
// a burst of parallel guesses cannot all slip in before the first failure is written. Once a
// key has had its free failures, each further one makes it wait 1 s, 2 s, 4 s, ... up to the
// rule's cap; an attempt while it waits is refused with 429 RATE_LIMITED and Retry-After,
// and is not counted (it checks no password, so it cannot lengthen the wait).
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { ApiError } from '../../lib/api-error';
import { RATE_LIMITED_MESSAGE } from './rate-limit';

export interface ThrottleRule {
  /** Failures allowed before the first wait. */
  freeFailures: number;
  /** The longest wait, in seconds. */
  maxDelaySeconds: number;
}

export interface SignInCounter {
  key: string;
  rule: ThrottleRule;
}

/** A key's failures are forgotten this long after its last counted attempt. */
export const FORGET_AFTER_SECONDS = 24 * 60 * 60;
/** Unknown devices together may fail this many times the pair's free failures per account. */
export const ACCOUNT_FAILURE_FACTOR = 5;
/** The account-wide wait stays short: it is the one an attacker can aim at someone else. */
export const ACCOUNT_MAX_DELAY_SECONDS = 60;
const LONGEST_DOUBLING = 30;

/** Seconds to wait after the `failures`-th counted failure (the SQL below computes the same). */
export function delaySeconds(failures: number, rule: ThrottleRule): number {
  if (failures < rule.freeFailures) return 0;
  return Math.min(
    rule.maxDelaySeconds,
    2 ** Math.min(LONGEST_DOUBLING, failures - rule.freeFailures),
  );
}

export interface SignInThrottle {
  /** The counters of a sign-in from an unknown device: the (email, address) pair and the account. */
  unknownDevice(email: string, ip: string): Promise<SignInCounter[]>;
  /** The counter of a sign-in from a device that signed in to this account before. */
  knownDevice(userId: number, deviceId: string): Promise<SignInCounter[]>;
  /** The counter of a signed-in user confirming their password (profile changes). */
  confirmation(email: string, ip: string): Promise<SignInCounter[]>;
  /** Refuses with 429 while any counter waits; otherwise counts one attempt on each. */
  attempt(counters: readonly SignInCounter[]): Promise<void>;
  /** The password was right: the attempt is forgiven (pair and device counters start over). */
  succeeded(counters: readonly SignInCounter[]): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    signInThrottle: SignInThrottle;
  }
}

function tooMany(secondsLeft: number): ApiError {
  const retryAfterSeconds = Math.max(1, Math.ceil(secondsLeft));
  return new ApiError(
    429,
    ErrorCode.RATE_LIMITED,
    RATE_LIMITED_MESSAGE,
    { retryAfterSeconds },
    { 'retry-after': String(retryAfterSeconds) },
  );
}

export const signInThrottlePlugin = fp(
  async (fastify) => {
    async function pairRule(): Promise<ThrottleRule> {
      const { loginPerEmail } = await fastify.rateLimiter.rules();
      return { freeFailures: loginPerEmail.max, maxDelaySeconds: loginPerEmail.windowSeconds };
    }

    async function waiting(keys: readonly string[]): Promise<number | undefined> {
      const rows = await fastify.db
        .selectFrom('rateLimits')
        .select(sql<string>`extract(epoch from (blocked_until - now()))`.as('secondsLeft'))
        .where('key', 'in', keys)
        .where('blockedUntil', '>', sql<Date>`now()`)
        .execute();
      if (rows.length === 0) return undefined;
      return Math.max(...rows.map((r) => Number(r.secondsLeft)));
    }

    async function count({ key, rule }: SignInCounter): Promise<boolean> {
      const next = sql<number>`(case when rate_limits.expires_at <= now() then 1 else rate_limits.count + 1 end)`;
      const free = sql`${rule.freeFailures}::int`;
      const cap = sql`${rule.maxDelaySeconds}::int`;
      const firstDelay = delaySeconds(1, rule);
      const row = await fastify.db
        .insertInto('rateLimits')
        .values({
          key,
          count: 1,
          windowStartedAt: sql`now()`,
          expiresAt: sql`now() + ${FORGET_AFTER_SECONDS} * interval '1 second'`,
          blockedUntil: firstDelay > 0 ? sql`now() + ${firstDelay} * interval '1 second'` : null,
        })
        .onConflict((oc) =>
          oc
            .column('key')
            .doUpdateSet({
              count: next,
              windowStartedAt: sql`case when rate_limits.expires_at <= now() then now() else rate_limits.window_started_at end`,
              expiresAt: sql`now() + ${FORGET_AFTER_SECONDS} * interval '1 second'`,
              blockedUntil: sql`case when ${next} >= ${free} then now() + least(${cap}, power(2, least(${LONGEST_DOUBLING}, ${next} - ${free}))) * interval '1 second' else null end`,
            })
            // Under the row lock: a parallel attempt that made the key wait stops this one.
            .where(
              sql<boolean>`rate_limits.blocked_until is null or rate_limits.blocked_until <= now()`,
            ),
        )
        .returning('count')
        .executeTakeFirst();
      return row !== undefined;
    }

    const throttle: SignInThrottle = {
      async unknownDevice(email, ip) {
        const pair = await pairRule();
        return [
          { key: `signIn:pair:${email}|${ip}`, rule: pair },
          {
            key: `signIn:account:${email}`,
            rule: {
              freeFailures: pair.freeFailures * ACCOUNT_FAILURE_FACTOR,
              maxDelaySeconds: Math.min(ACCOUNT_MAX_DELAY_SECONDS, pair.maxDelaySeconds),
            },
          },
        ];
      },
      async knownDevice(userId, deviceId) {
        return [{ key: `signIn:device:${String(userId)}:${deviceId}`, rule: await pairRule() }];
      },
      async confirmation(email, ip) {
        return [{ key: `signIn:pair:${email}|${ip}`, rule: await pairRule() }];
      },
      async attempt(counters) {
        if (counters.length === 0) return;
        const before = await waiting(counters.map((c) => c.key));
        if (before !== undefined) throw tooMany(before);
        for (const counter of counters) {
          if (!(await count(counter))) throw tooMany((await waiting([counter.key])) ?? 1);
        }
      },
      async succeeded(counters) {
        const startOver = counters.filter((c) => !c.key.startsWith('signIn:account:'));
        if (startOver.length > 0) {
          await fastify.db
            .deleteFrom('rateLimits')
            .where(
              'key',
              'in',
              startOver.map((c) => c.key),
            )
            .execute();
        }
        // The account counter keeps the failures of others: only this attempt is taken back.
        for (const { key, rule } of counters.filter((c) => c.key.startsWith('signIn:account:'))) {
          await fastify.db
            .updateTable('rateLimits')
            .set({
              count: sql`greatest(count - 1, 0)`,
              blockedUntil: sql`case when count - 1 < ${rule.freeFailures}::int then null else blocked_until end`,
            })
            .where('key', '=', key)
            .execute();
        }
      },
    };
    fastify.decorate('signInThrottle', throttle);
  },
  { name: 'sign-in-throttle', dependencies: ['database', 'rate-limit'] },
);
