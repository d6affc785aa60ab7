import {
  lastKnownStatsSchema,
  statsSchema,
  type LastKnownStats,
} from '@rescuelog/sync-protocol/stats';
import { useQuery } from '@tanstack/react-query';
import { parsedQuery } from '@/lib/api-client';
import { getCached, setCached } from '@/lib/local-cache';

export const STATS_REFETCH_MS = 30_000;
/** The `cache_` entry of the last counts (cleared at logout, ignored after 24 h, spec §9). */
export const STATS_CACHE_KEY = 'stats';

const fetchStats = parsedQuery(statsSchema);

export interface QuickStatsState {
  /** The counts to show: the server's latest, else the last this device received. */
  known: LastKnownStats | undefined;
  /** The counts shown are not current: the last request failed (no signal, say). */
  stale: boolean;
  loading: boolean;
}

/**
 * Quick Stats: refetched every 30 s and when the window regains focus (spec §7). Every answer
 * is kept on the device with its time, so without signal the dashboard shows the last known
 * counts and when they were true, not an error.
 */
export function useStats(): QuickStatsState {
  const query = useQuery({
    queryKey: ['/api/stats'],
    queryFn: async (context) => {
      const stats = await fetchStats(context);
      setCached(STATS_CACHE_KEY, { stats, at: new Date().toISOString() });
      return stats;
    },
    refetchInterval: STATS_REFETCH_MS,
    refetchOnWindowFocus: 'always',
  });
  const known =
    query.data !== undefined
      ? { stats: query.data, at: new Date(query.dataUpdatedAt).toISOString() }
      : query.isError
        ? getCached(STATS_CACHE_KEY, lastKnownStatsSchema)
        : undefined;
  return { known, stale: query.isError, loading: query.isPending && !query.isError };
}
