// Opens the signed-in user's sync session and closes it when they sign out or another user
// signs in. A 401/403 from the sync API means the session cookie is gone: the current user
// is re-checked, so the access guard sends the user to sign in; signing in again as the
// same user resumes the paused queue. The sync code loads only once someone is signed in.
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { USER_QUERY_KEY } from '@/lib/auth';

// Set once the sync code has been asked for. Until then there is no session to stop, so a
// signed-out visitor (the sign-in screen) never downloads or runs the sync code at all.
let syncCodeRequested = false;

export function useSyncLifecycle(user: User | null | undefined): void {
  const queryClient = useQueryClient();
  const userId = user?.status === 'approved' ? user.id : null;
  const signedInAs = useRef<number | null>(null);
  // A session that ended (logout, or a 401 anywhere) leaves no patient data in memory either:
  // every query but the current user's goes (GuestOnly's next visitor must not see it).
  useEffect(() => {
    if (userId !== null) {
      signedInAs.current = userId;
      return;
    }
    if (signedInAs.current === null) return;
    signedInAs.current = null;
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
  }, [userId, queryClient]);
  useEffect(() => {
    let cancelled = false;
    if (userId === null && !syncCodeRequested) return;
    syncCodeRequested = true;
    void import('./sync-session').then((sync) => {
      if (cancelled) return;
      if (userId === null) {
        sync.stopSyncSession();
        return;
      }
      sync.startSyncSession(userId, {
        onAuthRequired: () => void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }),
        // The user as last read from the server: a grant or role change seen there makes the
        // next pull bring the records it opens, older ones included.
        accessKey: () => {
          const current = queryClient.getQueryData<User | null>(USER_QUERY_KEY);
          return current?.id === userId ? sync.accessKeyOf(current) : null;
        },
      });
    });
    return () => {
      cancelled = true;
    };
  }, [userId, queryClient]);
}
