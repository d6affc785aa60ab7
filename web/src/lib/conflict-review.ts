// Conflict review for administrators (decision 015): GET /api/admin/conflicts?resolved=false
// and POST /api/admin/conflicts/:id/resolve, for the review screen and the dashboard's count
// (one query). Online (TanStack Query, decision 001): settling a conflict is the server's
// audited write that every device then pulls.
import {
  syncConflictListSchema,
  syncConflictSchema,
  type ConflictResolution,
} from '@rescuelog/sync-protocol/platform/conflicts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { errorMessage, getJson, sendJson } from './api-client';
import { toast } from './toast-store';

export const ADMIN_CONFLICTS_KEY = '/api/admin/conflicts';

const listSchema = z.object({ conflicts: syncConflictListSchema });
const oneSchema = z.object({ conflict: syncConflictSchema });

/** The conflicts nobody has settled yet, newest first (the 200 newest). */
export function useConflictsToReview() {
  return useQuery({
    queryKey: [ADMIN_CONFLICTS_KEY, 'open'],
    queryFn: ({ signal }) =>
      getJson(`${ADMIN_CONFLICTS_KEY}?resolved=false&limit=200`, listSchema, signal),
    select: (d) => d.conflicts,
    staleTime: 30_000,
  });
}

export function useResolveConflict() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, choice }: { id: string; choice: ConflictResolution }) =>
      sendJson('POST', `${ADMIN_CONFLICTS_KEY}/${id}/resolve`, oneSchema, { choice }),
    onSuccess: () => {
      toast({ title: 'Conflict settled', description: 'Every device gets the kept value.' });
      void queryClient.invalidateQueries({ queryKey: [ADMIN_CONFLICTS_KEY] });
    },
    onError: (error) => {
      toast({ title: 'Not settled', description: errorMessage(error), variant: 'destructive' });
    },
  });
}
