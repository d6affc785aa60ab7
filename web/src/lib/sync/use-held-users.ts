// Whose unsynced changes this device holds behind their sign-in (decision 023), read from the
// device database (sync-protocol client/active-user.ts, zod-parsed). Read afresh every time
// the sign-in screen mounts; without IndexedDB nothing can be held.
import { useQuery } from '@tanstack/react-query';
import type { HeldUser } from '@rescuelog/sync-protocol/client/active-user';

export const HELD_USERS_QUERY_KEY = ['device', 'held-users'] as const;

async function readHeldUsers(): Promise<HeldUser[]> {
  if (typeof indexedDB === 'undefined') return [];
  const { listHeldUsers } = await import('@rescuelog/sync-protocol/client/active-user');
  return listHeldUsers();
}

export function useHeldUsers() {
  return useQuery({
    queryKey: HELD_USERS_QUERY_KEY,
    queryFn: readHeldUsers,
    staleTime: 0,
    gcTime: 0,
    refetchOnMount: 'always',
  });
}
