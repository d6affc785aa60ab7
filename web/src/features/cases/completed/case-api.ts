// Server calls of the completed-case screen (online only; docs/decisions/007): a case that is
// not on this device (opened from the server's case search), an administrator's unlock, a
// case's access history, and the server's FHIR export of a case it holds. The server audits
// each of these itself.
import {
  caseAccessHistorySchema,
  caseRecordResponseSchema,
  CASE_ACCESS_HISTORY_DEFAULT_LIMIT,
  type CaseRecordResponse,
} from '@rescuelog/sync-protocol/cases/api';
import { caseRecordSchema } from '@rescuelog/sync-protocol/cases/case-schema';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiFetch, getJson, HttpError, sendJson, throwIfNotOk } from '@/lib/api-client';
import { getSyncSession } from '@/lib/sync/sync-session';

const casePath = (caseId: string) => `/api/cases/${encodeURIComponent(caseId)}`;

/** GET /api/cases/:caseId, only when asked (the case is not on this device and we are online). */
export function useServerCase(caseId: string, enabled: boolean) {
  return useQuery<CaseRecordResponse>({
    queryKey: ['/api/cases', caseId],
    queryFn: ({ signal }) => getJson(casePath(caseId), caseRecordResponseSchema, signal),
    enabled: enabled && caseId !== '',
    retry: false,
    staleTime: 0,
  });
}

const unlockResponseSchema = z.object({ case: caseRecordSchema });

/**
 * POST /api/cases/:caseId/unlock (administrators). The device then pulls, so its copy of the
 * case reopens too (devices learn about an unlock through pull, like any server change).
 */
export function useUnlockCase(caseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reason: string) =>
      sendJson('POST', `${casePath(caseId)}/unlock`, unlockResponseSchema, { reason }),
    onSuccess: () => {
      void getSyncSession()?.engine.sync('manual');
      void queryClient.invalidateQueries({ queryKey: ['/api/cases', caseId] });
    },
  });
}

/** GET /api/cases/:caseId/access-history, newest first, a page at a time (administrators). */
export function useAccessHistory(caseId: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: ['/api/cases', caseId, 'access-history'],
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ limit: String(CASE_ACCESS_HISTORY_DEFAULT_LIMIT) });
      if (pageParam) params.set('cursor', pageParam);
      return getJson(
        `${casePath(caseId)}/access-history?${params.toString()}`,
        caseAccessHistorySchema,
        signal,
      );
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
    retry: false,
    staleTime: 0,
  });
}

/** The server's FHIR export of a case it holds (GET /api/cases/:caseId/fhir), as a file. */
export async function fetchServerFhir(caseId: string): Promise<Blob> {
  const res = await apiFetch(`${casePath(caseId)}/fhir`, { credentials: 'include' });
  await throwIfNotOk(res);
  const text = await res.text();
  // A boundary: make sure it is the Bundle before handing it to the user as a file.
  const parsed = z.looseObject({ resourceType: z.literal('Bundle') }).safeParse(JSON.parse(text));
  if (!parsed.success)
    throw new HttpError(502, 'Bad Gateway', 'The server did not return a FHIR Bundle');
  return new Blob([text], { type: 'application/fhir+json' });
}
