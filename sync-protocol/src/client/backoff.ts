// Exponential backoff with jitter for retries after a network failure, a 5xx or a captive
// portal. Jitter spreads the retries of many devices that lost the same server at once.

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 5 * 60_000 };

/**
 * Delay before retry number `failures` (1 = after the first failure): half of the capped
 * exponential step is fixed, the other half random, so it never collapses to zero.
 */
export function backoffDelay(
  failures: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const exponent = Math.min(Math.max(failures - 1, 0), 30);
  const step = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.round(step / 2 + random() * (step / 2));
}
