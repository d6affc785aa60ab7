// The number of open conflicts, for the administrator's dashboard (decision 015). Read from
// the server when online; offline it is simply not shown.
import { syncConflictListSchema } from '@rescuelog/sync-protocol/platform/conflicts';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { getJson } from '@/lib/api-client';

const listSchema = z.object({ conflicts: syncConflictListSchema });

export function useOpenConflictCount(): number | undefined {
  const query = useQuery({
    queryKey: ['/api/admin/conflicts', 'open', 'count'],
    queryFn: ({ signal }) =>
      getJson('/api/admin/conflicts?resolved=false&limit=200', listSchema, signal),
    select: (d) => d.conflicts.length,
    staleTime: 30_000,
  });
  return query.data;
}
