// Audit details are jsonb: this turns typed values (with optional, possibly undefined keys)
// into plain JSON values, exactly as they will be stored.
import type { JsonValue } from '@rescuelog/db/schema';

export function toJsonValue(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value ?? null)) as JsonValue;
}
