// Audit details and stored rejections are jsonb: this turns typed values (with optional,
// possibly undefined keys) into plain JSON values, exactly as they will be stored. jsonb holds
// no NUL character and no lone UTF-16 surrogate, and a refused input is recorded as it came (a
// rejection keeps the data): such a character in a string or key is kept as U+FFFD, the
// replacement character, instead of failing the record. Nesting deeper than any form makes is
// cut off (iteratively: a 10,000-deep value must not overflow the stack), marked '[too deep]'.
import type { JsonValue } from '@rescuelog/db/schema';

// eslint-disable-next-line no-control-regex -- NUL is exactly what is matched
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const MAX_DEPTH = 32;

const storable = (text: string): string => text.replace(UNSTORABLE, '\uFFFD');

function clean(value: unknown, depth: number): JsonValue {
  if (typeof value === 'string') return storable(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean' || value === null) return value;
  if (typeof value !== 'object') return null;
  if (depth >= MAX_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((v: unknown) => clean(v, depth + 1));
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === undefined) continue;
    out[storable(k)] = clean(v, depth + 1);
  }
  return out;
}

/** Cuts `value` below MAX_DEPTH without recursion (JSON.stringify itself would overflow). */
function shallowCopy(value: unknown): unknown {
  const root: { v: unknown } = { v: value };
  const stack: {
    holder: Record<string, unknown> | unknown[];
    key: string | number;
    depth: number;
  }[] = [{ holder: root as unknown as Record<string, unknown>, key: 'v', depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop();
    if (!item) break;
    const current = (item.holder as Record<string | number, unknown>)[item.key];
    if (current === null || typeof current !== 'object' || current instanceof Date) continue;
    if (item.depth >= MAX_DEPTH) {
      (item.holder as Record<string | number, unknown>)[item.key] = '[too deep]';
      continue;
    }
    const copy: Record<string, unknown> | unknown[] = Array.isArray(current)
      ? [...current]
      : { ...(current as Record<string, unknown>) };
    (item.holder as Record<string | number, unknown>)[item.key] = copy;
    for (const key of Object.keys(copy))
      stack.push({
        holder: copy,
        key: Array.isArray(copy) ? Number(key) : key,
        depth: item.depth + 1,
      });
  }
  return root.v;
}

export function toJsonValue(value: unknown): JsonValue {
  return clean(JSON.parse(JSON.stringify(shallowCopy(value ?? null)) ?? 'null'), 0);
}

/**
 * What a stored rejection keeps of a refused mutation's args: the whole value when it is at
 * most `limitBytes` as JSON, else a marker with its size (the device keeps the data in its
 * own inbox; the server must not store 20 MiB because a device sent it).
 */
export function boundedJsonValue(value: unknown, limitBytes: number): JsonValue {
  const json = toJsonValue(value);
  const bytes = Buffer.byteLength(JSON.stringify(json));
  return bytes <= limitBytes ? json : { truncated: true, bytes };
}
