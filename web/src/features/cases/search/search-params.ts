// The Cases Logged filters live in the URL query string (a search can be bookmarked, shared
// and survives a reload or the back button). Parsed with the same schema as the server's.
import type { CaseSearchFilters } from '@rescuelog/sync-protocol/cases/search';
import { caseSearchQuerySchema } from '@rescuelog/sync-protocol/cases/api';

export const FILTER_KEYS = [
  'caseId',
  'patientName',
  'incidentType',
  'from',
  'to',
  'status',
  'responder',
  'mine',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export interface ParsedFilters {
  filters: CaseSearchFilters;
  /** Values in the URL the schema refused (left out of the search), by field. */
  errors: Partial<Record<FilterKey, string>>;
}

/** Reads the filters from a query string; a value that does not parse is dropped and named. */
export function readFilters(params: URLSearchParams): ParsedFilters {
  const raw: Record<string, string> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value !== null) raw[key] = value;
  }
  const errors: Partial<Record<FilterKey, string>> = {};
  for (;;) {
    const parsed = caseSearchQuerySchema.safeParse(raw);
    if (parsed.success) {
      const { cursor: _cursor, limit: _limit, ...filters } = parsed.data;
      return { filters, errors };
    }
    const bad = parsed.error.issues
      .map((i) => String(i.path[0]))
      .filter((k): k is FilterKey => (FILTER_KEYS as readonly string[]).includes(k));
    if (bad.length === 0) return { filters: {}, errors };
    for (const key of bad) {
      errors[key] ??=
        parsed.error.issues.find((i) => i.path[0] === key)?.message ?? 'Invalid input';
      delete raw[key];
    }
  }
}

/** The query string of a search (empty filters left out). */
export function filtersToParams(filters: CaseSearchFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = filters[key];
    if (value !== undefined && value !== '') params.set(key, String(value));
  }
  return params;
}
