import { caseListSchema, type CaseSummary } from '@rescuelog/sync-protocol/cases/list';
import { useQuery } from '@tanstack/react-query';
import { parsedQuery } from '@/lib/api-client';
import type { RecentCases } from './use-recent-cases';

export const RECENT_CASES_LIMIT = 3;

/**
 * GET /api/cases alone (newest first, the first three): what the dashboard shows on its first
 * render. The device's own cases (use-recent-cases.ts) need the local database code, which
 * loads after the first screen, and then join this list.
 */
export function useRecentServerCases(): RecentCases {
  const server = useQuery({ queryKey: ['/api/cases'], queryFn: parsedQuery(caseListSchema) });
  if (server.isPending) return { state: 'loading' };
  if (server.isError) return { state: 'error', error: server.error };
  return {
    state: 'ready',
    cases: server.data.slice(0, RECENT_CASES_LIMIT) as CaseSummary[],
    serverError: null,
  };
}
