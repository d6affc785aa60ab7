import type { CaseSummary } from '@rescuelog/sync-protocol/cases/list';
import { mergeCaseLists, useRecentDeviceCases } from '@/lib/local-cases';

import { RECENT_CASES_LIMIT, type ServerCases } from './use-recent-server-cases';

export { RECENT_CASES_LIMIT };

export type RecentCases =
  | { state: 'loading' }
  | { state: 'error'; error: Error }
  /** `serverError`: the server could not be asked; the list holds the device's cases only. */
  | { state: 'ready'; cases: CaseSummary[]; serverError: Error | null };

/**
 * The first three cases, newest first: the device's own (so a case made offline shows at
 * once, with its current status) merged with GET /api/cases (newest first), one per case
 * number. Without signal the device's cases still show. `server`: the card's one
 * GET /api/cases (use-recent-server-cases.ts useServerCases).
 */
export function useRecentCases(server: ServerCases): RecentCases {
  const device = useRecentDeviceCases(RECENT_CASES_LIMIT);
  // The device answers in milliseconds; wait for it so the list does not jump.
  if (device === undefined) return { state: 'loading' };
  const onDevice = device ?? [];
  if (server.isPending)
    return onDevice.length > 0
      ? { state: 'ready', cases: onDevice, serverError: null }
      : { state: 'loading' };
  if (server.isError)
    return onDevice.length > 0
      ? { state: 'ready', cases: onDevice, serverError: server.error }
      : { state: 'error', error: server.error };
  return {
    state: 'ready',
    cases: mergeCaseLists(onDevice, server.data).slice(0, RECENT_CASES_LIMIT),
    serverError: null,
  };
}
