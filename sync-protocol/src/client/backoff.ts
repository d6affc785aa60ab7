// Exponential backoff with jitter for retries after a network failure, a 5xx or a captive
// portal. Jitter spreads the retries of many devices that lost the same server at once.
// The cap is one minute (decision 016): a crew must see "synced" soon after the server is
// back, and the engine never waits longer than the cap, whatever a Retry-After asks.

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000 };

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

/**
 * How long to wait after a failure: the backoff, or longer when the server asked for it
 * (Retry-After), but never longer than the policy's cap: a server that says "come back in
 * an hour" must not park a crew's queue for an hour while the network is up.
 */
export function retryDelay(
  failures: number,
  retryAfterMs: number | null,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const wanted = Math.max(retryAfterMs ?? 0, backoffDelay(failures, policy, random));
  return Math.min(wanted, policy.maxMs);
}
