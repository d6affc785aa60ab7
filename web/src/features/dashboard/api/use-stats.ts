import { statsSchema } from '@rescuelog/sync-protocol/stats';
import { useQuery } from '@tanstack/react-query';
import { parsedQuery } from '@/lib/api-client';

export const STATS_REFETCH_MS = 30_000;

/** Quick Stats: refetched every 30 s and when the window regains focus (spec §7). */
export function useStats() {
  return useQuery({
    queryKey: ['/api/stats'],
    queryFn: parsedQuery(statsSchema),
    refetchInterval: STATS_REFETCH_MS,
    refetchOnWindowFocus: 'always',
  });
}
