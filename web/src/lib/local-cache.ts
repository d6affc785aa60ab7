// Small localStorage cache: entries are stored under `cache_<key>` with the time they were
// written and are ignored (and removed) once older than 24 h (spec §9).
import type { z } from 'zod';

export const CACHE_PREFIX = 'cache_';
export const CACHE_MAX_AGE_MS = 24 * 60 * 60 * 1000;

interface Envelope {
  savedAt: number;
  value: unknown;
}

function isEnvelope(x: unknown): x is Envelope {
  return (
    typeof x === 'object' &&
    x !== null &&
    typeof (x as { savedAt?: unknown }).savedAt === 'number' &&
    'value' in x
  );
}

export function setCached(key: string, value: unknown, now: number = Date.now()): void {
  try {
    localStorage.setItem(
      CACHE_PREFIX + key,
      JSON.stringify({ savedAt: now, value } satisfies Envelope),
    );
  } catch {
    // Storage full or disabled (private mode): the cache is an optimisation, never required.
  }
}

export function getCached<S extends z.ZodType>(
  key: string,
  schema: S,
  now: number = Date.now(),
): z.output<S> | undefined {
  const raw = localStorage.getItem(CACHE_PREFIX + key);
  if (raw === null) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isEnvelope(parsed) || now - parsed.savedAt > CACHE_MAX_AGE_MS) {
      localStorage.removeItem(CACHE_PREFIX + key);
      return undefined;
    }
    const result = schema.safeParse(parsed.value);
    return result.success ? result.data : undefined;
  } catch {
    localStorage.removeItem(CACHE_PREFIX + key);
    return undefined;
  }
}

/** Removes every `cache_` entry (logout). Other keys, such as device settings, stay. */
export function clearCached(): void {
  const keys: string[] = [];
  for (let i = 0; i < localStorage.length; i++) {
    const k = localStorage.key(i);
    if (k?.startsWith(CACHE_PREFIX)) keys.push(k);
  }
  for (const k of keys) localStorage.removeItem(k);
}
