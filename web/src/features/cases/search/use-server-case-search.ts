// GET /api/cases with the Cases Logged filters, a page at a time ("Load more"). The body is
// the spec's list of cases; the next page's cursor comes in the X-Next-Cursor header.
import type { CaseSearchFilters } from '@rescuelog/sync-protocol/cases/search';
import { caseListSchema, type CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch, throwIfNotOk } from '@/lib/api-client';
import { filtersToParams } from './search-params';

export const SERVER_PAGE_SIZE = 50;

export interface CasePage {
  cases: CaseSummary[];
  nextCursor: string | null;
}

async function fetchCasePage(
  filters: CaseSearchFilters,
  cursor: string | null,
  signal: AbortSignal,
): Promise<CasePage> {
  const params = filtersToParams(filters);
  params.set('limit', String(SERVER_PAGE_SIZE));
  if (cursor) params.set('cursor', cursor);
  const res = await apiFetch(`/api/cases?${params.toString()}`, { credentials: 'include', signal });
  await throwIfNotOk(res);
  return {
    cases: caseListSchema.parse(await res.json()),
    nextCursor: res.headers.get('X-Next-Cursor'),
  };
}

export function useServerCaseSearch(filters: CaseSearchFilters, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['/api/cases', { search: filters }],
    queryFn: ({ pageParam, signal }) => fetchCasePage(filters, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    // A list others keep adding to: opening the screen again asks the server again.
    staleTime: 0,
  });
}
