import { caseListSchema, type CaseSummary } from '@rescuelog/sync-protocol/cases/list';
import { useQuery, type UseQueryResult } from '@tanstack/react-query';
import { parsedQuery } from '@/lib/api-client';
import type { RecentCases } from './use-recent-cases';

export const RECENT_CASES_LIMIT = 3;

export type ServerCases = UseQueryResult<CaseSummary[]>;

/**
 * GET /api/cases (newest first), asked once by the Recent Cases card itself. Both of its
 * lists read this one observer: the first render's (server only) and, once the local
 * database code has loaded, the one with the device's cases merged in. Were each list to ask
 * on its own, the hand-over would unmount the only observer while the request was in the
 * air, and TanStack Query would abort it and ask again (issue 37: an aborted GET /api/cases
 * on most dashboard loads).
 */
export function useServerCases(): ServerCases {
  return useQuery({ queryKey: ['/api/cases'], queryFn: parsedQuery(caseListSchema) });
}

/** What the dashboard shows on its first render: the server's first three cases. */
export function recentServerCases(server: ServerCases): RecentCases {
  if (server.isPending) return { state: 'loading' };
  if (server.isError) return { state: 'error', error: server.error };
  return {
    state: 'ready',
    cases: server.data.slice(0, RECENT_CASES_LIMIT),
    serverError: null,
  };
}
