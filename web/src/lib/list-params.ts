// A list's filters live in the URL query string, so a search can be bookmarked, shared, and
// survives a reload and the back button. Values are parsed with the screen's zod schema (the
// server's query schema where it has one); a value the schema refuses is dropped from the
// search and named at its field, the rest still apply.
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import type { z } from 'zod';

export interface ParsedParams<F, K extends string> {
  filters: F;
  /** Values in the URL the schema refused (left out of the search), by field. */
  errors: Partial<Record<K, string>>;
}

/** Reads `keys` from a query string with `schema`, dropping (and naming) each bad value. */
export function readListParams<F, K extends string>(
  schema: z.ZodType<F>,
  keys: readonly K[],
  params: URLSearchParams,
): ParsedParams<F | undefined, K> {
  const raw: Record<string, string> = {};
  for (const key of keys) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  const errors: Partial<Record<K, string>> = {};
  for (;;) {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return { filters: parsed.data, errors };
    const bad = parsed.error.issues
      .map((i) => String(i.path[0]))
      .filter((k): k is K => (keys as readonly string[]).includes(k));
    if (bad.length === 0) return { filters: undefined, errors };
    for (const key of bad) {
      errors[key] ??=
        parsed.error.issues.find((i) => i.path[0] === key)?.message ?? 'Invalid input';
      delete raw[key];
    }
  }
}

/** The query string of a search: `keys` in order, empty values left out. */
export function listParamsOf<K extends string>(
  filters: Partial<Record<K, unknown>>,
  keys: readonly K[],
): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of keys) {
    const value = filters[key];
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params;
}

/**
 * The list's filters from the URL (`read` parses them) and `apply`, which writes new ones
 * (replacing the entry: typing a search is not a step the back button should retrace).
 * `key` changes whenever the filters do (paging starts over, the form is filled afresh).
 */
export function useListParams<P>(read: (params: URLSearchParams) => P): {
  parsed: P;
  key: string;
  apply: (params: URLSearchParams) => void;
} {
  const [params, setParams] = useSearchParams();
  const key = params.toString();
  // `read` is the screen's parser: a module-level or memoised function.
  const parsed = useMemo(() => read(new URLSearchParams(key)), [read, key]);
  return { parsed, key, apply: (next) => setParams(next, { replace: true }) };
}
