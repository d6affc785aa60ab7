// The Cases Logged filters in the URL query string (lib/list-params.ts), parsed with the same
// schema as the server's GET /api/cases.
import type { CaseSearchFilters } from '@rescuelog/sync-protocol/cases/search';
import { caseSearchQuerySchema } from '@rescuelog/sync-protocol/cases/api';
import { listParamsOf, readListParams, type ParsedParams } from '@/lib/list-params';

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

export type ParsedFilters = ParsedParams<CaseSearchFilters, FilterKey>;

/** Reads the filters from a query string; a value that does not parse is dropped and named. */
export function readFilters(params: URLSearchParams): ParsedFilters {
  const { filters, errors } = readListParams(caseSearchQuerySchema, FILTER_KEYS, params);
  if (!filters) return { filters: {}, errors };
  const { cursor: _cursor, limit: _limit, ...rest } = filters;
  return { filters: rest, errors };
}

/** The query string of a search (empty filters left out). */
export function filtersToParams(filters: CaseSearchFilters): URLSearchParams {
  return listParamsOf(filters, FILTER_KEYS);
}
