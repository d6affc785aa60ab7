// Audit details are jsonb: this turns typed values (with optional, possibly undefined keys)
// into plain JSON values, exactly as they will be stored. jsonb holds no NUL character, and a
// refused input is recorded as it came (a rejection keeps the data): a NUL in a string or key
// is kept as U+FFFD, the replacement character, instead of failing the record.
import type { JsonValue } from '@rescuelog/db/schema';

const withoutNul = (text: string): string => text.replaceAll('\u0000', '\uFFFD');

function clean(value: JsonValue): JsonValue {
  if (typeof value === 'string') return withoutNul(value);
  if (Array.isArray(value)) return value.map(clean);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [withoutNul(k), clean(v)]));
  return value;
}

export function toJsonValue(value: unknown): JsonValue {
  return clean(JSON.parse(JSON.stringify(value ?? null)) as JsonValue);
}
