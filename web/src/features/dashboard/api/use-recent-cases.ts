import { caseListSchema, type CaseSummary } from '@rescuelog/sync-protocol/cases';
import { useQuery } from '@tanstack/react-query';
import { parsedQuery } from '@/lib/api-client';

export const RECENT_CASES_LIMIT = 3;

/** GET /api/cases is newest first; the dashboard shows the first three. */
export function useRecentCases() {
  return useQuery({
    queryKey: ['/api/cases'],
    queryFn: parsedQuery(caseListSchema),
    select: (cases: CaseSummary[]) => cases.slice(0, RECENT_CASES_LIMIT),
  });
}
